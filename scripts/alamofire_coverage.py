#!/usr/bin/env python3
"""Share of Alamofire's public symbols that AF has, from two directories of symbol graphs
(`swift package dump-symbol-graph --minimum-access-level public`). A symbol matches when one of
AF's modules has a symbol of the same kind at the same path, argument labels included (types may
differ: AF's Linux stand-ins such as `ServerTrust` for `SecTrust`).

usage: alamofire_coverage.py ALAMOFIRE_SYMBOLGRAPH_DIR AF_SYMBOLGRAPH_DIR [--list-missing]
"""
import json
import pathlib
import sys


def symbols(directory, module_prefixes):
    found = {}
    for path in pathlib.Path(directory).rglob("symbolgraph/*.symbols.json"):
        module = path.name.split(".")[0].split("@")[0]
        if not any(module == prefix or module.startswith(prefix) for prefix in module_prefixes):
            continue
        graph = json.loads(path.read_text())
        for symbol in graph.get("symbols", []):
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            components = symbol.get("pathComponents", [])
            if any(part.startswith("_") for part in components):
                continue
            key = (symbol["kind"]["identifier"], "/".join(components))
            found[key] = module
    return found


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    alamofire = symbols(sys.argv[1], ["Alamofire"])
    af = symbols(sys.argv[2], ["AFCore", "AFTrust", "AFCache", "AFMultipart", "AFReachability", "AFAuth", "AFCombine"])
    matched = [key for key in alamofire if key in af]
    missing = sorted(key for key in alamofire if key not in af)
    share = 100.0 * len(matched) / max(1, len(alamofire))
    print(f"AF has {len(matched)} of Alamofire's {len(alamofire)} public symbols ({share:.1f} %)")
    if "--list-missing" in sys.argv:
        for kind, path in missing:
            print(f"  missing {kind.replace('swift.', '')}: {path}")


if __name__ == "__main__":
    main()

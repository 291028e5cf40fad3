#!/usr/bin/env bash
# How much of Alamofire's public API AF has, by symbol graphs. Not part of
# CI: it builds both packages with symbol-graph output, which takes minutes.
# usage: scripts/alamofire-coverage.sh /path/to/Alamofire-checkout [--list-missing]
set -euo pipefail
alamofire=$(cd "${1:?usage: scripts/alamofire-coverage.sh /path/to/Alamofire [--list-missing]}" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
# Both packages have modules (test discovery, C targets) that swift-symbolgraph-extract cannot
# read; the command then fails after writing the graphs that matter, which are checked for below.
for package in "$alamofire" "$root"; do
    swift package --package-path "$package" dump-symbol-graph --minimum-access-level public >/dev/null 2>&1 || true
done
for module in "$alamofire/.build"/*/symbolgraph/Alamofire.symbols.json "$root/.build"/*/symbolgraph/AFCore.symbols.json; do
    [ -f "$module" ] || { echo "no symbol graph: $module" >&2; exit 1; }
done
python3 "$root/scripts/alamofire_coverage.py" "$alamofire/.build" "$root/.build" "$@"

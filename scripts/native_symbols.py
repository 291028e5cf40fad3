"""Names for return addresses recorded by the preloaded counters in Benchmarks/Tools: the function
of a module (shared library or executable) that holds an offset, demangled. Used by
scripts/count-retains.sh and scripts/count-objects.sh."""
import bisect
import subprocess

_tables = {}


def function(module, offset):
    """The name of the function in `module` that holds `offset` ('?' when none is known)."""
    if module not in _tables:
        table = []
        for flags in (["-n", "--defined-only"], ["-n", "-D", "--defined-only"]):
            out = subprocess.run(["nm", *flags, module], capture_output=True, text=True).stdout
            table = [(int(address, 16), name) for address, kind, name in
                     (line.split(" ", 2) for line in out.splitlines() if line.count(" ") >= 2)
                     if kind in "tTwW"]
            if table:
                break
        table.sort()
        _tables[module] = ([address for address, _ in table], [name for _, name in table])
    starts, names = _tables[module]
    index = bisect.bisect_right(starts, offset) - 1
    return names[index] if index >= 0 else "?"


def demangle(name):
    """`name` demangled in Swift's short form, or as given when it is not a Swift symbol."""
    out = subprocess.run(["swift", "demangle", "--simplified", "--compact", name], capture_output=True, text=True)
    return out.stdout.strip() or name

#!/usr/bin/env bash
# Which objects a request's reference counting lands on: swift_retain calls per request for the
# most retained objects (those every request shares stand out: a request's own objects are
# retained a few times each), and the functions that retained each. `af-bench-client` against the
# loopback nginx, with Benchmarks/Tools/retain-counter.c preloaded. Starts the servers itself.
# Usage: scripts/count-retains.sh [FORM [INFLIGHT [COUNT]]]   FORM: metrics | result | async | hooked
set -euo pipefail
cd "$(dirname "$0")/.."
command -v gcc >/dev/null || { echo "needs gcc" >&2; exit 2; }
form=${1:-result}
inflight=${2:-64}
count=${3:-20000}
. scripts/bench-client-setup.sh
counter=$(preload_library retain-counter)

RC_OUT="$work/objects.txt" RC_CALLERS="$work/callers.txt" LD_PRELOAD="$counter" \
    "$built_client" "$url" "$count" "$inflight" "" "$form" >"$work/result.json"
PYTHONPATH=scripts python3 - "$work" "$count" <<'PY'
import collections, json, sys
from native_symbols import demangle, function
work, count = sys.argv[1], int(sys.argv[2])
result = json.load(open(f"{work}/result.json"))
if result["failures"]:
    sys.exit("%d of %d requests failed: not counted" % (result["failures"], result["requests"]))
lines = open(f"{work}/objects.txt").read().splitlines()
retains, releases = lines[0].split()[2], lines[0].split()[4]
print(f"retains a request: {int(retains) / count:.1f}, releases {int(releases) / count:.1f}")
names = {}
for line in lines[1:]:
    fields = line.split(None, 3)
    names[fields[2]] = fields[3] if len(fields) > 3 else ""
byObject = collections.OrderedDict()
for line in open(f"{work}/callers.txt"):
    address, retained, module, offset = line.split()
    byObject.setdefault(address, collections.Counter())[function(module, int(offset, 16))] += int(retained)
for address, functions in byObject.items():
    total = sum(functions.values()) / count
    if total < 0.5: continue
    print(f"{total:5.1f}  {names.get(address, '')}")
    for name, retained in functions.most_common(8):
        print(f"        {retained / count:5.2f}  {demangle(name)[:140]}")
PY

#!/usr/bin/env bash
# Which Swift objects a request makes: swift_allocObject calls per request, by kind (class, or
# closure context and box by size) and the function that made them. `af-bench-client` against
# the loopback nginx with Benchmarks/Tools/object-counter.c preloaded, a short run subtracted
# from a long one so that start-up objects drop out. Starts the servers itself.
# Usage: scripts/count-objects.sh [FORM [INFLIGHT [COUNT]]]   FORM: metrics | result | async | hooked
set -euo pipefail
cd "$(dirname "$0")/.."
command -v gcc >/dev/null || { echo "needs gcc" >&2; exit 2; }
form=${1:-result}
inflight=${2:-1}
count=${3:-12000}
short=2000
[ "$count" -gt "$short" ] || { echo "COUNT must be more than $short" >&2; exit 2; }
. scripts/bench-client-setup.sh
counter=$(preload_library object-counter)

for run in "$short" "$count"; do
    OC_OUT="$work/objects.$run" LD_PRELOAD="$counter" \
        "$built_client" "$url" "$run" "$inflight" "" "$form" >"$work/result.$run.json"
done
PYTHONPATH=scripts python3 - "$work" "$short" "$count" <<'PY'
import json, sys
from native_symbols import demangle, function
work, short, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for run in (short, count):
    result = json.load(open(f"{work}/result.{run}.json"))
    if result["failures"]:
        sys.exit("%d of %d requests failed: not counted" % (result["failures"], result["requests"]))
def load(run):
    kinds = {}
    for line in open(f"{work}/objects.{run}"):
        made, size, module, offset, name = line.rstrip("\n").split("\t")
        kinds[(module, int(offset, 16), name)] = (int(made), size)
    return kinds
before, after = load(short), load(count)
rows = []
for key, (made, size) in after.items():
    perRequest = (made - before.get(key, (0, size))[0]) / (count - short)
    if perRequest >= 0.05:
        rows.append((perRequest, key + (size,)))
rows.sort(key=lambda row: -row[0])
print(f"objects a request: {sum(perRequest for perRequest, _ in rows):.2f}")
for perRequest, (module, offset, name, size) in rows:
    print(f"{perRequest:5.2f}  {size:>5} B  {name[:44]:44}  {demangle(function(module, offset))[:110]}")
PY

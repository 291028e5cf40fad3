#!/usr/bin/env bash
# Where a request's cost goes, per thread: instructions per request on the curl engine thread and
# on the other threads (callgrind, a 6,000- minus a 2,000-request run), and `futex` calls per
# request by cause (perf, 8,000 requests). Starts the loopback servers itself.
# Usage: scripts/profile-requests.sh [FORM [INFLIGHT]]   FORM: metrics | result | async (af-bench-client)
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in valgrind perf; do
    command -v "$tool" >/dev/null || { echo "needs $tool (Debian: apt-get install valgrind linux-perf)" >&2; exit 2; }
done
form=${1:-result}
inflight=${2:-64}
. scripts/bench-client-setup.sh
profiling_copy "$built_client" "$form" "$inflight"
client="$work/client"

# Instructions per thread: the thread that runs CurlEngine.run is the engine.
for n in 2000 6000; do
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/cg.$n" \
        "$client" "$url" "$n" "$inflight" "" "$form" >/dev/null 2>&1
done
python3 - "$work" <<'PY'
import glob, sys
def split(n):
    engine = other = 0
    for path in glob.glob(f"{sys.argv[1]}/cg.{n}-*"):
        text = open(path, errors="replace").read()
        total = next(int(l.split()[1]) for l in text.splitlines() if l.startswith("totals:"))
        if "CurlEngineC3run" in text: engine += total
        else: other += total
    return engine, other
(e1, o1), (e2, o2) = split(2000), split(6000)
print(f"instructions per request: engine thread {(e2 - e1) / 4000:.0f}, other threads {(o2 - o1) / 4000:.0f}")
PY

perf record -q -e syscalls:sys_enter_futex --call-graph dwarf,4096 -o "$work/futex.data" \
    "$client" "$url" 8000 "$inflight" "" "$form" >/dev/null 2>&1
perf script -i "$work/futex.data" 2>/dev/null | python3 -c '
import collections, re, sys
counts = collections.Counter()
for block in sys.stdin.read().split("\n\n"):
    lines = [l.strip() for l in block.strip().splitlines() if l.strip()]
    if not lines or "sys_enter_futex" not in lines[0]: continue
    stack = " ".join(lines[1:8])
    if "_dispatch_semaphore_wait_slow" in stack: cause = "worker waiting for work"
    elif "poke_slow" in stack: cause = "worker woken for an idle queue"
    elif re.search(r"malloc|calloc|realloc|free|_int_", stack): cause = "allocator arena lock"
    else: cause = "other locks"
    counts[cause] += 1
for cause, count in counts.most_common(): print(f"futex per request, {cause}: {count / 8000:.3f}")
print(f"futex per request, all: {sum(counts.values()) / 8000:.3f}")
'

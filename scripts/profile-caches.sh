#!/usr/bin/env bash
# What a request costs in the first-level caches, by library: instructions, instruction-cache
# misses and data-cache misses per request (cachegrind, a 6,000- minus a 2,000-request run, the
# processor's cache sizes). Starts the loopback servers itself.
# Usage: scripts/profile-caches.sh [FORM [INFLIGHT]]
#   FORM: an af-bench-client form (metrics | result | async), or skeleton:SHAPE for a floor
#   (skeleton-bench's shapes, e.g. skeleton:min-hops+contract).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "needs valgrind (Debian: apt-get install valgrind)" >&2; exit 2; }
form=${1:-result}
inflight=${2:-1}
. scripts/bench-client-setup.sh
if [[ $form == skeleton:* ]]; then
    swift build -c release --package-path Benchmarks --product skeleton-bench >/dev/null
    built="$(dirname "$built_client")/skeleton-bench"
    form=${form#skeleton:}
else
    built=$built_client
fi
profiling_copy "$built" "$form" "$inflight"
client="$work/client"

for n in 2000 6000; do
    valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file="$work/cache.$n" \
        "$client" "$url" "$n" "$inflight" "" "$form" >/dev/null 2>&1
done
python3 - "$work" <<'PY'
import collections, re, sys

def group(source, function):
    """The library a function belongs to, by its symbol or source file (libcurl's own are unnamed)."""
    if re.search(r"AFCore|BenchSupport|14skeleton_bench", function) or function.startswith("main"):
        return "the client's own code"
    if function == "???" or function.startswith(("curl_", "Curl")): return "libcurl"
    if re.match(r"(swift_|_swift|__swift|\$ss|\$sS|bool swift|void swift|.*swift::)", function): return "the Swift runtime"
    if re.search(r"Foundation|^_?CF|[dD]ispatch|^\$s8Dispatch|^_Block", function): return "Dispatch, Foundation and the rest"
    if source.endswith((".c", ".S")) or re.search(r"malloc|pthread", function): return "the C library"
    return "Dispatch, Foundation and the rest"

def totals(path):
    sums = collections.defaultdict(lambda: [0] * 9)
    source = function = None
    for line in open(path, errors="replace"):
        if line.startswith("fl="):
            source = line[3:].strip()
        elif line.startswith("fn="):
            function = line[3:].strip()
        elif line[:1].isdigit():
            counts = [int(field) for field in line.split()[1:]]
            row = sums[group(source, function)]
            for index, count in enumerate(counts): row[index] += count
    return sums

before, after = totals(f"{sys.argv[1]}/cache.2000"), totals(f"{sys.argv[1]}/cache.6000")
# Columns: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
print(f"{'per request':36} {'instructions':>12} {'I1 misses':>10} {'D1 misses':>10}")
everything = [0.0, 0.0, 0.0]
for name in sorted(after):
    delta = [(a - b) / 4000 for a, b in zip(after[name], before.get(name, [0] * 9))]
    row = [delta[0], delta[1], delta[4] + delta[7]]
    everything = [x + y for x, y in zip(everything, row)]
    print(f"{name:36} {row[0]:12.0f} {row[1]:10.0f} {row[2]:10.0f}")
print(f"{'all':36} {everything[0]:12.0f} {everything[1]:10.0f} {everything[2]:10.0f}")
PY

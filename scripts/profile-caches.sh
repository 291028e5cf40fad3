#!/usr/bin/env bash
# What a request costs in the first-level caches, by library: instructions, instruction-cache
# misses and data-cache misses per request (valgrind's cache simulation, with the processor's
# cache sizes; a 6,000- minus a 2,000-request run). Starts the loopback servers itself.
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
    # Callgrind's cache simulation: it names each function's object file, which groups the costs.
    status=0
    valgrind --tool=callgrind --cache-sim=yes --callgrind-out-file="$work/cache.$n" \
        "$client" "$url" "$n" "$inflight" "" "$form" >"$work/run.$n.json" 2>"$work/valgrind.$n.log" || status=$?
    # The client exits 1 when a request failed: say so before anything else.
    [ ! -s "$work/run.$n.json" ] || requests_succeeded <"$work/run.$n.json"
    [ "$status" = 0 ] || { tail -20 "$work/valgrind.$n.log" >&2; exit 1; }
done
python3 - "$work" "$(basename "$client")" <<'PY'
import collections, os, re, sys

def group(library):
    """The part of the process an object file is."""
    name = os.path.basename(library)
    if name == sys.argv[2]: return "the client's binary"
    if name.startswith("libcurl"): return "libcurl"
    if name.startswith("libswift") and "Dispatch" not in name: return "the Swift runtime"
    if re.match(r"(libc|libm|ld-linux[-\w]*)\.so", name): return "the C library"
    return "Dispatch, Foundation and the rest"

def self_costs(path):
    """Each group's own costs (not its calls'), by event name."""
    sums = collections.defaultdict(collections.Counter)
    objects = {}  # an object file's number in the file: its name, given where it first appears
    events, current_object, function_group, skip_next = [], "", None, False
    for line in open(path, errors="replace"):
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith(("ob=", "cob=")):
            number, _, name = line.strip().partition("=")[2].partition(")")
            number, name = number.lstrip("("), name.strip()
            if name: objects[number] = name
            if line.startswith("ob="): current_object = objects.get(number, "")
        elif line.startswith("fn="):
            # A function's costs follow it; the object it belongs to was named just before.
            function_group = group(current_object)
        elif line.startswith("calls="):
            skip_next = True  # the next cost line is the call's, counted in the callee
        elif line[:1] in "0123456789+-*" and line.strip():
            if skip_next:
                skip_next = False
                continue
            for event, cost in zip(events, line.split()[1:]):
                sums[function_group][event] += int(cost)
    return sums

before = self_costs(f"{sys.argv[1]}/cache.2000")
after = self_costs(f"{sys.argv[1]}/cache.6000")
print(f"{'per request':36} {'instructions':>12} {'I1 misses':>10} {'D1 misses':>10}")
columns = [("Ir",), ("I1mr",), ("D1mr", "D1mw")]
everything = [0.0] * len(columns)
for name in sorted(after):
    row = [sum(after[name][e] - before[name][e] for e in events) / 4000 for events in columns]
    everything = [x + y for x, y in zip(everything, row)]
    print(f"{name:36} {row[0]:12.0f} {row[1]:10.0f} {row[2]:10.0f}")
print(f"{'all':36} {everything[0]:12.0f} {everything[1]:10.0f} {everything[2]:10.0f}")
PY

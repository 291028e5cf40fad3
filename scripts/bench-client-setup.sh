# Sourced by the profiling scripts, from the project root. Builds af-bench-client (release) and
# starts the loopback servers, in a temporary directory removed (servers stopped) on exit. Sets:
#   work           the temporary directory
#   built_client   the built af-bench-client
#   url            the nginx URL of the request workloads
# and defines preload_library, for the counters in Benchmarks/Tools, requests_succeeded and
# profiling_copy.
work=$(mktemp -d)
trap 'kill "$(cat "$work/servers.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"' EXIT

swift build -c release --package-path Benchmarks --product af-bench-client >/dev/null
built_client="$(swift build -c release --package-path Benchmarks --show-bin-path 2>/dev/null)/af-bench-client"

python3 Tests/Fixtures/servers.py --detach "$work/servers.json" >"$work/servers.log" 2>&1 &
echo $! >"$work/servers.pid"
# They take about ten seconds to start (certificates, nginx, httpbin); a minute at most.
for _ in $(seq 600); do [ -s "$work/servers.json" ] && break; sleep 0.1; done
[ -s "$work/servers.json" ] || { echo "the loopback servers did not start:" >&2; tail -20 "$work/servers.log" >&2; exit 1; }
url=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['http'] + '/bench.json')" "$work/servers.json")

# Builds Benchmarks/Tools/NAME.c as a library to preload into the client; prints its path.
preload_library() {
    gcc -O2 -shared -fPIC -o "$work/$1.so" "Benchmarks/Tools/$1.c" -ldl -lpthread
    echo "$work/$1.so"
}

# Copies BINARY to $work/client without its debug information (valgrind cannot read this
# toolchain's; the symbols stay), after checking that 200 of its requests in FORM with INFLIGHT
# at once succeed.
# Usage: profiling_copy BINARY FORM INFLIGHT
profiling_copy() {
    cp "$1" "$work/client"
    strip -g "$work/client"
    "$work/client" "$url" 200 "$3" "" "$2" | requests_succeeded
}

# Fails, saying how many, when the client's result on standard input counts failed requests: a
# profile of failing requests measures the error path.
requests_succeeded() {
    python3 -c '
import json, sys
result = json.load(sys.stdin)
if result["failures"]: sys.exit("%d of %d requests failed; not profiling" % (result["failures"], result["requests"]))'
}

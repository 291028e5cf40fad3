# Sourced by the profiling scripts, from the project root. Builds af-bench-client (release) and
# starts the loopback servers, in a temporary directory removed (servers stopped) on exit. Sets:
#   work           the temporary directory
#   built_client   the built af-bench-client
#   url            the nginx URL of the request workloads
# and defines preload_library, for the counters in Benchmarks/Tools.
work=$(mktemp -d)
trap 'kill "$(cat "$work/servers.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"' EXIT

swift build -c release --package-path Benchmarks --product af-bench-client >/dev/null
built_client="$(swift build -c release --package-path Benchmarks --show-bin-path 2>/dev/null)/af-bench-client"

python3 Tests/Fixtures/servers.py --detach "$work/servers.json" >"$work/servers.log" 2>&1 &
echo $! >"$work/servers.pid"
for _ in $(seq 100); do [ -s "$work/servers.json" ] && break; sleep 0.1; done
url=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['http'] + '/bench.json')" "$work/servers.json")

# Builds Benchmarks/Tools/NAME.c as a library to preload into the client; prints its path.
preload_library() {
    gcc -O2 -shared -fPIC -o "$work/$1.so" "Benchmarks/Tools/$1.c" -ldl -lpthread
    echo "$work/$1.so"
}

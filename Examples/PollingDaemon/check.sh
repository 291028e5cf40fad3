#!/usr/bin/env bash
# CI's check of the example daemon: a run of two polls ends cleanly, and a running daemon stops
# cleanly on SIGTERM (its log ends with "stopped cleanly", exit status 0).
set -euo pipefail
cd "$(dirname "$0")"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
./run.sh --polls 2 --interval 0.1 2> "$log"
grep -q "polls=2" "$log" && grep -q "stopped cleanly" "$log" || { cat "$log"; echo "two polls: no clean end" >&2; exit 1; }
./run.sh 2> "$log" &
daemon=$!
# Wait for the first poll in the log (the daemon is running), then ask it to stop.
for _ in $(seq 1 600); do grep -q " poll$" "$log" && break; sleep 0.1; done
pkill -TERM -f "PollingDaemon --token-endpoint" 
wait "$daemon"
grep -q "stopped cleanly" "$log" || { cat "$log"; echo "SIGTERM: no clean stop" >&2; exit 1; }
echo "example daemon: two polls and a SIGTERM stop, both clean"

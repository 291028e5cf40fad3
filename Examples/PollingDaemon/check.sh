#!/usr/bin/env bash
# CI's check of the example daemon: a run of two polls ends cleanly, and a running daemon stops
# cleanly on SIGTERM (its log ends with "stopped cleanly", exit status 0).
set -euo pipefail
cd "$(dirname "$0")"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# A run that fails shows its log (the daemon's messages, or why it crashed) before the check ends.
status=0
./run.sh --polls 2 --interval 0.1 2> "$log" || status=$?
[ "$status" = 0 ] && grep -q "polls=2" "$log" && grep -q "stopped cleanly" "$log" \
    || { cat "$log"; echo "two polls: no clean end (status $status)" >&2; exit 1; }
./run.sh 2> "$log" &
daemon=$!
# Wait for the first poll in the log (the daemon is running), then ask it to stop.
for _ in $(seq 1 600); do grep -q " poll$" "$log" && break; sleep 0.1; done
pkill -TERM -f "PollingDaemon --token-endpoint"
status=0
wait "$daemon" || status=$?
[ "$status" = 0 ] && grep -q "stopped cleanly" "$log" || { cat "$log"; echo "SIGTERM: no clean stop (status $status)" >&2; exit 1; }

# The Daemons article shows SyncDaemon word for word; it syncs, then stops cleanly on SIGTERM.
python3 - ../../Sources/AFCore/AFCore.docc/Daemons.md Sources/SyncDaemon/SyncDaemon.swift <<'PY'
import sys
article, source = (open(path).read() for path in sys.argv[1:])
block = article.split("```swift\n", 1)[1].split("```\n", 1)[0]
if block != source:
    sys.exit("Daemons.md's first code block is not Sources/SyncDaemon/SyncDaemon.swift")
PY
./run.sh --sync-daemon > "$log" 2>&1 &
daemon=$!
for _ in $(seq 1 600); do grep -q "synced" "$log" && break; sleep 0.1; done
pkill -TERM -f "debug/SyncDaemon"
status=0
wait "$daemon" || status=$?
grep -q "synced" "$log" && [ "$status" = 0 ] && ! grep -q "sync failed" "$log" \
    || { cat "$log"; echo "SyncDaemon: no clean sync and stop (status $status)" >&2; exit 1; }
echo "example daemons: two polls and a SIGTERM stop, a sync and a SIGTERM stop, all clean"

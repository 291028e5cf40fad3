#!/usr/bin/env bash
# Builds the example daemon, starts the project's local test servers (Tests/Fixtures/servers.py:
# an OAuth 2.0 token endpoint and a protected resource on the fault server) and runs the daemon
# against them until Ctrl-C or SIGTERM. Extra arguments go to the daemon (e.g. --polls 3);
# --sync-daemon runs the Daemons article's daemon instead.
set -euo pipefail
cd "$(dirname "$0")"
swift build --package-path . >&2
directory=$(mktemp -d)
trap 'exec 3>&-; rm -rf "$directory"' EXIT
mkfifo "$directory/servers-in"
# The servers stop when their standard input closes: when this script ends.
python3 ../../Tests/Fixtures/servers.py < "$directory/servers-in" > "$directory/servers.json" &
exec 3> "$directory/servers-in"
until [ -s "$directory/servers.json" ]; do sleep 0.2; done
faults=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['faults'])" "$directory/servers.json")
if [ "${1:-}" = "--sync-daemon" ]; then
    # The Daemons article's daemon, configured by its environment.
    TOKEN_URL="$faults/oauth/token" CLIENT_ID=example CLIENT_SECRET=secret SYNC_URL="$faults/oauth/resource/example" \
        STATE_DIRECTORY="$directory/sync-state" .build/debug/SyncDaemon
    exit
fi
.build/debug/PollingDaemon --token-endpoint "$faults/oauth/token" --client example --secret secret \
    --resource "$faults/oauth/resource/example" --interval 2 --state "$directory/state" "$@"

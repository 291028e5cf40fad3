#!/usr/bin/env bash
# Sets the machine up (scripts/setup.sh), then runs the whole test suite. The suite starts its
# own loopback servers (Tests/Fixtures/servers.py) and stops them when it ends.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests
# The whole log goes to the terminal; on failure the issues are printed again at the end, so the
# tail of the output (all a CI summary may keep) says what failed and why.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift test --skip-build "$@" 2>&1 | tee "$log" || status=$?
if [ "$status" -ne 0 ]; then
    echo "=== what failed (repeated from above) ==="
    grep -a -A8 -E "recorded an issue|error:|Fatal error|Time limit" "$log" | head -150 || true
fi
exit "$status"

#!/usr/bin/env bash
# Runs the built test suite (swift test --skip-build ARGS). The whole log goes to the terminal;
# on failure the issues are printed again at the end, so the tail of the output (all a CI summary
# may keep) says what failed and why.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift test --skip-build "$@" 2>&1 | tee "$log" || status=$?
if [ "$status" -ne 0 ]; then
    echo "=== what failed (repeated from above) ==="
    grep -a -A8 -E "recorded an issue|error:|Fatal error|Time limit" "$log" | head -150 || true
fi
exit "$status"

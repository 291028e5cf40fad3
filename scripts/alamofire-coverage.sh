#!/usr/bin/env bash
# How much of Alamofire's public API AF has, by symbol graphs (issue 23's measure). Not part of
# CI: it builds both packages with symbol-graph output, which takes minutes.
# usage: scripts/alamofire-coverage.sh /path/to/Alamofire-checkout [--list-missing]
set -euo pipefail
alamofire=$(cd "${1:?usage: scripts/alamofire-coverage.sh /path/to/Alamofire [--list-missing]}" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
swift package --package-path "$alamofire" dump-symbol-graph --minimum-access-level public >/dev/null
swift package --package-path "$root" dump-symbol-graph --minimum-access-level public >/dev/null
python3 "$root/scripts/alamofire_coverage.py" "$alamofire/.build" "$root/.build" "$@"

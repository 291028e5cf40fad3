#!/usr/bin/env bash
# Sets the machine up (scripts/setup.sh), builds the `af` tool and runs its demo against a
# local httpbin it starts itself.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --product af
.build/debug/af demo "$@"

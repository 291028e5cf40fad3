#!/usr/bin/env bash
# Sets the machine up (scripts/setup.sh), then runs the whole test suite. The suite starts its
# own loopback servers (Tests/Fixtures/servers.py) and stops them when it ends.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests
scripts/run-tests.sh "$@"

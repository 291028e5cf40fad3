#!/usr/bin/env bash
# Runs the test suite under the thread sanitizer, then the address sanitizer (with leak
# checking), each in its own build directory. Usage: scripts/sanitize.sh [thread|address]...
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
sanitizers=("$@")
[ ${#sanitizers[@]} -eq 0 ] && sanitizers=(thread address)
for sanitizer in "${sanitizers[@]}"; do
    echo "== -sanitize=$sanitizer"
    # Build tools (the OpenAPI generator plugin) are built sanitized too; a leak in one of them
    # (Foundation's file reading leaks 4 KiB) is not ours, so leak checking waits for the tests.
    ASAN_OPTIONS="detect_leaks=0" swift build --build-tests --scratch-path ".build-$sanitizer" --sanitize="$sanitizer"
    # A report fails the run: TSan and ASan exit non-zero when they find something.
    TSAN_OPTIONS="halt_on_error=1" LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt" \
        ASAN_OPTIONS="suppressions=$PWD/scripts/asan-suppressions.txt" \
        swift test --skip-build --scratch-path ".build-$sanitizer" --sanitize="$sanitizer"
done

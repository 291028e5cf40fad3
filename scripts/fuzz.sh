#!/usr/bin/env bash
# Runs one fuzz target under libFuzzer with AddressSanitizer: scripts/fuzz.sh TARGET SECONDS
# Targets: response-head cache-fields cache-decision resume-data pin netlink form-encoding set-cookie
# The seed corpus (Fuzz/Corpus/TARGET) is read, never written; what the run learns goes to
# .build/fuzz/corpus/TARGET, and a crash or broken invariant to .build/fuzz/found/TARGET-*:
# fix it, then copy the input to Fuzz/Found/TARGET/ so the test suite replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET SECONDS}
seconds=${2:?usage: scripts/fuzz.sh TARGET SECONDS}
[ -d "Fuzz/Corpus/$target" ] || { echo "no such target: $target (see Fuzz/Corpus)" >&2; exit 2; }
# Coverage for Swift comes from -sanitize-coverage (the driver does not pass -sanitize=fuzzer on
# to the compiler, only to the link); C targets get clang's own fuzzer instrumentation.
AF_FUZZ=1 swift build --scratch-path .build/fuzz --product af-fuzz \
    -Xswiftc -sanitize=fuzzer -Xswiftc -sanitize=address \
    -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
    -Xcc -fsanitize=fuzzer-no-link,address 2>&1 | grep -v "Cannot export local symbol" >&2
mkdir -p ".build/fuzz/corpus/$target" .build/fuzz/found
# The Swift runtime's own crash backtracer would hold a finding up: libFuzzer reports it.
AF_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 \
    .build/fuzz/debug/af-fuzz ".build/fuzz/corpus/$target" "Fuzz/Corpus/$target" \
    -max_total_time="$seconds" -artifact_prefix=".build/fuzz/found/$target-" -print_final_stats=1

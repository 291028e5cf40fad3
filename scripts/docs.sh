#!/usr/bin/env bash
# Builds the DocC documentation of AF's library products, offline (swift-docc-plugin from the
# package mirror, docc from the toolchain), with warnings as errors, as a static site under
# .build/docs-site/PRODUCT (open its index.html through any static file server), and fails when
# a public symbol AF declares has no doc comment. Usage: scripts/docs.sh [PRODUCT...]
#
# Not counted as missing: members a type gets from another module's protocol without a comment
# there (the standard library's `hash(into:)`, `filter(_:)`, OpenCombine's operators, Foundation's
# URLSession delegate defaults), and the pages DocC makes for extended modules and types, which
# Swift gives no place to comment. Comments are inherited from the protocol requirements AF
# documents (`--enable-inherited-docs`).
set -euo pipefail
cd "$(dirname "$0")/.."
products=(AFCore AFAuth AFTrust AFCache AFMultipart AFReachability AFCombine AFOpenAPI AFLogging AFMetrics AFTracing AFServiceLifecycle)
[ $# -gt 0 ] && products=("$@")
# The code of each landing page and article is the code DocExamplesTests compiles, and the
# Markdown and comments speak to users, not as a development log.
python3 scripts/check-doc-examples.py
python3 scripts/check-docs-language.py
mkdir -p .build/docs-site
missing=0
for product in "${products[@]}"; do
    echo "== $product"
    report=".build/docs-site/$product.coverage.txt"
    # OpenCombine's own comments, inherited by AFCombine's publishers, link to symbols DocC cannot
    # resolve from AFCombine: there, only warnings about AF's files fail the build.
    strict=(--warnings-as-errors)
    [ "$product" = AFCombine ] && strict=()
    swift package --allow-writing-to-directory .build/docs-site generate-documentation --target "$product" \
        "${strict[@]}" --enable-inherited-docs --transform-for-static-hosting --hosting-base-path "$product" \
        --output-path ".build/docs-site/$product" \
        --experimental-documentation-coverage --coverage-summary-level detailed > "$report" 2>&1 \
        || { grep -E "error|warning" "$report" >&2; exit 1; }
    if grep -A1 "warning:" "$report" | grep -- "-->" | grep -v "/.build/checkouts/" >&2; then
        echo "documentation warnings in AF's files (above)" >&2
        exit 1
    fi
    grep -A4 "Experimental coverage" "$report" | tail -3
    python3 scripts/docs-undocumented.py "$report" || missing=1
done
exit $missing

#!/usr/bin/env bash
# Builds the DocC documentation of AF's library products, offline (swift-docc-plugin from the
# package mirror, docc from the toolchain), with warnings as errors, as a static site under
# .build/docs-site/PRODUCT (open its index.html through any static file server), and prints how
# much of each product's public API is documented. Usage: scripts/docs.sh [PRODUCT...]
set -euo pipefail
cd "$(dirname "$0")/.."
products=(AFCore AFAuth AFTrust AFCache AFMultipart AFReachability AFCombine AFOpenAPI AFLogging AFMetrics AFTracing AFServiceLifecycle)
[ $# -gt 0 ] && products=("$@")
mkdir -p .build/docs-site
for product in "${products[@]}"; do
    echo "== $product"
    swift package --allow-writing-to-directory .build/docs-site generate-documentation --target "$product" \
        --warnings-as-errors --transform-for-static-hosting --hosting-base-path "$product" \
        --output-path ".build/docs-site/$product" \
        --experimental-documentation-coverage --coverage-summary-level brief
done

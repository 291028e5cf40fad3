#!/usr/bin/env bash
# Runs the public HTTP cache test suite (https://cache-tests.fyi, github.com/http-tests/cache-tests)
# against AF's cache, as the suite runs against a browser: its client -> Benchmarks'
# cache-tests-proxy (an AF Session with SQLiteURLCache, redirects passed back, no cookie store)
# -> the suite's server. Prints the private-cache score: required tests that apply to a browser
# cache (not `browser_skip`, not `cdn_only`), against Chrome's published results in the suite.
#   scripts/cache-tests.sh SUITE_DIR
# SUITE_DIR is a checkout of the suite (the tool library's `fetch github:http-tests/cache-tests`
# gives one); it needs node 20+ and no npm package (only its interim-response tests import undici).
# Not run by CI: the suite is not in this repository.
set -euo pipefail
cd "$(dirname "$0")/.."
suite=$(cd "${1:?usage: scripts/cache-tests.sh SUITE_DIR}" && pwd)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
origin_port=$(free_port) proxy_port=$(free_port)

swift build -c release --package-path Benchmarks --product cache-tests-proxy >&2
(cd "$suite" && npm_config_protocol=http npm_config_port="$origin_port" npm_config_pidfile="$work/server.pid" \
    node test-engine/server/server.mjs > "$work/server.log" 2>&1) &
Benchmarks/.build/release/cache-tests-proxy "$proxy_port" "http://localhost:$origin_port" "$work/cache.sqlite" \
    > "$work/proxy.log" 2>&1 &
for _ in $(seq 50); do
    curl -s -o /dev/null "http://127.0.0.1:$proxy_port/" && curl -s -o /dev/null "http://localhost:$origin_port/" && break
    sleep 0.2
done
(cd "$suite" && npm_config_base="http://127.0.0.1:$proxy_port" npm_package_config_id= \
    node --no-warnings test-engine/cli.mjs > "$work/results.json")
cp "$work/results.json" .build/cache-tests-results.json
(cd "$suite" && node --input-type=module -e "
import fs from 'fs'
const { default: suites } = await import('$suite/tests/index.mjs')
const af = JSON.parse(fs.readFileSync('$work/results.json'))
const chrome = JSON.parse(fs.readFileSync('$suite/results/chrome.json'))
let total = 0, passed = 0, chromePassed = 0
const failed = []
for (const s of suites) for (const t of s.tests) {
  if ((t.kind || 'required') !== 'required' || t.browser_skip || t.cdn_only) continue
  total++
  if (chrome[t.id] === true) chromePassed++
  if (af[t.id] === true) passed++; else failed.push(t.id + ' ' + JSON.stringify(af[t.id] ?? 'no result'))
}
console.log('required private-cache tests passed: AF ' + passed + '/' + total + ', Chrome ' + chromePassed + '/' + total)
for (const f of failed) console.log('  failed: ' + f)
")
echo "all results: .build/cache-tests-results.json"

#!/usr/bin/env bash
# Runs the test suite, as scripts/test.sh built it, again on the newest libcurl of Debian's
# bookworm-backports (the release Debian 13 ships), loaded with LD_LIBRARY_PATH. Newer libcurl
# releases change what AF relies on (connection reuse, error wording, one receive buffer per
# multi handle), and many servers run them. Nothing is installed: the package list and the
# package are fetched into a temporary directory with the system's keyring.
# Usage: scripts/test-newer-libcurl.sh [swift test options]
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/sources" "$work/lists/partial" "$work/cache/archives/partial" "$work/root"

# Debian 12 only: bookworm-backports is its backports suite.
if ! grep -qs '^VERSION_CODENAME=bookworm' /etc/os-release; then
    echo "test-newer-libcurl: not Debian 12 (bookworm); skipped" >&2
    exit 0
fi
# The Debian mirror: AF_DEBIAN_MIRROR, else the one of the system's debian.sources, else Debian's.
mirror=${AF_DEBIAN_MIRROR:-}
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list.d/debian.sources ]; then
    mirror=$(awk '$1 == "URIs:" && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
fi
mirror=${mirror:-http://deb.debian.org/debian}
cat >"$work/sources/backports.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
apt_options=(-o Dir::Etc::sourcelist=/dev/null -o "Dir::Etc::sourceparts=$work/sources"
             -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o APT::Sandbox::User=root)
apt-get "${apt_options[@]}" -qq update
(cd "$work" && apt-get "${apt_options[@]}" -qq download libcurl4/bookworm-backports)
deb=$(ls "$work"/libcurl4_*.deb)
dpkg-deb -x "$deb" "$work/root"
lib=$(dirname "$(find "$work/root" -name 'libcurl.so.4' -print -quit)")

# The debug build scripts/test.sh made: it must load this libcurl, and find what that needs.
binary=$(swift build --show-bin-path)/AFPackageTests.xctest
loaded=$(LD_LIBRARY_PATH="$lib" ldd "$binary")
needs=$(LD_LIBRARY_PATH="$lib" ldd "$lib/libcurl.so.4")
if ! grep -qF "$lib/libcurl.so.4" <<<"$loaded" || grep -q "not found" <<<"$needs"; then
    echo "the tests cannot run on $lib/libcurl.so.4:" >&2
    echo "$loaded" "$needs" >&2
    exit 1
fi
echo "=== the test suite on $(basename "$deb" .deb) ==="
LD_LIBRARY_PATH="$lib" scripts/run-tests.sh "$@"

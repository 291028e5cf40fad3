#!/usr/bin/env bash
# Installs what AF's build, demo and tests need on Debian 12: libcurl (OpenSSL flavour) with
# nghttp2, SQLite (AFCache), nginx, openssl, and httpbin + gunicorn from PyPI. Safe to run again.
set -euo pipefail

packages=(libcurl4-openssl-dev libnghttp2-dev libssl-dev zlib1g-dev libsqlite3-dev pkg-config nginx-light openssl iproute2)
command -v python3 >/dev/null 2>&1 || packages+=(python3 python3-pip)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# nginx is only run by the tests, on their own ports: keep the distribution's service stopped.
if command -v systemctl >/dev/null 2>&1; then systemctl disable --now nginx >/dev/null 2>&1 || true; fi

python3 -c "import httpbin, gunicorn, uvloop" 2>/dev/null || {
    pip_flags=()
    python3 -m pip install --help 2>/dev/null | grep -q -- --break-system-packages && pip_flags+=(--break-system-packages)
    python3 -m pip install -q "${pip_flags[@]}" httpbin==0.10.4 gunicorn==27.0.1 uvloop==0.23.0
}

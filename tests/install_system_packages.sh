#!/usr/bin/env bash
# Install the Debian packages the tests drive, when missing: Chromium for the browser tests
# (Playwright drives it through executable_path="/usr/bin/chromium"; no browser download
# from the internet) and nginx for the test of several server processes behind a proxy
# (tests/test_serving_proxy.py, with deploy/nginx.conf).
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 || {
  $SUDO apt-get update -q >/dev/null
  $SUDO apt-get install -y -q "${missing[@]}" >/dev/null
}
command -v chromium
command -v nginx || ls /usr/sbin/nginx

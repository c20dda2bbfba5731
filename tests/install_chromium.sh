#!/usr/bin/env bash
# Install Debian's Chromium for the browser tests if it is missing (Playwright drives it
# through executable_path="/usr/bin/chromium"; no browser download from the internet).
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y -q chromium >/dev/null 2>&1 || {
  $SUDO apt-get update -q >/dev/null
  $SUDO apt-get install -y -q chromium >/dev/null
}
command -v chromium

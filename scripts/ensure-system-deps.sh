#!/usr/bin/env bash
# The browser tests need Debian's Chromium; the server tests a PostgreSQL server, LibreOffice Calc
# (exports are read back the way spreadsheet users open them), nginx (a real reverse proxy for
# TRUST_PROXY) and the poster fonts with pdftotext. Install them when we can (root with apt);
# otherwise stop with the exact command to run.
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
# CT5 posters: DejaVu (Latin, Vietnamese) and Droid Sans Fallback (Chinese, Japanese); pdftotext reads them back in tests.
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
[ -f /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf ] || missing+=(fonts-droid-fallback)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then
  missing+=(postgresql)
fi
command -v soffice >/dev/null 2>&1 || missing+=(libreoffice-calc)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || missing+=(nginx-light)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${missing[*]} with apt-get…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  exit 0
fi

echo "The tests need: ${missing[*]}. Install them with:" >&2
echo "  sudo apt-get install -y ${missing[*]}" >&2
exit 1

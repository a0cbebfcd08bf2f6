#!/usr/bin/env bash
# Installs everything VBAS needs to build, test and run on Debian 12 (run as root).
# Safe to run again: apt-get skips what is already installed.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
packages=(
    build-essential cmake ninja-build binutils
    clang libclang-rt-14-dev

    libcgal-dev libgeos-dev libgdal-dev libsqlite3-dev libpq-dev
    libgtest-dev libgmock-dev libbenchmark-dev
    libqgis-dev qgis qgis-providers python3-qgis gdal-bin python3-scipy
    xvfb xauth
    postgresql postgresql-postgis # a throw-away PostGIS cluster for the push-down tests
    chromium
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update
    apt-get install -y --no-install-recommends "${missing[@]}"
fi

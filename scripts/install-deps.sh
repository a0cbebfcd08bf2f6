#!/usr/bin/env bash
# Installs everything VBAS needs to build, test, package and run on Debian 12 or 13 (run as root).
# Safe to run again: apt-get skips what is already installed. scripts/test.sh runs it on the host
# and inside its Debian 13 root.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
. /etc/os-release
# What differs between the releases: clang's runtime (the fuzzer's sanitizers) follows clang's version.
case "${ID}-${VERSION_ID:-}" in
    debian-12) clang_rt=libclang-rt-14-dev ;;
    debian-13) clang_rt=libclang-rt-19-dev ;;
    *)
        echo "install-deps.sh knows Debian 12 and 13, not ${PRETTY_NAME:-this system}" >&2
        exit 1
        ;;
esac
packages=(
    build-essential cmake ninja-build binutils
    clang "$clang_rt"

    libcgal-dev libgeos-dev libgdal-dev libsqlite3-dev libpq-dev
    libgtest-dev libgmock-dev libbenchmark-dev
    libqgis-dev qgis qgis-providers python3-qgis gdal-bin python3-scipy
    r-base-core r-cran-epitools r-cran-spdep r-cran-spdata # the rate tests compare every figure with R's
    xvfb xauth
    postgresql postgresql-postgis # a throw-away PostGIS cluster for the push-down tests
    chromium
    file        # CPack's .deb generator finds the binaries to run dpkg-shlibdeps on with it
    ccache      # scripts/test.sh and test-debian13.sh compile through it; the cache is kept between runs
    debootstrap # scripts/test.sh's Debian roots (the Debian 13 suite, the package checks)
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update
    apt-get install -y --no-install-recommends "${missing[@]}"
fi

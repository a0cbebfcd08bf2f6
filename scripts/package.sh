#!/usr/bin/env bash
# Makes the .deb packages of a build tree (cmake/VbasPackage.cmake: CPack, the Depends from dpkg-shlibdeps)
# and copies them into DEST: vbas-qgis-cli_VERSION~debN_ARCH.deb (the engine and vbas_process) and
# vbas-qgis_VERSION~debN_ARCH.deb (the QGIS plugin), for the Debian they were built on.
#   scripts/package.sh [BUILD_DIR [DEST]]      # defaults: build, build/packages
set -euo pipefail
build=${1:-build}
dest=${2:-$build/packages}
cmake --build "$build" --target package > "$build/package.log" 2>&1 || { cat "$build/package.log" >&2; exit 1; }
mapfile -t debs < <(sed -n 's/^CPack: - package: \(.*\.deb\) generated\.$/\1/p' "$build/package.log")
[ "${#debs[@]}" = 2 ] || { cat "$build/package.log" >&2; exit 1; }
mkdir -p "$dest"
for deb in "${debs[@]}"; do
    name=$(basename "$deb")
    tag=${name#*~}
    tag=${tag%%_*} # deb12, deb13
    rm -f "$dest/${name%%_*}"_*~"$tag"_*.deb # one of each package per Debian in DEST
    cp "$deb" "$dest/"
    echo "package: $dest/$name"
    dpkg-deb -f "$deb" Depends | sed 's/^/  Depends: /'
done

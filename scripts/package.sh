#!/usr/bin/env bash
# Makes the .deb of a build tree (cmake/VbasPackage.cmake: CPack, the Depends from dpkg-shlibdeps)
# and copies it into DEST: vbas-qgis_VERSION~debN_ARCH.deb for the Debian it was built on.
#   scripts/package.sh [BUILD_DIR [DEST]]      # defaults: build, build/packages
set -euo pipefail
build=${1:-build}
dest=${2:-$build/packages}
cmake --build "$build" --target package > "$build/package.log" 2>&1 || { cat "$build/package.log" >&2; exit 1; }
deb=$(sed -n 's/^CPack: - package: \(.*\.deb\) generated\.$/\1/p' "$build/package.log")
[ -f "$deb" ] || { cat "$build/package.log" >&2; exit 1; }
name=$(basename "$deb")
tag=${name#*~}
tag=${tag%%_*} # deb12, deb13
mkdir -p "$dest"
rm -f "$dest"/vbas-qgis_*~"$tag"_*.deb # one package per Debian in DEST
cp "$deb" "$dest/"
echo "package: $dest/$name"
dpkg-deb -f "$deb" Depends | sed 's/^/Depends: /'

#!/usr/bin/env bash
# The whole suite against Debian 13's QGIS 3.40 LTR: in the Debian 13 dev root of
# scripts/debian-root.sh (made on first use, then kept; scripts/install-deps.sh run inside), builds
# with scripts/build.sh into /root/vbas-build inside the root (kept, so a rerun builds only what
# changed), makes the Debian 13 .deb into $VBAS_PACKAGES (default build/packages), then runs ctest.
# Run as root, on the host, never beside the host's own ctest (both use the PostGIS ports and both
# cores). The repository is mounted read-only at /src in the root.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=${VBAS_PACKAGES:-$PWD/build/packages}

root=$(scripts/debian-root.sh dev trixie)
mkdir -p "$packages"
scripts/debian-root.sh run "$root" --bind "$PWD:/src:ro" --bind "$packages:/packages" \
    --env "JOBS=${JOBS:-2}" -- bash -c '
set -euo pipefail
export BUILD_DIR=/root/vbas-build
/src/scripts/build.sh
cmake --build "$BUILD_DIR" --target package > "$BUILD_DIR/package.log" 2>&1 || { cat "$BUILD_DIR/package.log"; exit 1; }
rm -f /packages/vbas-qgis_*~deb13_*.deb
cp "$BUILD_DIR"/vbas-qgis_*~deb13_*.deb /packages/
echo "Debian 13 package: $(cd /packages && ls vbas-qgis_*~deb13_*.deb)"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS"
'

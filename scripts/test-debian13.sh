#!/usr/bin/env bash
# The whole suite against Debian 13's QGIS 3.40 LTR, in the Debian 13 dev root of
# scripts/debian-root.sh (made on first use, then kept; scripts/install-deps.sh runs inside first):
#   scripts/test-debian13.sh build   # scripts/build.sh into /root/vbas-build inside the root, then the
#                                    # Debian 13 .deb into $VBAS_PACKAGES (default build/packages)
#   scripts/test-debian13.sh ctest   # the whole suite there
#   scripts/test-debian13.sh         # both
# The build goes through ccache, whose cache the root keeps, and the repository is always /src in
# the root (mounted read-only), so another clone on the same machine rebuilds from the cache.
# Run as root, on the host, never beside the host's own ctest (the PostGIS ports, both cores).
set -euo pipefail
cd "$(dirname "$0")/.."
packages=${VBAS_PACKAGES:-$PWD/build/packages}
mkdir -p "$packages"
step=${1:-all}

root=$(scripts/debian-root.sh dev trixie)
in_root() {
    scripts/debian-root.sh run "$root" --bind "$PWD:/src:ro" --bind "$packages:/packages" \
        --env "JOBS=${JOBS:-2}" --env BUILD_DIR=/root/vbas-build "$@"
}
if [ "$step" = build ] || [ "$step" = all ]; then
    in_root -- bash -c '/src/scripts/build.sh -DCMAKE_CXX_COMPILER_LAUNCHER=ccache &&
        /src/scripts/package.sh "$BUILD_DIR" /packages'
fi
if [ "$step" = ctest ] || [ "$step" = all ]; then
    # No network but its own loopback: its PostgreSQL cluster and X displays never meet the host's. The
    # random release scenarios test the engine, which the host's suite runs 300 times per
    # combination by default; here a hundred each show that QGIS 3.40 reads and writes them alike.
    in_root --no-network --env VBAS_PROPERTY_SCENARIOS="${VBAS_PROPERTY_SCENARIOS:-100}" -- \
        bash -c 'ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS"'
fi

#!/usr/bin/env bash
# README's test command (CI runs exactly this, via .ci/run), as root on Debian 12:
#   host      installs the dependencies, builds everything, makes the Debian 12 .deb, runs the whole
#             suite with ctest against the host's QGIS 3.22, fuzzes the engine for 60 s
#   debian13  the same build and suite against QGIS 3.40 LTR in a Debian 13 root, and its .deb
#             (scripts/test-debian13.sh)
#   qt6       the QGIS 4 stand-in: every QGIS-facing file compiled against QGIS 3.44's and Qt 6.8's
#             headers, deprecations as errors (scripts/qt6-check.sh)
#   packages  each .deb installed with apt into a clean root of its Debian, then stock qgis_process
#             lists the algorithms, runs the demo release and checks it (scripts/package-check.sh)
# VBAS_SUITES chooses the parts (default: host,debian13,qt6,packages; VBAS_SUITES=host for a quick
# local run). Every part chosen runs even when an earlier one failed (unless it needs what failed);
# any failure fails the run. The Debian roots are kept in /var/cache/vbas (scripts/debian-root.sh):
# the first run on a machine makes them.
set -euo pipefail
cd "$(dirname "$0")/.."
export VBAS_CACHE=${VBAS_CACHE:-/var/cache/vbas}
BUILD_DIR=${BUILD_DIR:-build}
suites=",${VBAS_SUITES:-host,debian13,qt6,packages},"
wants() { [[ $suites == *",$1,"* ]]; }
packages=$PWD/$BUILD_DIR/packages # both .debs end up here

failed=()
timings=()
# Runs a part, timing it; a failure is recorded and the run goes on.
part() {
    local name=$1 start status=0
    shift
    echo
    echo "=== $name"
    start=$(date +%s)
    "$@" || status=$?
    timings+=("$(printf '%-34s %5d s%s' "$name" $(($(date +%s) - start)) "$([ $status = 0 ] || echo '  FAILED')")")
    [ $status = 0 ] || failed+=("$name")
    return $status
}
summary() {
    echo
    echo "=== timing (s)"
    printf '%s\n' "${timings[@]}"
    printf '%-34s %5d s\n' total $(($(date +%s) - run_start))
    if [ ${#failed[@]} -gt 0 ]; then
        echo "FAILED: ${failed[*]}"
        exit 1
    fi
}
run_start=$(date +%s)

roots_wanted=false
if wants debian13 || wants qt6 || wants packages; then roots_wanted=true; fi

# The Debian roots are mostly downloading and unpacking: made in the background while the host
# installs, builds and tests (the first run on a machine; later runs only check them).
roots_log=$VBAS_CACHE/make-roots.log
make_roots() {
    set -e
    ! wants packages || scripts/debian-root.sh pristine bookworm > /dev/null
    scripts/debian-root.sh dev trixie > /dev/null
}
if $roots_wanted; then
    mkdir -p "$VBAS_CACHE"
    # debootstrap first, alone: the roots need nothing else from the host.
    command -v debootstrap > /dev/null || { apt-get update -q && apt-get install -y -q --no-install-recommends debootstrap; } > /dev/null
    make_roots > "$roots_log" 2>&1 &
    roots_pid=$!
fi

if wants host; then
    part "host: install-deps" scripts/install-deps.sh
    part "host: build" scripts/build.sh && {
        part "host: package (Debian 12 .deb)" bash -c "
            cmake --build '$BUILD_DIR' --target package > '$BUILD_DIR/package.log' 2>&1 || { cat '$BUILD_DIR/package.log'; exit 1; }
            mkdir -p '$packages' && rm -f '$packages'/*~deb12_*.deb && cp '$BUILD_DIR'/vbas-qgis_*~deb12_*.deb '$packages/'" || true
        part "host: ctest (QGIS 3.22)" ctest --test-dir "$BUILD_DIR" --output-on-failure -j "${JOBS:-2}" || true
    } || true
    # A short fuzz run of the engine under the sanitizers (longer runs: scripts/fuzz.sh SECONDS).
    part "host: fuzz" scripts/fuzz.sh "${FUZZ_SECONDS:-60}" || true
fi

if $roots_wanted; then
    part "Debian roots (background)" wait "$roots_pid" || { echo "making the Debian roots failed:"; cat "$roots_log"; }
fi
if wants packages && wants host; then
    part "package check: Debian 12" scripts/package-check.sh bookworm "$packages"/vbas-qgis_*~deb12_*.deb || true
fi
if wants debian13; then
    part "debian13: build, package, ctest" env VBAS_PACKAGES="$packages" scripts/test-debian13.sh || true
fi
if wants qt6; then
    part "qt6: syntax check (QGIS 3.44, Qt 6.8)" scripts/qt6-check.sh || true
fi
if wants packages && wants debian13; then
    part "package check: Debian 13" scripts/package-check.sh trixie "$packages"/vbas-qgis_*~deb13_*.deb || true
fi
summary

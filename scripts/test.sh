#!/usr/bin/env bash
# README's test command (CI runs exactly this, via .ci/run), as root on Debian 12:
#   host      installs the dependencies, builds everything, makes the Debian 12 .deb, runs the whole
#             suite with ctest against the host's QGIS 3.22, fuzzes the engine for 60 s
#   debian13  the same build and suite against QGIS 3.40 LTR in a Debian 13 root, and its .deb
#             (scripts/test-debian13.sh)
#   qt6       the QGIS 4 stand-in: every QGIS-facing file compiled against QGIS 3.44's and Qt 6.8's
#             headers, deprecations as errors (scripts/qt6-check.sh)
#   packages  each .deb installed with apt into a clean root of its Debian, then stock qgis_process
#             lists the algorithms, runs the demo release and checks it (scripts/package-check.sh); what
#             the demo published must be the same on both Debians
# VBAS_SUITES chooses the parts (default: host,debian13,qt6,packages; VBAS_SUITES=host for a quick
# local run). Every part chosen runs even when an earlier one failed (unless it needs what failed);
# any failure fails the run, and the summary at the end names the tests that failed. The Debian roots are
# kept in /var/cache/vbas (scripts/debian-root.sh), and so is ccache's cache of the host's builds: the
# first run on a machine makes them, and takes longer.
set -euo pipefail
cd "$(dirname "$0")/.."
export VBAS_CACHE=${VBAS_CACHE:-/var/cache/vbas}
BUILD_DIR=${BUILD_DIR:-build}
suites=",${VBAS_SUITES:-host,debian13,qt6,packages},"
wants() { [[ $suites == *",$1,"* ]]; }
packages=$PWD/$BUILD_DIR/packages # both .debs end up here
logs=$PWD/$BUILD_DIR/test-logs    # the logs of the parts run in the background
mkdir -p "$packages" "$logs"

failed=()
timings=()
run_start=$(date +%s)
record() { # NAME SECONDS STATUS [NOTE]
    timings+=("$(printf '%-40s %5d s%s%s' "$1" "$2" "${4:+  $4}" "$([ "$3" = 0 ] || echo '  FAILED')")")
    [ "$3" = 0 ] || failed+=("$1")
}

# Runs a part in the foreground, timing it; a failure is recorded and the run goes on. Its output is kept
# in $logs, so that the summary can name the tests a failed ctest part lists.
part() {
    local name=$1 start status=0
    shift
    echo
    echo "=== $name"
    start=$(date +%s)
    "$@" 2>&1 | tee "$logs/$name.log" || status=$?
    record "$name" $(($(date +%s) - start)) $status
    return $status
}

# Parts that mostly wait for the network or the disk (making the Debian roots, installing a .deb
# into a clean root) run in the background beside the CPU-bound ones: bg_start NAME COMMAND...,
# then bg_wait NAME shows its log and records it (with the time it took) like a foreground part.
declare -A bg_pids
bg_start() {
    local name=$1
    shift
    (
        start=$(date +%s)
        status=0
        "$@" || status=$?
        echo $(($(date +%s) - start)) > "$logs/$name.seconds"
        exit $status
    ) > "$logs/$name.log" 2>&1 &
    bg_pids[$name]=$!
}
bg_wait() {
    local name=$1 status=0
    [ -n "${bg_pids[$name]:-}" ] || return 0
    wait "${bg_pids[$name]}" || status=$?
    echo
    echo "=== $name (ran in the background)"
    cat "$logs/$name.log"
    record "$name" "$(cat "$logs/$name.seconds")" $status "(in the background)"
    unset "bg_pids[$name]"
    return $status
}

summary() {
    echo
    echo "=== timing"
    printf '%s\n' "${timings[@]}"
    printf '%-40s %5d s\n' "total" $(($(date +%s) - run_start))
    if [ ${#failed[@]} -gt 0 ]; then
        local name
        for name in "${failed[@]}"; do
            # ctest's own list of what failed, if the part was a ctest run, and the tests that failed in a
            # suite run as one ctest (cmake/VbasTestSuites.cmake).
            [ ! -f "$logs/$name.log" ] || {
                sed -n '/^The following tests FAILED:/,/^Errors while running CTest/p' "$logs/$name.log"
                grep -E '^\[  FAILED  \] [^ ]+ \(' "$logs/$name.log" | sort -u || true
            } | sed "s|^|$name: |"
        done
        echo "FAILED: ${failed[*]}"
        exit 1
    fi
    echo "every part passed"
}

if wants debian13 || wants qt6 || wants packages; then
    # debootstrap first, alone, so the roots can be made while the host installs the rest.
    command -v debootstrap > /dev/null ||
        { apt-get update -q && apt-get install -y -q --no-install-recommends debootstrap; } > /dev/null
    make_roots() { # (run where set -e does not hold: hence the &&)
        { ! wants packages || scripts/debian-root.sh pristine bookworm; } && scripts/debian-root.sh dev trixie
    }
    bg_start "Debian roots" make_roots
fi

if wants host; then
    part "host: install-deps" scripts/install-deps.sh || true
    # The host's builds go through ccache (installed by install-deps.sh), its cache kept with the roots;
    # paths under the clone are hashed relative to it, so every clone on the machine shares the cache.
    export CCACHE_DIR=$VBAS_CACHE/ccache CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
    export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
    if part "host: build" scripts/build.sh; then
        if part "host: package (Debian 12 .deb)" scripts/package.sh "$BUILD_DIR" "$packages" && wants packages; then
            bg_start "package check: Debian 12" scripts/package-check.sh bookworm "$packages"/vbas-qgis_*~deb12_*.deb
        fi
        part "host: ctest (QGIS 3.22)" ctest --test-dir "$BUILD_DIR" --output-on-failure -j "${JOBS:-2}" || true
    fi
    # A short fuzz run of the engine under the sanitizers (longer runs: scripts/fuzz.sh SECONDS).
    part "host: fuzz" scripts/fuzz.sh "${FUZZ_SECONDS:-60}" || true
fi

bg_wait "Debian roots" || true
if wants debian13; then
    if part "debian13: build, package (QGIS 3.40)" scripts/test-debian13.sh build; then
        if wants packages; then
            bg_start "package check: Debian 13" scripts/package-check.sh trixie "$packages"/vbas-qgis_*~deb13_*.deb
        fi
        part "debian13: ctest (QGIS 3.40)" scripts/test-debian13.sh ctest || true
    fi
fi
if wants qt6; then
    part "qt6: syntax check (QGIS 3.44, Qt 6.8)" scripts/qt6-check.sh || true
fi
bg_wait "package check: Debian 12" || true
bg_wait "package check: Debian 13" || true
if wants packages; then
    # The same inputs publish the same release on every QGIS: the digests the package checks printed.
    same_release() {
        local debian12 debian13
        debian12=$(grep -h '^published by the demo' "$logs/package check: Debian 12.log" || true)
        debian13=$(grep -h '^published by the demo' "$logs/package check: Debian 13.log" || true)
        echo "Debian 12, QGIS 3.22: ${debian12:-no digest}"
        echo "Debian 13, QGIS 3.40: ${debian13:-no digest}"
        [ -n "$debian12" ] && [ "$debian12" = "$debian13" ]
    }
    part "packages: the demo publishes the same on QGIS 3.22 and 3.40" same_release || true
fi
summary

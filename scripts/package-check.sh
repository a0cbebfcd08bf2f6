#!/usr/bin/env bash
# Installs a VBAS .deb the way a user does, into a clean root of its Debian (a throw-away copy of
# scripts/debian-root.sh's pristine root: nothing of the build, nothing installed by hand), with
# `apt-get install ./vbas-qgis_...deb`, which fetches its Depends from Debian; then runs stock
# qgis_process there: the vbas algorithms are listed, and scripts/demo.sh runs through it (the demo
# release, then the next quarter on its regions), vbas:checkanonymity passing each released table.
# Run as root, on the host.
#
#   scripts/package-check.sh SUITE DEB     # SUITE: bookworm (Debian 12) or trixie (Debian 13)
#
# Only the .deb, data/demo and scripts/demo.sh (with this script) are copied into the root.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --inside ]; then
    # --- inside the clean root, from /vbas-check --------------------------------------------------
    cd /vbas-check
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q > apt-update.log 2>&1 || { cat apt-update.log; exit 1; }
    # Without Recommends: the Depends alone must make it work.
    apt-get install -y -q --no-install-recommends ./vbas-qgis_*.deb > apt-install.log 2>&1 ||
        { cat apt-install.log; exit 1; }
    echo "installed: $(dpkg-query -W -f='${Package} ${Version}' vbas-qgis), with $(grep -o '[0-9]* newly installed' apt-install.log) packages"
    echo "QGIS: $(dpkg-query -W -f='${Version}' qgis)"
    dpkg-query -W -f='${Depends}\n' vbas-qgis | sed 's/^/Depends: /'
    # Every library the binaries need comes with the package's Depends.
    for binary in /usr/bin/vbas_process $(dpkg -L vbas-qgis | grep '\.so$'); do
        if ldd "$binary" | grep 'not found'; then
            echo "$binary: a library is missing (the Depends are incomplete)"
            exit 1
        fi
    done

    # Stock qgis_process. Debian 12's /usr/bin/qgis_process
    # wrapper passes an option QGIS 3.22 rejects, so there the binary itself is called; Debian 13's
    # wrapper drops that option, so there it is the command users type.
    case $(dpkg-query -W -f='${Version}' qgis) in
        3.22.*) qgis_process=qgis_process.bin ;;
        *) qgis_process=qgis_process ;;
    esac
    # Headless (no display), with a profile of its own.
    printf '#!/bin/sh\nexec env QT_QPA_PLATFORM=offscreen QGIS_CUSTOM_CONFIG_PATH=/vbas-check/profile XDG_RUNTIME_DIR=/vbas-check/runtime %s "$@"\n' \
        "$(command -v $qgis_process)" > qgis-process-headless
    chmod 755 qgis-process-headless
    mkdir -p profile runtime && chmod 700 runtime
    echo "running $(command -v $qgis_process)"
    ./qgis-process-headless plugins enable vbas_processing > enable.log 2>&1 || { cat enable.log; exit 1; }
    ./qgis-process-headless list > list.log 2>&1 || { cat list.log; exit 1; }
    grep 'vbas:' list.log || { echo "qgis_process list shows no vbas algorithm:"; cat list.log; exit 1; }
    algorithms=$(grep -c 'vbas:' list.log)

    # scripts/demo.sh itself, with stock qgis_process as its runner: the demo release (with its ledger),
    # the next quarter on its regions, each released table checked by vbas:checkanonymity.
    VBAS_DEMO_RUNNER=/vbas-check/qgis-process-headless scripts/demo.sh > demo.log 2>&1 || { cat demo.log; exit 1; }
    grep -v '^[0-9.]*$' demo.log | sed 's/^[0-9.]*VERDICT/VERDICT/'
    passes=$(grep -c 'VERDICT PASS' demo.log || true)
    if [ "$passes" = 0 ] || grep -q 'VERDICT FAIL' demo.log; then
        echo "a demo release fails the check"
        exit 1
    fi
    echo "package check: $algorithms vbas algorithms listed by stock $qgis_process; scripts/demo.sh through it: $passes releases, each VERDICT PASS"
    exit 0
fi

# --- on the host --------------------------------------------------------------------------------
[ $# = 2 ] || { echo "usage: $0 bookworm|trixie DEB" >&2; exit 2; }
suite=$1
deb=$(realpath "$2")
root=$(scripts/debian-root.sh clean "$suite")
trap 'scripts/debian-root.sh remove "$root"' EXIT
mkdir "$root/vbas-check"
cp "$deb" "$root/vbas-check/"
mkdir -p "$root/vbas-check/data" "$root/vbas-check/scripts"
cp -r data/demo "$root/vbas-check/data/demo"
cp scripts/demo.sh scripts/package-check.sh "$root/vbas-check/scripts/"
scripts/debian-root.sh run "$root" -- bash /vbas-check/scripts/package-check.sh --inside

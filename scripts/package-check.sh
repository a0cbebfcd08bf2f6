#!/usr/bin/env bash
# Installs a VBAS .deb the way a user does, into a clean root of its Debian (a throw-away copy of
# scripts/debian-root.sh's pristine root: nothing of the build, nothing installed by hand), with
# `apt-get install ./vbas-qgis_...deb`, which fetches its Depends from Debian; then runs stock
# qgis_process there: the vbas algorithms are listed, the demo releases of scripts/demo.sh run (the
# release, then the next quarter on its regions), and vbas:checkanonymity passes both released
# tables. Run as root, on the host.
#
#   scripts/package-check.sh SUITE DEB     # SUITE: bookworm (Debian 12) or trixie (Debian 13)
#
# Only the .deb and data/demo are copied into the root.
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

    # Stock qgis_process, headless, with a profile of its own. Debian 12's /usr/bin/qgis_process
    # wrapper passes an option QGIS 3.22 rejects, so there the binary itself is called; Debian 13's
    # wrapper drops that option, so there it is the command users type.
    case $(dpkg-query -W -f='${Version}' qgis) in
        3.22.*) qgis_process=qgis_process.bin ;;
        *) qgis_process=qgis_process ;;
    esac
    echo "running $(command -v $qgis_process)"
    run_qgis_process() {
        env QT_QPA_PLATFORM=offscreen QGIS_CUSTOM_CONFIG_PATH=/vbas-check/profile XDG_RUNTIME_DIR=/vbas-check/runtime \
            "$qgis_process" "$@"
    }
    mkdir -p profile runtime && chmod 700 runtime
    run_qgis_process plugins enable vbas_processing > enable.log 2>&1 || { cat enable.log; exit 1; }
    run_qgis_process list > list.log 2>&1 || { cat list.log; exit 1; }
    grep 'vbas:' list.log || { echo "qgis_process list shows no vbas algorithm:"; cat list.log; exit 1; }
    algorithms=$(grep -c 'vbas:' list.log)

    # scripts/demo.sh's releases, with its parameters (keep them in step), through qgis_process: the
    # demo release, recorded in a release ledger, then the next quarter on its regions; each checked.
    out=/vbas-check/demo-output
    gpkg=$out/olinda-release.gpkg
    ledger=$out/ledger.sqlite
    mkdir -p "$out/q2"
    run_qgis_process run vbas:aggregateregions -- \
        "REGIONS=demo/olinda.gpkg|layername=tracts" REGION_ID_FIELD=CD_GEOCODI \
        RECORDS=demo/olinda_patients.csv RECORD_REGION_FIELD=tract \
        QUASI_IDENTIFIERS=age QUASI_IDENTIFIERS=sex QUASI_IDENTIFIERS=married K=5 \
        SENSITIVE_FIELDS=education L=2 \
        SUPPRESSION_BUDGET=1 "GENERALIZATION=age: interval 5 10 20 max 10" \
        RELEASE_LEDGER="$ledger" RECORD_ID_FIELD=patient_id \
        "OUTPUT=ogr:dbname='$gpkg' table=\"aggregates\" (geom)" \
        "OUTPUT_MAPPING=ogr:dbname='$gpkg' table=\"tracts\" (geom)" \
        "OUTPUT_SITES=ogr:dbname='$gpkg' table=\"sites\" (geom)" \
        "OUTPUT_RECORDS=$out/released-patients.csv" "OUTPUT_MAP_IMAGE=$out/map.png" \
        "OUTPUT_HTML_FILE=$out/report.html" "OUTPUT_REVIEW=$out/withheld.gpkg" > release.log 2>&1 ||
        { cat release.log; exit 1; }
    grep -E '^(AGGREGATES|RECORDS_RELEASED|SUPPRESSED):' release.log || true
    check_release() { # the released CSV: VERDICT PASS, or the check fails
        run_qgis_process run vbas:checkanonymity -- INPUT="$1" REGION_FIELD=tract \
            QUASI_IDENTIFIERS=age QUASI_IDENTIFIERS=sex QUASI_IDENTIFIERS=married K=5 \
            SENSITIVE_FIELDS=education L=2 > check.log 2>&1 || { cat check.log; exit 1; }
        grep -m 1 -o 'VERDICT PASS.*' check.log || { echo "the release fails the check:"; cat check.log; exit 1; }
    }
    check_release "$out/released-patients.csv"
    run_qgis_process run vbas:releaseonaggregation -- \
        "REGIONS=demo/olinda.gpkg|layername=tracts" REGION_ID_FIELD=CD_GEOCODI \
        RECORDS=demo/olinda_patients_q2.csv RECORD_REGION_FIELD=tract \
        QUASI_IDENTIFIERS=age QUASI_IDENTIFIERS=sex QUASI_IDENTIFIERS=married K=5 \
        SENSITIVE_FIELDS=education L=2 RELEASE_LEDGER="$ledger" RECORD_ID_FIELD=patient_id LEDGER_ENTRY=1 \
        "OUTPUT=$out/q2/regions.gpkg" "OUTPUT_RECORDS=$out/q2/released-patients.csv" \
        "OUTPUT_HTML_FILE=$out/q2-report.html" > release-q2.log 2>&1 || { cat release-q2.log; exit 1; }
    echo "next quarter, on the ledger's release 1:"
    grep -E '^(RECORDS_RELEASED|SUPPRESSED):' release-q2.log || true
    check_release "$out/q2/released-patients.csv"
    echo "package check: $algorithms vbas algorithms listed by stock $qgis_process; both demo releases made and passed"
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
cp -r data/demo "$root/vbas-check/demo"
cp scripts/package-check.sh "$root/vbas-check/"
scripts/debian-root.sh run "$root" -- bash /vbas-check/package-check.sh --inside

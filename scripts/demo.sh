#!/usr/bin/env bash
# README's main command: on a fresh Debian 12 machine (as root) installs what VBAS needs, builds it,
# and runs vbas:aggregateregions on the embedded Olinda demo (18,897 synthetic patients on 470 census
# tracts; k = 5 over exact age, sex and marital status, l = 2 over education) with its defaults: the most
# regions whose refined release withholds at most 1 % of the records, ages generalized to bands of 5 or 10
# years where geography alone cannot protect them (the study's choice, 'max 10': by default, numbers are
# banded up to 20 years; the report lists every combination tried). Writes what may be
# published into demo-output/publish/ and what is for the custodian's review only into demo-output/review/
# (docs/publishing.md):
#   publish/olinda-release.gpkg   layers aggregates (the released regions with their figures), tracts
#                                 (each tract with its aggregate) and sites
#   publish/released-patients.csv the anonymized records in a random order: tract replaced by the
#                                 aggregate id, the quasi-identifiers and education; no patient id
#   publish/map.png               the release drawn by QGIS's own renderer, to look at without QGIS
#   review/report.html            a plain summary (how each field was released, who was withheld), the map
#                                 with hot spots of withheld records, then metrics, searches, charts, parameters
#   review/withheld.gpkg          the aggregated regions with their withheld counts
# prints the headline metrics, then checks the released table with the independent verifier. The release is
# recorded in a release ledger (demo-output/ledger.sqlite, the custodian's: never published), and the next
# quarter's patients (data/demo/olinda_patients_q2.csv) are then released on its regions and age bands with
# vbas:releaseonaggregation (publish/q2/), recorded as the ledger's second release and checked the same way.
# VBAS_DEMO_RUNNER=COMMAND runs the same with an installed command of qgis_process syntax instead of the
# build's vbas_process, installing and building nothing (scripts/package-check.sh: stock qgis_process).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${VBAS_DEMO_RUNNER:-}" ]; then
    scripts/install-deps.sh
    scripts/build.sh
fi
runner="${VBAS_DEMO_RUNNER:-${BUILD_DIR:-build}/runner/vbas_process}"
out=demo-output
rm -rf "$out"
mkdir -p "$out/publish" "$out/review"
gpkg="$out/publish/olinda-release.gpkg"
ledger="$out/ledger.sqlite"

start=$(date +%s%N)
"$runner" run vbas:aggregateregions -- \
    "REGIONS=data/demo/olinda.gpkg|layername=tracts" REGION_ID_FIELD=CD_GEOCODI \
    RECORDS=data/demo/olinda_patients.csv RECORD_REGION_FIELD=tract \
    QUASI_IDENTIFIERS=age QUASI_IDENTIFIERS=sex QUASI_IDENTIFIERS=married K=5 \
    SENSITIVE_FIELDS=education L=2 \
    SUPPRESSION_BUDGET=1 "GENERALIZATION=age: interval 5 10 20 max 10" \
    RELEASE_LEDGER="$ledger" NEW_LEDGER=true RECORD_ID_FIELD=patient_id \
    "OUTPUT=ogr:dbname='$gpkg' table=\"aggregates\" (geom)" \
    "OUTPUT_MAPPING=ogr:dbname='$gpkg' table=\"tracts\" (geom)" \
    "OUTPUT_SITES=ogr:dbname='$gpkg' table=\"sites\" (geom)" \
    "OUTPUT_RECORDS=$out/publish/released-patients.csv" "OUTPUT_MAP_IMAGE=$out/publish/map.png" \
    "OUTPUT_HTML_FILE=$out/review/report.html" "OUTPUT_REVIEW=$out/review/withheld.gpkg"
ms=$((($(date +%s%N) - start) / 1000000))
printf 'aggregateregions took %d.%03d s\n' $((ms / 1000)) $((ms % 1000))
echo "Publishable: $out/publish/ (the map: $out/publish/map.png)"
echo "For review only, never publish: $out/review/ (the report: $out/review/report.html)"

echo
echo "Independent check of the released table:"
"$runner" run vbas:checkanonymity -- INPUT="$out/publish/released-patients.csv" REGION_FIELD=aggregate_id \
    QUASI_IDENTIFIERS=age QUASI_IDENTIFIERS=sex QUASI_IDENTIFIERS=married K=5 \
    SENSITIVE_FIELDS=education L=2 | grep VERDICT

echo
echo "The next quarter on the same regions and age bands (release 1 of the ledger):"
mkdir -p "$out/publish/q2"
"$runner" run vbas:releaseonaggregation -- \
    "REGIONS=data/demo/olinda.gpkg|layername=tracts" REGION_ID_FIELD=CD_GEOCODI \
    RECORDS=data/demo/olinda_patients_q2.csv RECORD_REGION_FIELD=tract \
    QUASI_IDENTIFIERS=age QUASI_IDENTIFIERS=sex QUASI_IDENTIFIERS=married K=5 \
    SENSITIVE_FIELDS=education L=2 RELEASE_LEDGER="$ledger" RECORD_ID_FIELD=patient_id LEDGER_ENTRY=1 \
    "OUTPUT=$out/publish/q2/regions.gpkg" "OUTPUT_RECORDS=$out/publish/q2/released-patients.csv" \
    "OUTPUT_HTML_FILE=$out/review/q2-report.html" | grep -E "^Release ledger|^Released|^Withheld"
"$runner" run vbas:checkanonymity -- INPUT="$out/publish/q2/released-patients.csv" REGION_FIELD=aggregate_id \
    QUASI_IDENTIFIERS=age QUASI_IDENTIFIERS=sex QUASI_IDENTIFIERS=married K=5 \
    SENSITIVE_FIELDS=education L=2 | grep VERDICT

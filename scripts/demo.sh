#!/usr/bin/env bash
# README's main command: on a fresh Debian 12 machine (as root) installs what VBAS needs, builds it,
# and runs vbas:aggregateregions on the embedded Olinda demo (18,897 synthetic patients on 470 census
# tracts; k = 5 over age band, sex and marital status). Writes into demo-output/:
#   olinda-release.gpkg   layers aggregates (the released regions with their figures), tracts (each
#                         tract with its aggregate) and sites
#   released-patients.csv the anonymized records (tract replaced by the aggregate id)
#   report.html           the map, metrics with their meaning, per-region charts and table, parameters
#   map.png               the release drawn by QGIS's own renderer, to look at without QGIS
# prints the headline metrics, then checks the released table with the independent verifier.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
runner="${BUILD_DIR:-build}/runner/vbas_process"
out=demo-output
rm -rf "$out"
mkdir -p "$out"
gpkg="$out/olinda-release.gpkg"

start=$(date +%s%N)
"$runner" run vbas:aggregateregions -- \
    "REGIONS=data/demo/olinda.gpkg|layername=tracts" REGION_ID_FIELD=CD_GEOCODI \
    RECORDS=data/demo/olinda_patients.csv RECORD_REGION_FIELD=tract \
    QUASI_IDENTIFIERS=age_band QUASI_IDENTIFIERS=sex QUASI_IDENTIFIERS=married K=5 \
    SITE_COUNT_METHOD=sitecount.naive_anonymity \
    "OUTPUT=ogr:dbname='$gpkg' table=\"aggregates\" (geom)" \
    "OUTPUT_MAPPING=ogr:dbname='$gpkg' table=\"tracts\" (geom)" \
    "OUTPUT_SITES=ogr:dbname='$gpkg' table=\"sites\" (geom)" \
    "OUTPUT_RECORDS=$out/released-patients.csv" "OUTPUT_HTML_FILE=$out/report.html" \
    "OUTPUT_MAP_IMAGE=$out/map.png"
ms=$((($(date +%s%N) - start) / 1000000))
printf 'aggregateregions took %d.%03d s\n' $((ms / 1000)) $((ms % 1000))
echo "The release on a map: $out/map.png; the report: $out/report.html"

echo
echo "Independent check of the released table:"
"$runner" run vbas:checkanonymity -- INPUT="$out/released-patients.csv" REGION_FIELD=tract \
    QUASI_IDENTIFIERS=age_band QUASI_IDENTIFIERS=sex QUASI_IDENTIFIERS=married K=5 | grep VERDICT

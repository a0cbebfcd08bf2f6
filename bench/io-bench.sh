#!/usr/bin/env bash
# The I/O benchmark of issue 14: vbas:aggregateregions end to end on a national-scale table (8,100 areas,
# about 2.85 M records drawn from real microdata, bench/make-io-data.py) against what GDAL and QGIS need to
# merely copy or read the same table, in one run on this machine. Prints seconds and ratios; asserts
# nothing (targets are read off the figures, not timed in tests).
#
#   bench/io-bench.sh [WORK_FOLDER] [RECORDS]      # default: build/io-bench, 2850000
#
# Needs the build (scripts/build.sh), GDAL's command-line tools and QGIS's Python bindings (both installed
# by scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
runner="$root/${BUILD_DIR:-build}/runner/vbas_process"
work=${1:-build/io-bench}
records=${2:-2850000}
mkdir -p "$work"
cd "$work"

if [ ! -f patients.gpkg ]; then
    /usr/bin/python3 "$root/bench/make-io-data.py" . "$records"
    ogr2ogr -f GPKG areas.gpkg areas.csv -nln areas -a_srs EPSG:32725 \
        -oo GEOM_POSSIBLE_NAMES=WKT -oo KEEP_GEOM_COLUMNS=NO
    ogr2ogr -f GPKG patients.gpkg patients.csv -nln patients
fi
if [ ! -f counts.gpkg ]; then # the same records pre-aggregated: one row per small area and class, a count
    ogr2ogr -f GPKG counts.gpkg patients.gpkg -nln counts -sql \
        "SELECT area, age, gender, education, COUNT(*) AS records FROM patients GROUP BY 1, 2, 3, 4"
fi

seconds() { # runs "$@" quietly and prints its wall time in seconds
    local start end
    start=$(date +%s%N)
    "$@" > /dev/null 2>&1
    end=$(date +%s%N)
    awk -v ns=$((end - start)) 'BEGIN { printf "%.2f", ns / 1e9 }'
}

rm -rf copy && mkdir copy
copy_gpkg=$(seconds ogr2ogr -f GPKG copy/patients.gpkg patients.gpkg patients)
copy_csv=$(seconds ogr2ogr -f CSV copy/patients.csv patients.csv)

# QGIS's own iteration of the columns a release reads (no geometry), as Processing would read them.
cat > qgis-iterate.py <<'EOF'
import sys
from qgis.core import QgsApplication, QgsVectorLayer, QgsFeatureRequest
app = QgsApplication([], False)
app.initQgis()
layer = QgsVectorLayer(sys.argv[1], "records", "ogr")
request = QgsFeatureRequest().setFlags(QgsFeatureRequest.NoGeometry)
request.setSubsetOfAttributes([f for f in ["area", "age", "gender", "education", "records"]
                                if layer.fields().indexOf(f) >= 0], layer.fields())
iterator = layer.getFeatures(request)
feature = next(iterator, None)
while feature is not None:
    feature = next(iterator, None)
EOF
export QT_QPA_PLATFORM=offscreen
iterate_gpkg=$(seconds /usr/bin/python3 qgis-iterate.py "patients.gpkg|layername=patients")
iterate_csv=$(seconds /usr/bin/python3 qgis-iterate.py patients.csv)
iterate_counts=$(seconds /usr/bin/python3 qgis-iterate.py "counts.gpkg|layername=counts")

release() { # release RECORDS OUTPUT_RECORDS [more parameters]: the cheapest release (exact ages, no
    # search of age bands), to time the I/O
    local input=$1 output=$2
    shift 2
    rm -rf out && mkdir out
    "$runner" run vbas:aggregateregions -- NO_LEDGER=true "REGIONS=areas.gpkg|layername=areas" REGION_ID_FIELD=area_id \
        "RECORDS=$input" RECORD_REGION_FIELD=area QUASI_IDENTIFIERS=age QUASI_IDENTIFIERS=gender \
        QUASI_IDENTIFIERS=education "GENERALIZATION=age: none" \
        K=5 "SITE_COUNT_METHOD=GAPS MaxCombs" REFINE_SUPPRESSION=false REFINE_BOUNDARIES=false \
        "OUTPUT=ogr:dbname='out/release.gpkg' table=\"aggregates\" (geom)" "OUTPUT_RECORDS=$output" "$@"
}
release_gpkg=$(seconds release "patients.gpkg|layername=patients" "ogr:dbname='out/release.gpkg' table=\"records\"")
release "patients.gpkg|layername=patients" "ogr:dbname='out/release.gpkg' table=\"records\"" 2>&1 |
    grep -E ' in [0-9.]+ s|back whole' | sed 's/^/    /'
release_csv=$(seconds release patients.csv out/records.csv)
release_counts=$(seconds release "patients.gpkg|layername=patients" "")
release_pre=$(seconds release "counts.gpkg|layername=counts" "" COUNT_FIELD=records)
counts_rows=$(ogrinfo -so counts.gpkg counts | sed -n 's/^Feature Count: //p')

rows=$(ogrinfo -so patients.gpkg patients | sed -n 's/^Feature Count: //p')
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo
echo "records: $rows over 8100 areas"
printf '%-58s %7s s\n' "ogr2ogr copies the records, GeoPackage to GeoPackage" "$copy_gpkg"
printf '%-58s %7s s\n' "ogr2ogr copies the records, CSV to CSV" "$copy_csv"
printf '%-58s %7s s\n' "QGIS iterates the records (4 columns), GeoPackage" "$iterate_gpkg"
printf '%-58s %7s s\n' "QGIS iterates the records (4 columns), CSV" "$iterate_csv"
printf '%-58s %7s s\n' "QGIS iterates the pre-aggregated table ($counts_rows rows)" "$iterate_counts"
printf '%-58s %7s s  %5sx ogr2ogr\n' "release, GeoPackage in and out (records written)" "$release_gpkg" \
    "$(ratio "$release_gpkg" "$copy_gpkg")"
printf '%-58s %7s s  %5sx ogr2ogr\n' "release, CSV in and out (records written)" "$release_csv" \
    "$(ratio "$release_csv" "$copy_csv")"
printf '%-58s %7s s  %5sx QGIS iteration\n' "release, GeoPackage in, no records written" "$release_counts" \
    "$(ratio "$release_counts" "$iterate_gpkg")"
printf '%-58s %7s s  %5sx QGIS iteration\n' "release, pre-aggregated GeoPackage in (COUNT_FIELD)" "$release_pre" \
    "$(ratio "$release_pre" "$iterate_counts")"

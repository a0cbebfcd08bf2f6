#!/usr/bin/env bash
# The PostgreSQL benchmark of issue 14: vbas:aggregateregions on records in PostgreSQL/PostGIS, streamed
# with COPY and counted as they come (GROUP_RECORDS=auto), grouped by the database (GROUP BY with
# COUNT(*), only counts travel: GROUP_RECORDS=database), against reading every row through QGIS and
# against QGIS merely iterating the same table, in one run on this machine. A throw-away cluster
# (tests/processing/postgis-cluster.sh) holds a grid of GRID x GRID 1 km small areas (PostGIS polygons)
# and RECORDS records placed on them with skewed sizes, each a whole person drawn from the real MEPS rows
# of data/bench/meps1996_persons.csv (exact age, gender, married, ethnicity, education). Prints seconds,
# peak memory and ratios; asserts nothing.
#
#   bench/postgis-bench.sh [RECORDS] [GRID] [WORK_FOLDER]   # default: 2850000 90 build/postgis-bench
#   bench/postgis-bench.sh 35000000 237                      # national: 35 M records, 56,169 areas
#
# Reading every row (QGIS's iteration, or a release with GROUP_RECORDS=rows) is timed up to 5 M records.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
runner="$root/${BUILD_DIR:-build}/runner/vbas_process"
records=${1:-2850000}
grid=${2:-90}
work=${3:-build/postgis-bench}
mkdir -p "$work"
work=$(cd "$work" && pwd)
cluster="$root/tests/processing/postgis-cluster.sh"
trap 'bash "$cluster" stop "$work"' EXIT
connection=$(bash "$cluster" start "$work")
psql=("$(cat "$work/bin")/psql" -X -q -v ON_ERROR_STOP=1 "$connection")

start=$(date +%s%N)
"${psql[@]}" << SQL
CREATE TABLE areas AS
SELECT format('A%s', lpad((r * $grid + c)::text, 6, '0')) AS area_id,
       ST_MakeEnvelope(250000 + c * 1000, 9100000 + r * 1000, 251000 + c * 1000, 9101000 + r * 1000,
                       32725)::geometry(Polygon, 32725) AS geom
FROM generate_series(0, $grid - 1) AS r, generate_series(0, $grid - 1) AS c;
ALTER TABLE areas ADD COLUMN area_fid serial PRIMARY KEY;
-- Skewed sizes (a few dense areas, many small): the area of a record is u^2 of the way along the grid.
CREATE UNLOGGED TABLE patients AS
SELECT i AS patient_id,
       format('A%s', lpad(floor($grid * $grid * power(abs(hashint8extended(i, 1)) / 9223372036854775807.0, 2))::bigint::text, 6, '0')) AS area,
       m.age, m.gender, m.married, m.ethnicity, m.education
FROM generate_series(1::bigint, $records) AS i
JOIN meps AS m ON m.row_number - 1 = abs(hashint8extended(i, 2)) % (SELECT count(*) FROM meps);
ALTER TABLE patients ADD PRIMARY KEY (patient_id);
-- A settled table, as autovacuum leaves one: hint bits set, the visibility map and statistics up to date.
VACUUM (ANALYZE) patients;
SQL
end=$(date +%s%N)
load=$(awk -v ns=$((end - start)) 'BEGIN { printf "%.1f", ns / 1e9 }')

timed() { # runs "$@" quietly; prints "seconds peak_MiB"
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" > "$work/last.log" 2>&1 ||
        { cat "$work/last.log" >&2; exit 1; }
    awk '{ printf "%.2f %.0f", $1, $2 / 1024 }' "$work/time"
}

# QGIS's own iteration of the columns a release reads, as Processing would read them.
cat > "$work/qgis-iterate.py" << 'EOF'
import sys
from qgis.core import QgsApplication, QgsVectorLayer, QgsFeatureRequest
app = QgsApplication([], False)
app.initQgis()
layer = QgsVectorLayer(sys.argv[1], "records", "postgres")
request = QgsFeatureRequest().setFlags(QgsFeatureRequest.NoGeometry)
request.setSubsetOfAttributes(["area", "age", "gender", "education"], layer.fields())
for feature in layer.getFeatures(request):
    pass
EOF
export QT_QPA_PLATFORM=offscreen
regions="postgres://$connection table=\"public\".\"areas\" (geom) key='area_fid'"
patients="postgres://$connection table=\"public\".\"patients\" key='patient_id'"
# The cheapest release (exact ages, no search of age bands), to time the I/O; no records written.
# GROUP_RECORDS=... goes after it.
release=("$runner" run vbas:aggregateregions -- NO_LEDGER=true "REGIONS=$regions" REGION_ID_FIELD=area_id "RECORDS=$patients"
    RECORD_REGION_FIELD=area QUASI_IDENTIFIERS=age QUASI_IDENTIFIERS=gender QUASI_IDENTIFIERS=education
    "GENERALIZATION=age: none" K=5 "SITE_COUNT_METHOD=GAPS MaxCombs" REFINE_SUPPRESSION=false REFINE_BOUNDARIES=false
    "OUTPUT=ogr:dbname='$work/release.gpkg' table=\"aggregates\" (geom)")
read -r counted counted_mib <<< "$(timed "${release[@]}" GROUP_RECORDS=auto)"
grep -E '^RECORDS: |release computed|Released' "$work/last.log" | sed 's/^/    /'
groups=$(sed -n 's/^RECORDS: streamed .* rows, \([0-9]*\) distinct.*/\1/p' "$work/last.log")
read -r grouped grouped_mib <<< "$(timed "${release[@]}" GROUP_RECORDS=database)"
grep -E '^RECORDS: |release computed|Released' "$work/last.log" | sed 's/^/    /'

echo
echo "records: $records over $((grid * grid)) areas ($groups groups of area, age, gender, education); loaded in $load s"
printf '%-56s %8s s %6s MiB\n' "release, streamed and counted here (auto)" "$counted" "$counted_mib"
printf '%-56s %8s s %6s MiB\n' "release, grouped by PostgreSQL (database)" "$grouped" "$grouped_mib"
if [ "$records" -le 5000000 ]; then
    read -r iterate iterate_mib <<< "$(timed /usr/bin/python3 "$work/qgis-iterate.py" \
        "$connection table=\"public\".\"patients\" key='patient_id'")"
    read -r rows rows_mib <<< "$(timed "${release[@]}" GROUP_RECORDS=rows)"
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
    printf '%-56s %8s s %6s MiB\n' "QGIS iterates the records (4 columns)" "$iterate" "$iterate_mib"
    printf '%-56s %8s s %6s MiB\n' "release, every row read through QGIS (rows)" "$rows" "$rows_mib"
    echo "counted here / QGIS iteration: $(ratio "$counted" "$iterate")x;" \
        "grouped by PostgreSQL / QGIS iteration: $(ratio "$grouped" "$iterate")x;" \
        "counted here / every row: $(ratio "$counted" "$rows")x"
fi

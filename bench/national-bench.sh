#!/usr/bin/env bash
# The national-scale benchmark of issue 33: vbas:aggregateregions end to end on synthetic national small
# areas (bench/make-national-data.py: AREAS Voronoi tracts in EPSG:5070, about 412 records each, drawn from
# real microdata and pre-aggregated), in three configurations:
#   default   the required parameters only (the budget search, the refinement and the region moves);
#   thesis    the thesis's pipeline at a fixed site count, AREAS / 20, no refinement, no moves;
#   exact-age the default with ages kept exact (GENERALIZATION=age: none; the default bands numbers itself).
# Prints per run the wall and CPU time, the peak memory, the regions released and records withheld, and the
# engine's own figures from its log (rows read and in how long, the release's compute time, the budget
# search's probes); and per size what GDAL needs merely to read and to copy the records. "io" runs the
# default on the I/O benchmark's 2.85 M records (bench/io-bench.sh, run first: it makes that data and
# prints its I/O figures). Asserts nothing: the figures are read, not tested. NATIONAL_CONFIGS chooses the
# configurations (default "default thesis exact-age").
#
#   bench/national-bench.sh [AREAS|io ...]      # default: 20000 80000 io
#
# With NATIONAL_DOCS=1 the table also replaces the generated one in docs/performance.md (between its
# "national-bench" markers), with the date, the commit and the command.
#
# Data is made once into build/national-bench/AREAS/ (delete the folder to make it again); logs stay
# there. A run longer than NATIONAL_TIMEOUT seconds (default 1800) is stopped and reported as stopped.
# The machine is shared, so each row also shows the load average when its run started: wall times from a
# busy machine are not comparable, CPU times more nearly so.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
runner="$root/${BUILD_DIR:-build}/runner/vbas_process"
bench="$root/${BUILD_DIR:-build}/national-bench"
timeout_s=${NATIONAL_TIMEOUT:-1800}
export QT_QPA_PLATFORM=offscreen
[ $# -gt 0 ] || set -- 20000 80000 io
mkdir -p "$bench"
rows_file="$bench/table.txt"
markdown_file="$bench/table.md"
: > "$rows_file"
: > "$markdown_file"

seconds() { # runs "$@" quietly and prints its wall time in seconds
    local start end
    start=$(date +%s%N)
    "$@" > /dev/null 2>&1
    end=$(date +%s%N)
    awk -v ns=$((end - start)) 'BEGIN { printf "%.1f", ns / 1e9 }'
}

configs=" ${NATIONAL_CONFIGS:-default thesis exact-age} "
wanted() { [[ $configs == *" $1 "* ]]; } # wanted CONFIG: whether NATIONAL_CONFIGS names it

result() { sed -n "s/^$2:\t//p" "$1"; } # result LOG NAME: a result the runner printed

# release SET CONFIGURATION RECORDS [PARAMETER...]: one release end to end in the current folder (areas.gpkg
# with area_id; records with area, age, gender, education), its log in CONFIGURATION.log; appends a row.
release() {
    local set=$1 name=$2 records=$3
    shift 3
    rm -rf "out-$name" && mkdir "out-$name"
    local load status=0
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f '%e %U %S %M' -o "$name.time" timeout -k 30 "$timeout_s" \
        "$runner" run vbas:aggregateregions -- NO_LEDGER=true "REGIONS=areas.gpkg|layername=areas" REGION_ID_FIELD=area_id \
        "RECORDS=$records" RECORD_REGION_FIELD=area QUASI_IDENTIFIERS=age QUASI_IDENTIFIERS=gender \
        QUASI_IDENTIFIERS=education K=5 "OUTPUT=ogr:dbname='out-$name/release.gpkg' table=\"aggregates\" (geom)" \
        "$@" > "$name.log" 2>&1 || status=$?
    local wall cpu rss regions withheld input reading engine probes note
    read -r wall cpu rss < <(tail -1 "$name.time" | awk '{ printf "%.1f %.1f %.2f\n", $1, $2 + $3, $4 / 1048576 }')
    regions=$(result "$name.log" AGGREGATES)
    withheld=$(result "$name.log" SUPPRESSED)
    input=$(result "$name.log" INPUT_RECORDS)
    reading=$(sed -n 's/^Read .* rows (RECORDS) in \([0-9.]*\) s$/\1/p' "$name.log")
    engine=$(sed -n 's/^release computed in \([0-9.]*\) s$/\1/p' "$name.log")
    probes=$(sed -n 's/^suppression budget: .* \([0-9]*\) releases tried)$/\1/p' "$name.log")
    case $status in
        0) note=ok ;;
        124 | 137) note="stopped after ${timeout_s} s" ;;
        *) note="failed ($status): $(grep -m1 '^ERROR' "$name.log" | cut -c1-80)" ;;
    esac
    [ -z "$withheld" ] || withheld="$withheld ($(awk -v w="$withheld" -v n="$input" 'BEGIN { printf "%.2f %%", 100 * w / n }'))"
    printf '%-8s %-8s %8s %7s %6s GB %8s %-18s %7s %8s %7s %6s  %s\n' "$set" "$name" "$wall" "$cpu" "$rss" \
        "${regions:--}" "${withheld:--}" "${reading:--}" "${engine:--}" "${probes:--}" "$load" "$note" |
        tee -a "$rows_file"
    printf '| %s | %s | %s | %s | %s GB | %s | %s | %s | %s | %s | %s |\n' "$set" "$name" "$wall" "$cpu" "$rss" \
        "${regions:--}" "${withheld:--}" "${engine:--}" "${probes:--}" "$load" "$note" >> "$markdown_file"
}

national() { # national AREAS: makes the data when missing, times reading it, then the three releases
    local areas=$1 dir="$bench/$1"
    mkdir -p "$dir"
    cd "$dir"
    if [ ! -f records.gpkg ]; then
        # GeoPackage, not CSV: VBAS reads the same 4.1 M rows from it in 7 s, from the CSV in 56 s.
        /usr/bin/time -f '%e s, peak %M KB' -o generate.time /usr/bin/python3 "$root/bench/make-national-data.py" . "$areas"
        /usr/bin/time -a -f '%e s, peak %M KB' -o generate.time ogr2ogr -f GPKG records.gpkg records.csv -nln records
        rm records.csv records.csvt
    fi
    local rows
    rows=$(ogrinfo -so records.gpkg records | sed -n 's/^Feature Count: //p')
    echo "== $areas areas, $rows rows; generated in $(paste -sd+ generate.time | sed 's/+/ + ogr2ogr /')"
    rm -f copy.gpkg
    echo "   ogr2ogr copies the records (GeoPackage to GeoPackage): $(seconds ogr2ogr -f GPKG copy.gpkg records.gpkg records) s"
    rm -f copy.gpkg
    # GDAL's Arrow stream of the columns a release reads, as VBAS reads them: reading and nothing else
    # (needs GDAL's Python bindings, python3-gdal).
    if /usr/bin/python3 -c 'from osgeo import ogr' 2> /dev/null; then
        echo "   GDAL reads the records (Arrow stream, 5 columns): $(seconds /usr/bin/python3 -c '
import sys
from osgeo import ogr
layer = ogr.Open(sys.argv[1]).GetLayer("records")
for batch in layer.GetArrowStreamAsNumPy(["INCLUDE_FID=NO"]):
    pass' records.gpkg) s"
    else
        echo "   GDAL reads the records: not measured (python3-gdal is not installed)"
    fi
    if wanted default; then release "$areas" default "records.gpkg|layername=records" COUNT_FIELD=records; fi
    if wanted thesis; then
        release "$areas" thesis "records.gpkg|layername=records" COUNT_FIELD=records \
            "SITE_COUNT_METHOD=Fixed number" SITE_COUNT=$((areas / 20)) REFINE_SUPPRESSION=false \
            REFINE_BOUNDARIES=false
    fi
    if wanted exact-age; then
        release "$areas" exact-age "records.gpkg|layername=records" COUNT_FIELD=records "GENERALIZATION=age: none"
    fi
}

io_set() { # the default on bench/io-bench.sh's data: a row per record and pre-aggregated
    echo "== bench/io-bench.sh (2.85 M records over 8,100 areas): its I/O figures, then the default"
    "$root/bench/io-bench.sh" "$bench/io" | sed 's/^/   /'
    cd "$bench/io"
    release io default-rows "patients.gpkg|layername=patients"
    release io default-counts "counts.gpkg|layername=counts" COUNT_FIELD=records
}

for size in "$@"; do
    case $size in
        io) io_set ;;
        *) national "$size" ;;
    esac
done
echo
printf '%-8s %-8s %8s %7s %9s %8s %-18s %7s %8s %7s %6s  %s\n' set config "wall s" "CPU s" "peak RSS" regions \
    withheld "read s" "engine s" probes load status
cat "$rows_file"
echo "(read s: VBAS reading the records; engine s: the release computed; probes: budget-search releases tried)"
if [ "${NATIONAL_DOCS:-0}" = 1 ]; then
    docs="$root/docs/performance.md"
    {
        echo "<!-- national-bench:begin (generated by bench/national-bench.sh; do not edit by hand) -->"
        echo "Measured $(date -u +%Y-%m-%d) at $(git -C "$root" rev-parse --short HEAD), $(nproc) cores:"
        echo "\`${NATIONAL_CONFIGS:+NATIONAL_CONFIGS=\"$NATIONAL_CONFIGS\" }NATIONAL_DOCS=1 bench/national-bench.sh $*\`"
        echo
        echo "| set | configuration | wall s | CPU s | peak | regions | withheld | engine s | releases tried | load | status |"
        echo "|---|---|---|---|---|---|---|---|---|---|---|"
        cat "$markdown_file"
        echo "<!-- national-bench:end -->"
    } > "$bench/docs-block.md"
    python3 - "$docs" "$bench/docs-block.md" <<'PY'
import re, sys
docs, block = sys.argv[1], open(sys.argv[2]).read().rstrip("\n")
text = open(docs).read()
pattern = re.compile(r"<!-- national-bench:begin.*?<!-- national-bench:end -->", re.S)
if not pattern.search(text):
    sys.exit("docs/performance.md has no national-bench markers")
open(docs, "w").write(pattern.sub(lambda _: block, text))
PY
    echo "docs/performance.md: the national-scale table replaced"
fi

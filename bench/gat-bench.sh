#!/usr/bin/env bash
# GAT beside VBAS (issue 41): NYSDOH's Geographic Aggregation Tool (R package gatpkg, MIT) and vbas:maprelease
# on the same polygons and population floors, every result checked by one script that uses neither
# (bench/floor-check.R: sums per region, contiguity by spdep's rook neighbours, areas missing). Prints a
# table: regions, regions below the floor, regions not contiguous, small areas missing, wall and CPU seconds
# of each tool, and VBAS's advantage in CPU time (the machine is shared: wall times of a busy machine say
# little, CPU times more).
#
#   bench/gat-bench.sh GATPKG_SOURCE          # a clone of github.com/NYSTracking/gatpkg (or its tarball)
#
# Installs, as root with apt-get, Debian's R packages GAT needs (r-base-core, r-cran-sf, r-cran-spdep,
# r-cran-raster, r-cran-classint, r-cran-rcolorbrewer, r-cran-tibble) when they are missing, then GAT itself
# with R CMD INSTALL into build/gat-bench/library (nothing outside the build folder). Everything it reads is in
# the repository: Olinda's 470 tracts (data/demo/olinda.gpkg, residents V014, the cases of
# data/tests/olinda_health.csv) and a set of 1,514 real small areas with their populations (Olinda's tracts,
# Boston's 506 tracts, the 281 tracts of eight New York counties, Georgia's 159 counties and 98 municipalities
# of Minas Gerais: data/README.md), made into build/gat-bench/areas.gpkg in Equal Earth (EPSG:8857, metres: GAT turns longitude and latitude over to s2, which refuses some of these polygons). GAT runs as its
# dialogs would (bench/gat-run.R): one variable with the floor as its minimum and no maximum, merging with the
# closest adjacent area. GAT_TIMEOUT (seconds, default 3600) stops a GAT run; CASES chooses the cases
# ("olinda-5000 areas-5000 areas-20000" by default).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
source=${1:?usage: bench/gat-bench.sh GATPKG_SOURCE (a clone or tarball of NYSTracking/gatpkg)}
runner="$root/${BUILD_DIR:-build}/runner/vbas_process"
bench="$root/${BUILD_DIR:-build}/gat-bench"
export QT_QPA_PLATFORM=offscreen
mkdir -p "$bench/library"

# GAT and what it needs, from Debian and from its own source.
missing=()
for package in r-base-core r-cran-sf r-cran-spdep r-cran-raster r-cran-classint r-cran-rcolorbrewer r-cran-tibble; do
    dpkg -s "$package" > /dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    apt-get install -y --no-install-recommends "${missing[@]}"
fi
if [ ! -d "$bench/library/gatpkg" ]; then
    R CMD INSTALL --no-docs --no-multiarch -l "$bench/library" "$source" > "$bench/gat-install.log" 2>&1 ||
        { cat "$bench/gat-install.log"; exit 1; }
fi
export R_LIBS="$bench/library"

# The set of 1,514 areas, one layer in longitude and latitude, and a case per area (the floors are people).
areas="$bench/areas.gpkg"
if [ ! -f "$areas" ]; then
    add() { # add FILE LAYER SET ID POPULATION
        ogr2ogr -f GPKG ${first:+-append} "$areas" "$root/$1" -nln areas -t_srs EPSG:8857 -nlt MULTIPOLYGON \
            -dialect SQLite -sql "SELECT '$3_' || $4 AS area_id, CAST($5 AS REAL) AS population, 1 AS cases,
                                  '$3' AS area_set, geom FROM $2"
        first=1
    }
    first=
    add data/demo/olinda.gpkg tracts olinda CD_GEOCODI V014
    add data/tests/boston.gpkg tracts boston poltract POP
    add data/tests/ny8.gpkg tracts ny8 AREAKEY POP8
    add data/bench/georgia_counties.gpkg counties georgia AreaKey TotPop90
    add data/bench/mg_municipalities.gpkg municipalities mg Id Population
fi

timed() { # timed LOG COMMAND...: runs it, prints "wall cpu" seconds
    /usr/bin/time -f "%e %U %S" -o "$1.time" "${@:2}" > "$1" 2>&1 || { echo "failed: see $1" >&2; tail -5 "$1" >&2; return 1; }
    awk '{printf "%.2f %.2f\n", $1, $2 + $3}' "$1.time"
}

printf '| small areas, floor | GAT: regions, below the floor, not contiguous, missing | GAT wall s (CPU s) | VBAS: regions, below, not contiguous, missing | VBAS wall s (CPU s) | CPU ratio |\n'
printf '|---|---|---|---|---|---|\n'
for case in ${CASES:-olinda-5000 areas-5000 areas-20000}; do
    set_name=${case%-*}
    floor=${case#*-}
    if [ "$set_name" = olinda ]; then
        layer=(data/demo/olinda.gpkg tracts CD_GEOCODI V014)
        layer[0]="$root/${layer[0]}"
        records=("RECORDS=$root/data/tests/olinda_health.csv" RECORD_REGION_FIELD=tract COUNT_FIELD=poor_health)
        label="Olinda, 470 tracts, >= $floor"
    else
        layer=("$areas" areas area_id population)
        records=("RECORDS=$areas|layername=areas" RECORD_REGION_FIELD=area_id COUNT_FIELD=cases)
        label="1,514 small areas, >= $floor"
    fi
    out="$bench/$case"
    mkdir -p "$out"
    rm -f "$out"/vbas-*
    read -r gat_wall gat_cpu < <(timed "$out/gat.log" timeout "${GAT_TIMEOUT:-3600}" \
        Rscript "$root/bench/gat-run.R" "${layer[@]}" "$floor" "$out/gat.csv")
    gat_check=$(Rscript "$root/bench/floor-check.R" "${layer[@]}" "$floor" "$out/gat.csv" | tr '\t' ' ')
    read -r vbas_wall vbas_cpu < <(timed "$out/vbas.log" "$runner" run vbas:maprelease -- \
        "REGIONS=${layer[0]}|layername=${layer[1]}" "REGION_ID_FIELD=${layer[2]}" "POPULATION_FIELD=${layer[3]}" \
        "${records[@]}" "POPULATION_FLOOR=$floor" NO_LEDGER=true \
        "OUTPUT=$out/vbas-regions.gpkg" "OUTPUT_MAPPING=$out/vbas-crosswalk.gpkg")
    ogr2ogr -f CSV "$out/vbas.csv" "$out/vbas-crosswalk.gpkg" -select "${layer[2]},flag,region_id"
    vbas_check=$(Rscript "$root/bench/floor-check.R" "${layer[@]}" "$floor" "$out/vbas.csv" "${layer[2]}" region_id | tr '\t' ' ')
    ratio=$(awk -v g="$gat_cpu" -v v="$vbas_cpu" 'BEGIN { printf "%.0f", g / v }')
    printf '| %s | %s | %s (%s) | %s | %s (%s) | %s |\n' "$label" "${gat_check// /, }" "$gat_wall" "$gat_cpu" \
        "${vbas_check// /, }" "$vbas_wall" "$vbas_cpu" "$ratio"
done

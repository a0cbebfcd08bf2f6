# Runs vbas:checkanonymity from a command line on data/released.csv and checks results counted by
# hand, then vbas:aggregateregions on a small real input and verifies its release. TOOL is vbas_process, or
# stock qgis_process with PLUGINS (a folder of QGIS plugins holding ours), PLUGIN_NAME (the plugin to enable)
# and STARTUP_DATA (the data folder holding our QGIS/QGIS3/startup.py, the hint of a plugin not enabled).
# WORK is a scratch folder; it also holds the isolated QGIS profile, so no run touches the user's.
#
# released.csv, groups (region, age_group, sex) weighted by n, k = 5:
#   A/30-39/F 5, A/30-39/M 2, A/40-49/F 6, B/30-39/F 1 + 4 = 5, B/40-49/M 7, C/40-49/F 3
#   -> 6 groups, 28 records; below 5: A/30-39/M (2) and C/40-49/F (3), 5 records; smallest 2.
# Regions alone: A 13, B 12, C 3 -> 3 groups; below 5: C, 3 records; none below 3.

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/profile" "${WORK}/runtime")
file(CHMOD "${WORK}/runtime" DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
set(ENV{QT_QPA_PLATFORM} offscreen)
set(ENV{QGIS_CUSTOM_CONFIG_PATH} "${WORK}/profile")
set(ENV{XDG_RUNTIME_DIR} "${WORK}/runtime")
set(ENV{XDG_CACHE_HOME} "${WORK}/cache")

# Runs TOOL with the given arguments; stores stdout in OUT and stderr in ERR, and fails the test
# unless the exit status is zero exactly when EXPECT_SUCCESS is true.
function(run_tool expect_success)
    execute_process(COMMAND "${TOOL}" ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
    string(REPLACE ";" " " command_line "${ARGN}")
    if(expect_success AND NOT status EQUAL 0)
        message(FATAL_ERROR "${command_line}: exit ${status}\n${out}\n${err}")
    elseif(NOT expect_success AND status EQUAL 0)
        message(FATAL_ERROR "${command_line}: succeeded but should have failed\n${out}\n${err}")
    endif()
    set(OUT "${out}" PARENT_SCOPE)
    set(ERR "${err}" PARENT_SCOPE)
endfunction()

# Checks that the JSON in OUT reports the given results.
function(expect_results groups records violating_groups violating_records min_group_size verdict)
    foreach(pair GROUPS:${groups} RECORDS:${records} VIOLATING_GROUPS:${violating_groups}
                 VIOLATING_RECORDS:${violating_records} MIN_GROUP_SIZE:${min_group_size} VERDICT:${verdict})
        string(REPLACE ":" ";" pair "${pair}")
        list(GET pair 0 name)
        list(GET pair 1 expected)
        string(JSON actual ERROR_VARIABLE json_error GET "${OUT}" results ${name})
        if(json_error)
            message(FATAL_ERROR "${name}: ${json_error}\n${OUT}")
        elseif(NOT actual STREQUAL expected)
            message(FATAL_ERROR "${name}: expected ${expected}, got '${actual}'\n${OUT}")
        endif()
    endforeach()
endfunction()

if(PLUGINS)
    set(ENV{QGIS_PLUGINPATH} "${PLUGINS}")
    # Not yet enabled in the profile: qgis_process lists no vbas algorithm, and says how to enable it.
    set(ENV{XDG_DATA_DIRS} "${STARTUP_DATA}:/usr/local/share:/usr/share")
    set(enable_hint "qgis_process(\\.bin)? plugins enable ${PLUGIN_NAME}")
    run_tool(TRUE list)
    if(OUT MATCHES "vbas:" OR NOT ERR MATCHES "${enable_hint}")
        message(FATAL_ERROR "before the plugin is enabled, list must show no vbas algorithm and say "
                            "'${enable_hint}':\n${OUT}\n${ERR}")
    endif()
    run_tool(TRUE plugins enable ${PLUGIN_NAME})
    run_tool(TRUE list)
    if(ERR MATCHES "${enable_hint}")
        message(FATAL_ERROR "the plugin is enabled, but list still says how to enable it:\n${ERR}")
    endif()
endif()

run_tool(TRUE list)
foreach(algorithm aggregateregions checkanonymity compareapproaches estimatesitecount partitionregions
                  rateaggregation selectsites)
    if(NOT OUT MATCHES "vbas:${algorithm}")
        message(FATAL_ERROR "list does not show vbas:${algorithm}:\n${OUT}\n${ERR}")
    endif()
endforeach()

run_tool(TRUE --json run vbas:checkanonymity "--INPUT=${INPUT}" --REGION_FIELD=region
         --QUASI_IDENTIFIERS=age_group --QUASI_IDENTIFIERS=sex --COUNT_FIELD=n --K=5 "--OUTPUT=${WORK}/violations.csv")
expect_results(6 28 2 5 2 FAIL)
file(STRINGS "${WORK}/violations.csv" rows)
string(REPLACE "\"" "" rows "${rows}") # GDAL may quote numbers
if(NOT rows STREQUAL "region,age_group,sex,group_size;A,30-39,M,2;C,40-49,F,3")
    message(FATAL_ERROR "unexpected groups below k: ${rows}")
endif()

run_tool(TRUE --json run vbas:checkanonymity -- "INPUT=${INPUT}" REGION_FIELD=region COUNT_FIELD=n K=5)
expect_results(3 28 1 3 3 FAIL)
# Regions alone at k = 3 pass, but the verdict says only their sizes were checked.
file(WRITE "${WORK}/regions.csv" "region,n\nA,13\nB,12\nC,3\n")
run_tool(TRUE --json run vbas:checkanonymity -- "INPUT=${WORK}/regions.csv" REGION_FIELD=region COUNT_FIELD=n K=3)
expect_results(3 28 0 0 3 REGION_SIZES_PASS)
# The same regions with the table's other columns: sex, judged with the region, fails it.
run_tool(TRUE --json run vbas:checkanonymity -- "INPUT=${INPUT}" REGION_FIELD=region COUNT_FIELD=n K=3)
expect_results(3 28 0 0 3 FAIL)

# The same table through QGIS's delimited-text provider, a plugin QGIS loads only from its installed
# prefix: the runner must find it with no QGIS_PREFIX_PATH (as it must find PostgreSQL's).
run_tool(TRUE --json run vbas:checkanonymity
         "--INPUT=delimitedtext://file://${INPUT}?type=csv&delimiter=,&geomType=none" --REGION_FIELD=region
         --QUASI_IDENTIFIERS=age_group --QUASI_IDENTIFIERS=sex --COUNT_FIELD=n --K=5)
expect_results(6 28 2 5 2 FAIL)

run_tool(FALSE run vbas:checkanonymity "--INPUT=${INPUT}" --REGION_FIELD=regoin)
if(NOT ERR MATCHES "REGION_FIELD: INPUT has no field 'regoin'")
    message(FATAL_ERROR "the error does not name REGION_FIELD:\n${OUT}\n${ERR}")
endif()

# vbas:aggregateregions on the German districts (EPSG:3035) and the 636 real cases of
# data/tests/de_imd_cases.csv: a GeoPackage of aggregates and sites, the released records as CSV and
# the report. Released + suppressed must be the 636 cases, and the released CSV must pass the verifier.
# Two choices are given by number, as help lists them: UNKNOWN_REGIONS 1 (drop), SHADE_BY 0.
set(data "${CMAKE_CURRENT_LIST_DIR}/../../data/tests")
run_tool(TRUE --json run vbas:aggregateregions --NO_LEDGER=true "--REGIONS=${data}/de_districts.gpkg|layername=districts"
         --REGION_ID_FIELD=KEY "--RECORDS=${data}/de_imd_cases.csv" --RECORD_REGION_FIELD=tile
         --QUASI_IDENTIFIERS=sex --QUASI_IDENTIFIERS=agegrp --K=3 --SITE_COUNT_METHOD=sitecount.naive_anonymity
         --UNKNOWN_REGIONS=1 --SHADE_BY=0
         "--OUTPUT=ogr:dbname='${WORK}/release.gpkg' table=\"aggregates\" (geom)"
         "--OUTPUT_SITES=ogr:dbname='${WORK}/release.gpkg' table=\"sites\" (geom)"
         "--OUTPUT_RECORDS=${WORK}/released.csv" "--OUTPUT_HTML_FILE=${WORK}/report.html")
string(JSON released GET "${OUT}" results RECORDS_RELEASED)
string(JSON suppressed GET "${OUT}" results SUPPRESSED)
string(JSON aggregates GET "${OUT}" results AGGREGATES)
string(REGEX REPLACE "\\.0$" "" suppressed "${suppressed}") # metrics are doubles; qgis_process prints 6.0
math(EXPR accounted "${released} + ${suppressed}")
if(NOT accounted EQUAL 636 OR NOT aggregates GREATER 1)
    message(FATAL_ERROR "aggregateregions: ${released} released + ${suppressed} suppressed (expected 636 in all), "
                        "${aggregates} aggregates\n${OUT}")
endif()
foreach(file release.gpkg released.csv report.html)
    if(NOT EXISTS "${WORK}/${file}")
        message(FATAL_ERROR "aggregateregions did not write ${file}\n${OUT}\n${ERR}")
    endif()
endforeach()
run_tool(TRUE --json run vbas:checkanonymity "--INPUT=${WORK}/released.csv" --REGION_FIELD=aggregate_id
         --QUASI_IDENTIFIERS=sex --QUASI_IDENTIFIERS=agegrp --K=3)
string(JSON verdict GET "${OUT}" results VERDICT)
string(JSON records GET "${OUT}" results RECORDS)
if(NOT verdict STREQUAL "PASS" OR NOT records EQUAL released)
    message(FATAL_ERROR "the released records fail the verifier or were not all written:\n${OUT}")
endif()

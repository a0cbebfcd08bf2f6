# Opens the reports of a release and of a comparison of the demo data in headless Chromium, offline,
# and checks what a reader would get: every chart laid out, the map decoded at its size, the page no wider
# than a 1280-pixel window (a wide table scrolls in its own box), nothing fetched from anywhere, no console
# message, and a screenshot. TOOL is vbas_process, CHROMIUM the
# browser (empty: the test is skipped), DATA the demo data folder, WORK a scratch folder.
#
# A report has no script, so a probe page of our own loads it in a frame (file access between local
# files allowed for this run only) and writes into its DOM what the frame holds: image sizes, chart
# boxes and the resources the browser fetched; --dump-dom prints it.

if(NOT CHROMIUM)
    message("chromium is not installed: skipped (scripts/install-deps.sh installs it)")
    return()
endif()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/runtime")
file(CHMOD "${WORK}/runtime" DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
set(ENV{XDG_RUNTIME_DIR} "${WORK}/runtime")

set(job "REGIONS=${DATA}/olinda.gpkg|layername=tracts" REGION_ID_FIELD=CD_GEOCODI
        "RECORDS=${DATA}/olinda_patients.csv" RECORD_REGION_FIELD=tract QUASI_IDENTIFIERS=age_band
        QUASI_IDENTIFIERS=sex QUASI_IDENTIFIERS=married K=5 SITE_COUNT_METHOD=sitecount.naive_anonymity)
foreach(run "aggregateregions;release" "compareapproaches;comparison")
    list(GET run 0 algorithm)
    list(GET run 1 name)
    set(ledger "")
    if(algorithm STREQUAL "aggregateregions")
        set(ledger NO_LEDGER=true)
    endif()
    execute_process(COMMAND "${TOOL}" run vbas:${algorithm} -- ${job} ${ledger} OUTPUT=TEMPORARY_OUTPUT
                            "OUTPUT_HTML_FILE=${WORK}/${name}.html"
                    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "vbas:${algorithm}: exit ${status}\n${out}\n${err}")
    endif()
endforeach()

set(chromium "${CHROMIUM}" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run
             --disable-background-networking --disable-component-update --disable-sync
             "--user-data-dir=${WORK}/profile")

# Checks ${name}.html: `images` the sizes its images decode to, `charts` the laid-out sizes of its
# charts, both comma-separated in document order, and `scrolled` how many of its tables scroll in their box.
function(check_report name images charts scrolled)
    file(WRITE "${WORK}/probe-${name}.html"
         "<!DOCTYPE html><html><body><iframe id=\"r\" src=\"${name}.html\" width=\"1280\" height=\"2400\"></iframe>"
         "<pre id=\"out\"></pre><script>document.getElementById('r').addEventListener('load', () => {"
         "const w = document.getElementById('r').contentWindow, d = w.document;"
         "const size = (b) => Math.round(b.width) + 'x' + Math.round(b.height);"
         "document.getElementById('out').textContent = 'images=' + [...d.images].map(i => i.naturalWidth + 'x' + "
         "i.naturalHeight).join(',') + ' charts=' + [...d.querySelectorAll('svg')].map(s => "
         "size(s.getBoundingClientRect())).join(',') + ' page=' + (d.documentElement.scrollWidth <= w.innerWidth ? "
         "'fits' : d.documentElement.scrollWidth + 'px') + ' scrolled=' + [...d.querySelectorAll('.scroll')]"
         ".filter(s => s.scrollWidth > s.clientWidth).length + ' fetched=' + w.performance.getEntriesByType('resource')"
         ".map(e => e.name).join(',') + ' end';});</script></body></html>")
    execute_process(COMMAND ${chromium} --allow-file-access-from-files --virtual-time-budget=10000 --dump-dom
                            "file://${WORK}/probe-${name}.html"
                    RESULT_VARIABLE status OUTPUT_VARIABLE dom ERROR_VARIABLE err TIMEOUT 120)
    set(expected "images=${images} charts=${charts} page=fits scrolled=${scrolled} fetched= end")
    string(FIND "${dom}" "${expected}" found)
    if(NOT status EQUAL 0 OR found EQUAL -1)
        string(REGEX MATCH "images=[^<]*" got "${dom}")
        message(FATAL_ERROR "${name}.html in Chromium: expected '${expected}', got '${got}' (exit ${status})\n${err}")
    endif()

    execute_process(COMMAND ${chromium} --enable-logging=stderr --v=0 "--screenshot=${WORK}/${name}.png"
                            --window-size=1280,2400 "file://${WORK}/${name}.html"
                    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
    set(bytes 0)
    if(EXISTS "${WORK}/${name}.png")
        file(SIZE "${WORK}/${name}.png" bytes)
    endif()
    # Console messages of the report's own pages fail it; Chromium's own pages (chrome://, such as
    # Debian 13's "Slow network is detected") do not.
    if(NOT status EQUAL 0 OR bytes LESS 20000 OR err MATCHES "CONSOLE.*source: file:")
        message(FATAL_ERROR "${name}.html: exit ${status}, screenshot of ${bytes} bytes, console:\n${err}")
    endif()
endfunction()

# The release report holds the map (1600 x 1000 by default) and four histograms, and every table fits;
# the comparison report one scatter chart and no image, and its table of solutions, a column per metric,
# scrolls in its box.
check_report(release 1600x1000 480x280,480x280,480x280,480x280 0)
check_report(comparison "" 720x460 1)

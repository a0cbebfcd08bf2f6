# Installs the build tree into a scratch prefix, checks the layout QGIS needs (one plugin folder for desktop
# and qgis_process, complete; the engine once, in VBAS's private library folder; the runner in bin; the
# start-up hint), then runs the command-line checks against what was installed.
# Variables: BUILD, WORK, CLI_CHECK, INPUT, PLUGIN_DIR, PLUGIN_NAME, LIBRARY_DIR, STARTUP_DIR,
# QGIS_PROCESS (optional).

file(REMOVE_RECURSE "${WORK}")
set(prefix "${WORK}/prefix")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD}" --prefix "${prefix}" RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "cmake --install failed:\n${out}\n${err}")
endif()

set(plugin "${prefix}/${PLUGIN_DIR}/${PLUGIN_NAME}")
foreach(file __init__.py metadata.txt icons/vbas.svg)
    if(NOT EXISTS "${plugin}/${file}")
        message(FATAL_ERROR "the plugin lacks ${file}: ${plugin}")
    endif()
endforeach()
file(GLOB plugin_folders LIST_DIRECTORIES true "${prefix}/${PLUGIN_DIR}/*")
if(NOT plugin_folders STREQUAL plugin)
    message(FATAL_ERROR "one plugin for the Plugin Manager, not: ${plugin_folders}")
endif()
if(EXISTS "${prefix}/lib/qgis/plugins")
    message(FATAL_ERROR "a C++ plugin would be a second entry in the Plugin Manager: ${prefix}/lib/qgis/plugins")
endif()
if(NOT EXISTS "${prefix}/${STARTUP_DIR}/startup.py")
    message(FATAL_ERROR "the qgis_process hint is missing: ${prefix}/${STARTUP_DIR}/startup.py")
endif()

# The engine is in one file: the one installed file holding the id of a strategy is the provider library.
set(library "${prefix}/${LIBRARY_DIR}/libvbasprovider.so")
file(GLOB_RECURSE installed "${prefix}/*")
set(engines "")
foreach(file IN LISTS installed)
    file(STRINGS "${file}" found LIMIT_COUNT 1 REGEX "sitelocation\\.balanced_density")
    if(found)
        list(APPEND engines "${file}")
    endif()
endforeach()
if(NOT engines STREQUAL library OR IS_SYMLINK "${library}")
    message(FATAL_ERROR "the engine must be installed once, in ${library}, not in: ${engines}")
endif()

function(run_cli_check name)
    execute_process(COMMAND "${CMAKE_COMMAND}" "-DINPUT=${INPUT}" "-DWORK=${WORK}/${name}" ${ARGN} -P "${CLI_CHECK}"
                    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "installed ${name}:\n${out}\n${err}")
    endif()
endfunction()
run_cli_check(vbas_process "-DTOOL=${prefix}/bin/vbas_process")
if(QGIS_PROCESS)
    run_cli_check(qgis_process "-DTOOL=${QGIS_PROCESS}" "-DPLUGINS=${prefix}/${PLUGIN_DIR}"
                  "-DPLUGIN_NAME=${PLUGIN_NAME}" "-DSTARTUP_DATA=${prefix}/share")
endif()

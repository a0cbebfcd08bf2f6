# Installs the build tree into a scratch prefix, checks the layout QGIS needs (the plugin .so alone
# and real in its folder; the shim folder complete; the runner in bin), then runs the command-line
# checks against what was installed.
# Variables: BUILD, WORK, CLI_CHECK, INPUT, PLUGIN_DIR, SHIM_DIR, SHIM_NAME, QGIS_PROCESS (optional).

file(REMOVE_RECURSE "${WORK}")
set(prefix "${WORK}/prefix")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD}" --prefix "${prefix}" RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "cmake --install failed:\n${out}\n${err}")
endif()

set(plugin "${prefix}/${PLUGIN_DIR}/libvbasplugin.so")
if(NOT EXISTS "${plugin}" OR IS_SYMLINK "${plugin}")
    message(FATAL_ERROR "the desktop plugin is missing or a symlink (QGIS skips those): ${plugin}")
endif()
file(GLOB plugin_folder_libraries "${prefix}/${PLUGIN_DIR}/*.so*")
if(NOT plugin_folder_libraries STREQUAL plugin)
    message(FATAL_ERROR "QGIS probes every .so of the plugin folder; it must hold ours alone: ${plugin_folder_libraries}")
endif()
set(shim "${prefix}/${SHIM_DIR}/${SHIM_NAME}")
foreach(file __init__.py metadata.txt icons/vbas.svg libvbasprovider.so)
    if(NOT EXISTS "${shim}/${file}")
        message(FATAL_ERROR "the qgis_process shim lacks ${file}: ${shim}")
    endif()
endforeach()

function(run_cli_check name)
    execute_process(COMMAND "${CMAKE_COMMAND}" "-DINPUT=${INPUT}" "-DWORK=${WORK}/${name}" ${ARGN} -P "${CLI_CHECK}"
                    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "installed ${name}:\n${out}\n${err}")
    endif()
endfunction()
run_cli_check(vbas_process "-DTOOL=${prefix}/bin/vbas_process")
if(QGIS_PROCESS)
    run_cli_check(qgis_process "-DTOOL=${QGIS_PROCESS}" "-DSHIM_PLUGINS=${prefix}/${SHIM_DIR}" "-DSHIM_NAME=${SHIM_NAME}")
endif()

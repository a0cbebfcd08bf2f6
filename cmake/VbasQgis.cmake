# Finds QGIS (Debian ships only FindQGIS.cmake) and the Qt major it links, so that Qt5 and Qt6
# builds of QGIS both work and the two majors are never mixed.
set(VBAS_HAVE_QGIS OFF)
find_file(VBAS_FIND_QGIS_MODULE FindQGIS.cmake PATHS /usr/share/qgis /usr/local/share/qgis NO_DEFAULT_PATH)
if(VBAS_FIND_QGIS_MODULE)
    get_filename_component(_qgis_module_dir "${VBAS_FIND_QGIS_MODULE}" DIRECTORY)
    list(APPEND CMAKE_MODULE_PATH "${_qgis_module_dir}")
    find_package(QGIS QUIET)
endif()

if(QGIS_FOUND AND QGIS_CORE_LIBRARY AND QGIS_ANALYSIS_LIBRARY)
    find_program(VBAS_READELF readelf)
    set(_qgis_needed "")
    if(VBAS_READELF)
        execute_process(COMMAND ${VBAS_READELF} -d ${QGIS_CORE_LIBRARY} OUTPUT_VARIABLE _qgis_needed
                        ERROR_QUIET)
    else()
        file(STRINGS ${QGIS_CORE_LIBRARY} _qgis_needed REGEX "libQt[56]Core" LIMIT_COUNT 1)
    endif()
    set(VBAS_QT_MAJOR "" CACHE STRING
        "Qt major version to build against; empty: the one QGIS links (only the Qt6 syntax check sets it)")
    if(VBAS_QT_MAJOR)
        set(QT_VERSION_MAJOR ${VBAS_QT_MAJOR})
    elseif(_qgis_needed MATCHES "libQt6Core")
        set(QT_VERSION_MAJOR 6)
    else()
        set(QT_VERSION_MAJOR 5)
    endif()
    find_package(Qt${QT_VERSION_MAJOR} COMPONENTS Core Gui Widgets Xml Svg)
    if(Qt${QT_VERSION_MAJOR}_FOUND)
        set(VBAS_HAVE_QGIS ON)
        string(REGEX MATCH "^[0-9]+\\.[0-9]+" VBAS_QGIS_MAJOR_MINOR "${QGIS_VERSION}")
        message(STATUS "VBAS: QGIS ${QGIS_VERSION} with Qt${QT_VERSION_MAJOR}; building the QGIS provider")
        # The plugin (one folder, a Python plugin that loads the provider library) goes into QGIS's own
        # folder of Python plugins, relative to its prefix: with the prefix /usr (the .deb), desktop QGIS and
        # stock qgis_process both find it with no QGIS_PLUGINPATH.
        set(VBAS_PLUGIN_INSTALL_DIR "share/qgis/python/plugins" CACHE STRING
            "Where the QGIS plugin folder is installed, relative to CMAKE_INSTALL_PREFIX")
        # The engine's one shared library, private to VBAS (the plugin and vbas_process find it there).
        set(VBAS_PRIVATE_LIBRARY_DIR "lib/vbas" CACHE STRING
            "Where libvbasprovider.so is installed, relative to CMAKE_INSTALL_PREFIX")
        # The plugin's name (its folder, which `qgis_process plugins enable` takes) and the folder holding it
        # in the build tree (point QGIS_PLUGINPATH there).
        set(VBAS_PLUGIN_NAME vbas_processing)
        set(VBAS_PLUGINS_BUILD_DIR ${PROJECT_BINARY_DIR}/plugin/plugins)
        set(VBAS_PLUGIN_BUILD_DIR ${VBAS_PLUGINS_BUILD_DIR}/${VBAS_PLUGIN_NAME})
        # The data folder holding the build tree's QGIS start-up hook (QGIS/QGIS3/startup.py): XDG_DATA_DIRS.
        set(VBAS_STARTUP_BUILD_DIR ${PROJECT_BINARY_DIR}/plugin/share)
    endif()
endif()

if(NOT VBAS_HAVE_QGIS)
    if(VBAS_REQUIRE_QGIS)
        message(FATAL_ERROR "VBAS: QGIS development files not found; run scripts/install-deps.sh")
    endif()
    message(STATUS "VBAS: QGIS not found; building the core engine only")
endif()

if(VBAS_HAVE_QGIS)
    # One target carrying QGIS's headers (as SYSTEM, so -Werror never trips on them) and libraries.
    add_library(vbas_qgis INTERFACE)
    target_include_directories(vbas_qgis SYSTEM INTERFACE ${QGIS_INCLUDE_DIR})
    target_link_libraries(vbas_qgis INTERFACE ${QGIS_CORE_LIBRARY} ${QGIS_ANALYSIS_LIBRARY}
                                              Qt${QT_VERSION_MAJOR}::Core Qt${QT_VERSION_MAJOR}::Gui
                                              Qt${QT_VERSION_MAJOR}::Widgets Qt${QT_VERSION_MAJOR}::Xml)

    # Stock qgis_process, to test the plugin in it. Debian's /usr/bin/qgis_process wrapper passes an
    # option that 3.22 rejects, so the binary itself is the one to call.
    find_program(VBAS_QGIS_PROCESS qgis_process.bin)
endif()

# Reads `key=value` from metadata.txt, the single source of the plugin's name, version and
# description, into out_var.
function(vbas_metadata_value key out_var)
    file(READ "${PROJECT_SOURCE_DIR}/metadata.txt" _metadata)
    if(NOT _metadata MATCHES "(^|\n)${key}=([^\n]*)")
        message(FATAL_ERROR "metadata.txt has no '${key}=' line")
    endif()
    set(${out_var} "${CMAKE_MATCH_2}" PARENT_SCOPE)
endfunction()

# Makes a shared library that QGIS loads (libvbasprovider.so) self-contained: everything it links statically
# stays private to it, so that it exports its entry points alone and never binds to another copy of our
# code, and a missing symbol fails the link, not QGIS.
function(vbas_qgis_module target)
    set_target_properties(${target} PROPERTIES CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON
                                               PREFIX "lib")
    target_link_options(${target} PRIVATE -Wl,--exclude-libs,ALL -Wl,--no-undefined)
endfunction()

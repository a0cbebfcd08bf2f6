# The two .deb a user installs with `apt install ./vbas-qgis_VERSION~debN_ARCH.deb ./vbas-qgis-cli_...deb`,
# made from what `cmake --install` lays out (prefix /usr) by `cmake --build build --target package`
# (scripts/package.sh), one per install component:
#   vbas-qgis-cli  the engine (libvbasprovider.so, its one copy) and vbas_process: no desktop, no Python;
#   vbas-qgis      the QGIS plugin for desktop and qgis_process (and qgis_process's hint), over the first.
# One set per Debian release, built on that release against its QGIS: the version carries the release
# (~deb12: QGIS 3.22, ~deb13: QGIS 3.40), and dpkg-shlibdeps writes the Depends on the exact QGIS, Qt, GEOS
# and GDAL libraries the binaries link, so apt refuses them on another QGIS.

# The release we build on, from /etc/os-release: "deb12" on Debian 12, "<ID><VERSION_ID>" elsewhere.
set(_vbas_os_id "")
set(_vbas_os_version "")
if(EXISTS /etc/os-release)
    file(STRINGS /etc/os-release _vbas_os_release)
    foreach(_line IN LISTS _vbas_os_release)
        if(_line MATCHES "^ID=\"?([^\"]*)\"?$")
            set(_vbas_os_id "${CMAKE_MATCH_1}")
        elseif(_line MATCHES "^VERSION_ID=\"?([^\"]*)\"?$")
            set(_vbas_os_version "${CMAKE_MATCH_1}")
        endif()
    endforeach()
endif()
if(_vbas_os_id STREQUAL "debian")
    set(VBAS_DISTRIBUTION_TAG "deb${_vbas_os_version}")
else()
    set(VBAS_DISTRIBUTION_TAG "${_vbas_os_id}${_vbas_os_version}")
endif()

find_program(VBAS_DPKG dpkg)
if(VBAS_DPKG)
    execute_process(COMMAND ${VBAS_DPKG} --print-architecture OUTPUT_VARIABLE _vbas_deb_arch
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
else()
    set(_vbas_deb_arch amd64)
endif()

vbas_metadata_value(name _vbas_plugin_name)
vbas_metadata_value(description _vbas_description)
vbas_metadata_value(about _vbas_about)
vbas_metadata_value(author _vbas_author)
vbas_metadata_value(email _vbas_email)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME vbas-qgis)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${_vbas_author} <${_vbas_email}>")
# A package's description: the one-line `summary`, then `first` (the component's own sentences) and the
# description from metadata.txt, in lines of at most 79 characters as Debian wants them.
function(vbas_debian_description summary first out_var)
    string(REGEX REPLACE "[ \n]+" ";" _words "${first} ${_vbas_description} ${_vbas_about}")
    set(_line "")
    set(_text "")
    foreach(_word IN LISTS _words)
        string(LENGTH "${_line} ${_word}" _length)
        if(_line AND _length GREATER 78)
            string(APPEND _text "${_line}\n")
            set(_line "${_word}")
        elseif(_line)
            set(_line "${_line} ${_word}")
        else()
            set(_line "${_word}")
        endif()
    endforeach()
    set(${out_var} "${summary}\n${_text}${_line}" PARENT_SCOPE)
endfunction()
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL engine plugin)
set(CPACK_DEBIAN_PACKAGE_VERSION "${PROJECT_VERSION}~${VBAS_DISTRIBUTION_TAG}")
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${_vbas_deb_arch})
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# vbas-qgis-cli: the engine and the command line. Its Depends are the libraries its binaries link
# (libqgis-core3.22.16, libqt5core5a, libgeos-c1v5..., from dpkg-shlibdeps; libvbasprovider.so is its own)
# and QGIS's data providers, which vbas_process loads to read delimited text, SpatiaLite and PostgreSQL;
# nothing of QGIS desktop.
set(CPACK_DEBIAN_ENGINE_PACKAGE_NAME vbas-qgis-cli)
set(CPACK_DEBIAN_ENGINE_FILE_NAME "vbas-qgis-cli_${CPACK_DEBIAN_PACKAGE_VERSION}_${_vbas_deb_arch}.deb")
set(CPACK_DEBIAN_ENGINE_PACKAGE_SHLIBDEPS ON)
# vbas_process links libvbasprovider.so, which is this package's own (in the build tree, in the plugin's folder).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${VBAS_PLUGIN_BUILD_DIR})
set(CPACK_DEBIAN_ENGINE_PACKAGE_DEPENDS "qgis-providers")
vbas_debian_description(
    "${_vbas_plugin_name}: the engine and its command line vbas_process"
    "The VBAS engine and vbas_process, the command line that runs its Processing algorithms with the syntax
    of qgis_process, with no desktop, no Python and no QGIS profile." CPACK_DEBIAN_ENGINE_DESCRIPTION)

# vbas-qgis: the QGIS plugin, one entry in the Plugin Manager for desktop QGIS and stock qgis_process. It
# holds no binary: the engine is vbas-qgis-cli's. QGIS desktop for the Plugin Manager and qgis_process, its
# Python bindings for the plugin.
set(CPACK_DEBIAN_PLUGIN_PACKAGE_NAME vbas-qgis)
set(CPACK_DEBIAN_PLUGIN_FILE_NAME "vbas-qgis_${CPACK_DEBIAN_PACKAGE_VERSION}_${_vbas_deb_arch}.deb")
set(CPACK_DEBIAN_PLUGIN_PACKAGE_DEPENDS
    "vbas-qgis-cli (= ${CPACK_DEBIAN_PACKAGE_VERSION}), qgis, python3-qgis")
set(CPACK_DEBIAN_PLUGIN_PACKAGE_ARCHITECTURE ${_vbas_deb_arch})
vbas_debian_description(
    "${_vbas_plugin_name}: the QGIS plugin (desktop and qgis_process)"
    "The QGIS plugin of VBAS for QGIS desktop (the Processing Toolbox and the Model Builder) and stock
    qgis_process, over the engine of vbas-qgis-cli." CPACK_DEBIAN_PLUGIN_DESCRIPTION)
# The package is built from the build tree, never from the sources.
set(CPACK_SOURCE_GENERATOR "")
include(CPack)

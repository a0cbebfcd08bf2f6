# The .deb a user installs with `apt install ./vbas-qgis_VERSION~debN_ARCH.deb`, made from what
# `cmake --install` lays out (prefix /usr) by `cmake --build build --target package` (scripts/package.sh).
# One package per Debian release, built on that release against its QGIS: the name carries the
# release (~deb12: QGIS 3.22, ~deb13: QGIS 3.40), and dpkg-shlibdeps writes the Depends on the exact
# QGIS, Qt, GEOS and GDAL libraries the binaries link, so apt refuses it on another QGIS.

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
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "QGIS Processing provider: ${_vbas_plugin_name}")
# The long description from metadata.txt, in lines of at most 79 characters as Debian wants them.
string(REPLACE " " ";" _vbas_words "${_vbas_description} ${_vbas_about}")
set(_vbas_line "")
set(CPACK_PACKAGE_DESCRIPTION "")
foreach(_word IN LISTS _vbas_words)
    string(LENGTH "${_vbas_line} ${_word}" _vbas_length)
    if(_vbas_line AND _vbas_length GREATER 78)
        string(APPEND CPACK_PACKAGE_DESCRIPTION "${_vbas_line}\n")
        set(_vbas_line "${_word}")
    elseif(_vbas_line)
        set(_vbas_line "${_vbas_line} ${_word}")
    else()
        set(_vbas_line "${_word}")
    endif()
endforeach()
string(APPEND CPACK_PACKAGE_DESCRIPTION "${_vbas_line}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_VERSION "${PROJECT_VERSION}~${VBAS_DISTRIBUTION_TAG}")
set(CPACK_DEBIAN_FILE_NAME "vbas-qgis_${CPACK_DEBIAN_PACKAGE_VERSION}_${_vbas_deb_arch}.deb")
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${_vbas_deb_arch})
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The libraries (libqgis-core3.22.16, libqt5core5a, libgeos-c1v5...) from the binaries themselves.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# What no binary links but the package needs: QGIS desktop for the plugin, its Python bindings for
# the qgis_process shim, its data providers for reading files and databases.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qgis, qgis-providers, python3-qgis")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# The package is built from the build tree, never from the sources.
set(CPACK_SOURCE_GENERATOR "")
include(CPack)

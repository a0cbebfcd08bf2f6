# Warnings are errors in our own code. Third-party headers (CGAL, QGIS, Qt) are included as
# SYSTEM so their warnings never fail our build.
function(vbas_strict_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                             -Wno-sign-conversion -Werror)
endfunction()

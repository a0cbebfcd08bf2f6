#include "LibraryVersions.h"

#include <CGAL/version_macros.h>
#include <geos_c.h>

namespace vbas
{

std::vector<std::pair<std::string, std::string>> libraryVersions()
{
    return {{"GEOS", GEOSversion()}, {"CGAL", CGAL_VERSION_STR}};
}

} // namespace vbas

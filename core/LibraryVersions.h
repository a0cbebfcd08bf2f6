#pragma once

#include <string>
#include <utility>
#include <vector>

namespace vbas
{

/**
 * Returns the libraries the engine computes with and their versions, for what a release records to be
 * reproduced: GEOS as loaded, CGAL as compiled in (header-only).
 */
std::vector<std::pair<std::string, std::string>> libraryVersions();

} // namespace vbas

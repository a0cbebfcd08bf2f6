#pragma once

#include "Feedback.h"
#include "RegionGeometries.h"

#include <vector>

namespace vbas
{

/**
 * The Voronoi cell of every site clipped to the study area (the union of the regions), as WKB;
 * empty for sites whose cell misses the area or that share a lower site's location. Cells lying
 * wholly inside the area are kept without computing an intersection (GEOMETRY-NOTES section c).
 */
std::vector<std::vector<unsigned char>> clippedVoronoiCells(const RegionGeometries& regions,
                                                            const std::vector<Point>& sites,
                                                            const std::vector<double>& weights,
                                                            Feedback& feedback);

} // namespace vbas

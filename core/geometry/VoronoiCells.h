#pragma once

#include "base/Types.h"

#include <vector>

namespace vbas
{

/**
 * The Voronoi cell of every site, or with `weights` (one per site) its power cell (SPEC section 11:
 * the dual of the regular triangulation; a hidden site's cell is empty), as a closed counter-clockwise ring,
 * bounded by a frame far around the sites (GEOMETRY-NOTES section c: circumcentres of the site's incident
 * Delaunay faces, four far frame points so hull cells close). A site that shares its location with a lower
 * index gets an empty ring. For display only: cells cut across small areas, so they do not match the released
 * counts.
 */
std::vector<std::vector<Point>> voronoiCells(const std::vector<Point>& sites,
                                             const std::vector<double>& weights = {});

} // namespace vbas

#pragma once

#include "base/Types.h"

#include <vector>

namespace vbas
{

/**
 * The indices of `points` along a space-filling curve (CGAL's Hilbert sort): consecutive queries in
 * this order are near each other, so each can start its location where the last one ended.
 */
std::vector<std::size_t> spatialOrder(const std::vector<Point>& points);

} // namespace vbas

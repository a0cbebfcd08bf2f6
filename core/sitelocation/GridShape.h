#pragma once

#include <cstddef>

namespace vbas
{

/** Rows and columns of a grid of about `cells` cells over a box, cells close to square. */
struct GridShape
{
    std::size_t rows;
    std::size_t columns;
};

/**
 * The thesis's row rule (L568-689, equations 14-16), with the long side along x:
 * rows = max(1, floor(sqrt(cells / phi))), columns = max(1, floor(cells / rows)), phi = width /
 * height >= 1. A zero height gives one row.
 */
GridShape gridShape(std::size_t cells, double width, double height);

} // namespace vbas

#include "NaiveDensitySites.h"

#include "GridShape.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace vbas
{
namespace
{

/** Index of the band of width `size` holding `offset`, clamped to [0, bands). */
std::size_t band(double offset, double size, std::size_t bands)
{
    if (!(size > 0.0))
        return 0;
    const double index = std::floor(offset / size);
    return index <= 0.0 ? 0 : std::min(bands - 1, static_cast<std::size_t>(index));
}

/** Centres of a sub-grid of exactly `n` cells in the rectangle [u0, u0+w] x [v0, v0+h] (u long). */
void subGridCentres(std::size_t n, double u0, double v0, double w, double h, std::vector<Point>& out)
{
    const bool swapped = h > w;
    const double longSide = swapped ? h : w;
    const double shortSide = swapped ? w : h;
    const GridShape shape = gridShape(n, longSide, shortSide);
    const std::size_t extra = n - shape.rows * shape.columns; // n mod rows: fewer than rows
    for (std::size_t row = 0; row < shape.rows; ++row)
    {
        const std::size_t columns = shape.columns + (row < extra ? 1 : 0);
        const double across = (double(row) + 0.5) * shortSide / double(shape.rows);
        for (std::size_t column = 0; column < columns; ++column)
        {
            const double along = (double(column) + 0.5) * longSide / double(columns);
            out.push_back(swapped ? Point{u0 + across, v0 + along} : Point{u0 + along, v0 + across});
        }
    }
}

} // namespace

std::unique_ptr<SiteLocator> NaiveDensitySites::create(const StrategyOptions&)
{
    return std::make_unique<NaiveDensitySites>();
}

std::vector<Point> NaiveDensitySites::locate(const RegionSet& regions, std::size_t count, Feedback&) const
{
    std::vector<Point> sites;
    if (count == 0 || regions.size() == 0)
        return sites;
    const BoundingBox box = boundingBox(regions.points());
    // Work with the long side along u: swap axes when the box is taller than wide.
    const bool swapped = box.height() > box.width();
    const double width = swapped ? box.height() : box.width();
    const double height = swapped ? box.width() : box.height();
    const GridShape grid = gridShape(count, width, height);
    const double cellWidth = width / double(grid.columns);
    const double cellHeight = height / double(grid.rows);
    const std::size_t cells = grid.rows * grid.columns;

    std::vector<std::uint64_t> pointsInCell(cells, 0);
    for (const Point& p : regions.points())
    {
        const double u = swapped ? p.y - box.minY : p.x - box.minX;
        const double v = swapped ? p.x - box.minX : p.y - box.minY;
        ++pointsInCell[band(v, cellHeight, grid.rows) * grid.columns + band(u, cellWidth, grid.columns)];
    }

    // d_i = p_i / p' with p' = P / cells, so d_i = p_i * cells / P: exact integer floor and remainder.
    const std::uint64_t totalPoints = regions.size();
    std::vector<std::uint64_t> sitesInCell(cells, 0);
    std::vector<std::uint64_t> remainder(cells, 0);
    std::uint64_t placed = 0;
    for (std::size_t cell = 0; cell < cells; ++cell)
    {
        const std::uint64_t scaled = pointsInCell[cell] * cells;
        sitesInCell[cell] = scaled / totalPoints;
        remainder[cell] = scaled % totalPoints;
        placed += sitesInCell[cell];
    }
    std::vector<std::size_t> order;
    for (std::size_t cell = 0; cell < cells; ++cell)
        if (pointsInCell[cell] > 0)
            order.push_back(cell);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
    for (std::size_t i = 0; placed < count; i = (i + 1) % order.size(), ++placed)
        ++sitesInCell[order[i]];

    for (std::size_t cell = 0; cell < cells; ++cell)
    {
        if (sitesInCell[cell] == 0)
            continue;
        const double u0 = double(cell % grid.columns) * cellWidth;
        const double v0 = double(cell / grid.columns) * cellHeight;
        std::vector<Point> local;
        subGridCentres(sitesInCell[cell], u0, v0, cellWidth, cellHeight, local);
        for (const Point& q : local)
            sites.push_back(swapped ? Point{box.minX + q.y, box.minY + q.x}
                                    : Point{box.minX + q.x, box.minY + q.y});
    }
    return sites;
}

} // namespace vbas

#include "PointGrid.h"

#include <algorithm>
#include <cmath>

namespace vbas
{

PointGrid::PointGrid(const std::vector<Point>& points)
{
    if (points.empty())
        return;
    mLow = mHigh = points.front();
    for (const Point& p : points)
    {
        mLow = {std::min(mLow.x, p.x), std::min(mLow.y, p.y)};
        mHigh = {std::max(mHigh.x, p.x), std::max(mHigh.y, p.y)};
    }
    const double width = mHigh.x - mLow.x, height = mHigh.y - mLow.y;
    const double cells = std::max(1.0, double(points.size()) / 2.0);
    // Square cells over the bounding box; a flat box gets one row or column.
    const double side =
        width > 0.0 && height > 0.0 ? std::sqrt(width * height / cells) : std::max(width, height) / cells;
    mColumns = side > 0.0 ? std::size_t(std::min(cells, std::floor(width / side))) + 1 : 1;
    mRows = side > 0.0 ? std::size_t(std::min(cells, std::floor(height / side))) + 1 : 1;
    mCellWidth = width / double(mColumns);
    mCellHeight = height / double(mRows);
    // Counting sort of the points by cell, row-major: a row's cells are contiguous.
    std::vector<std::uint32_t> cellOf(points.size());
    mCellStart.assign(mColumns * mRows + 1, 0);
    for (std::size_t i = 0; i < points.size(); ++i)
    {
        cellOf[i] = std::uint32_t(row(points[i].y) * mColumns + column(points[i].x));
        ++mCellStart[cellOf[i] + 1];
    }
    for (std::size_t c = 1; c < mCellStart.size(); ++c)
        mCellStart[c] += mCellStart[c - 1];
    mOrder.resize(points.size());
    std::vector<std::uint32_t> next(mCellStart.begin(), mCellStart.end() - 1);
    for (std::size_t i = 0; i < points.size(); ++i)
        mOrder[next[cellOf[i]]++] = std::uint32_t(i);
}

std::size_t PointGrid::column(double x) const
{
    const double at = (x - mLow.x) / mCellWidth;
    if (!(at > 0.0)) // before the first column, or a flat grid
        return 0;
    return at >= double(mColumns - 1) ? mColumns - 1 : std::size_t(at);
}

std::size_t PointGrid::row(double y) const
{
    const double at = (y - mLow.y) / mCellHeight;
    if (!(at > 0.0))
        return 0;
    return at >= double(mRows - 1) ? mRows - 1 : std::size_t(at);
}

} // namespace vbas

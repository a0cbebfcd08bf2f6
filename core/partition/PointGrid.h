#pragma once

#include "base/Types.h"

#include <cstdint>
#include <vector>

namespace vbas
{

/**
 * Fixed points bucketed in a uniform grid of about two points per cell, so that the points in a box are
 * found without visiting the others.
 */
class PointGrid
{
public:
    explicit PointGrid(const std::vector<Point>& points);

    /** The box of the points. */
    const Point& low() const { return mLow; }
    const Point& high() const { return mHigh; }

    /** Calls `visit(index)` for every point in the box [low, high] (and some just outside it). */
    template <typename Visit> void forEachIn(const Point& low, const Point& high, Visit visit) const
    {
        if (mColumns == 0 || high.x < mLow.x || high.y < mLow.y || low.x > mHigh.x || low.y > mHigh.y)
            return;
        const std::size_t c0 = column(low.x), c1 = column(high.x);
        const std::size_t r0 = row(low.y), r1 = row(high.y);
        for (std::size_t r = r0; r <= r1; ++r)
            for (std::uint32_t i = mCellStart[r * mColumns + c0]; i < mCellStart[r * mColumns + c1 + 1]; ++i)
                visit(mOrder[i]);
    }

private:
    std::size_t column(double x) const;
    std::size_t row(double y) const;

    Point mLow, mHigh;
    double mCellWidth = 0.0, mCellHeight = 0.0;
    std::size_t mColumns = 0, mRows = 0;
    /** Per cell, row by row: where its points start in mOrder (one more entry: the end). */
    std::vector<std::uint32_t> mCellStart;
    std::vector<std::uint32_t> mOrder;
};

} // namespace vbas

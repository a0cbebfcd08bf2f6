#pragma once

#include "base/Feedback.h"
#include "base/Types.h"
#include "data/RegionSet.h"

#include <vector>

namespace vbas
{

/**
 * Chooses where Voronoi sites go (thesis section 3.2.2, SPEC section 4).
 *
 * Contract, checked for every registered locator by one parameterised test:
 *  - returns at most `count` sites, fewer only when the regions cannot support more (said in
 *    feedback); every site lies within the bounding box of the region points;
 *  - deterministic for the same input and StrategyOptions::seed;
 *  - polls feedback.checkCanceled() in long loops.
 */
class SiteLocator
{
public:
    virtual ~SiteLocator() = default;
    virtual std::vector<Point> locate(const RegionSet& regions, std::size_t count,
                                      Feedback& feedback) const = 0;
};

/** Axis-aligned bounding box of points. */
struct BoundingBox
{
    double minX;
    double minY;
    double maxX;
    double maxY;
    double width() const { return maxX - minX; }
    double height() const { return maxY - minY; }
};

/** Bounding box of a non-empty point set. */
BoundingBox boundingBox(const std::vector<Point>& points);

} // namespace vbas

#include "SiteLocator.h"

#include <algorithm>

namespace vbas
{

BoundingBox boundingBox(const std::vector<Point>& points)
{
    BoundingBox box{points.at(0).x, points.at(0).y, points.at(0).x, points.at(0).y};
    for (const Point& p : points)
    {
        box.minX = std::min(box.minX, p.x);
        box.minY = std::min(box.minY, p.y);
        box.maxX = std::max(box.maxX, p.x);
        box.maxY = std::max(box.maxY, p.y);
    }
    return box;
}

} // namespace vbas

#pragma once

#include "SiteTriangulation.h"
#include "SpatialContext.h"

#include <vector>

namespace vbas
{

/**
 * Nearest region point to a query that the query can reach in a straight line (no barrier in
 * between); the nearest of all when every one is blocked. Sites attach to the graph through it.
 */
class VisiblePointFinder
{
public:
    VisiblePointFinder(const std::vector<Point>& points, const Obstacles* obstacles);
    RegionIndex find(const Point& query) const;

private:
    const std::vector<Point>& mPoints;
    const Obstacles* mObstacles;
    SiteTriangulation mTriangulation;
};

/** Throws Error(SiteLocation) unless every site has a location of its own (incremental partitions). */
void requireDistinctSites(const std::vector<Point>& sites);

/** Connected component of every node, numbered from 0 in node order. */
std::vector<std::uint32_t>
connectedComponents(std::size_t nodes, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges);

/** Moves `region` from site `from` to site `to` in per-site member lists (swap-remove). */
void moveMember(std::vector<std::vector<RegionIndex>>& members, std::vector<std::uint32_t>& position,
                RegionIndex region, SiteIndex from, SiteIndex to);

} // namespace vbas

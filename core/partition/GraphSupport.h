#pragma once

#include "IncrementalPartition.h"
#include "SiteTriangulation.h"
#include "SpatialContext.h"

#include <functional>
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

/** Connected component of every node, numbered from 0 in node order. */
std::vector<std::uint32_t>
connectedComponents(std::size_t nodes, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges);

/** Per-site member lists of an assignment, with each region's position in its list (for moveMember()). */
void buildMembers(const std::vector<SiteIndex>& regionSite, std::size_t sites,
                  std::vector<std::vector<RegionIndex>>& members, std::vector<std::uint32_t>& position);

/** Moves `region` from site `from` to site `to` in per-site member lists (swap-remove). */
void moveMember(std::vector<std::vector<RegionIndex>>& members, std::vector<std::uint32_t>& position,
                RegionIndex region, SiteIndex from, SiteIndex to);

/**
 * Base of incremental partitions whose assignment is a function of the site positions (barrier,
 * geodesic): it keeps the per-site member lists, re-evaluates the regions a move may have changed,
 * and undoes a move (or a weight change) by changing the site back and restoring the assignment
 * before the change exactly.
 */
class PositionalPartition : public IncrementalPartition
{
public:
    const std::vector<SiteIndex>& regionSite() const override { return mRegionSite; }
    const std::vector<RegionIndex>& members(SiteIndex s) const override { return mMembers[s]; }
    void undo(SiteIndex s, const Point& previous, const std::vector<Change>& changes) override;
    void undoReweigh(SiteIndex s, double previous, const std::vector<Change>& changes) override;

protected:
    /** Assigns every region once, through siteOf(). */
    void assignAll(std::size_t regions, std::size_t sites,
                   const std::function<SiteIndex(RegionIndex)>& siteOf);
    /** Re-evaluates `regions` (duplicates allowed) and appends those whose site changed to `changes`. */
    void reassign(std::vector<RegionIndex> regions, const std::function<SiteIndex(RegionIndex)>& siteOf,
                  std::vector<Change>& changes);

    std::vector<SiteIndex> mRegionSite;
    std::vector<std::vector<RegionIndex>> mMembers;
    std::vector<std::uint32_t> mPosition;

private:
    /** Puts back the assignment before `changes`, after the change back reported `back`. */
    void restore(const std::vector<Change>& back, const std::vector<Change>& changes);
};

} // namespace vbas

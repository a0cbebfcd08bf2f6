#pragma once

#include "IncrementalPartition.h"
#include "SiteTriangulation.h"

#include <vector>

namespace vbas
{

class Feedback;

/**
 * The Voronoi partition under single site moves (GEOMETRY-NOTES "Incremental move"): when site s
 * moves, only regions owned by s or by its new Delaunay neighbours can change site, and their new
 * site is s or one of its old or new neighbours; those are re-assigned exactly among that set.
 */
class VoronoiIncremental : public IncrementalPartition
{
public:
    /** Sites sharing a location are allowed, but then no site can move (move() throws). */
    VoronoiIncremental(const std::vector<Point>& regionPoints, std::vector<Point> sites, Feedback& feedback);

    const std::vector<Point>& sites() const override { return mSites; }
    const std::vector<SiteIndex>& regionSite() const override { return mRegionSite; }
    const std::vector<RegionIndex>& members(SiteIndex s) const override { return mMembers[s]; }
    bool move(SiteIndex s, const Point& p, std::vector<Change>& changes) override;
    void undo(SiteIndex s, const Point& previous, const std::vector<Change>& changes) override;
    void neighbours(SiteIndex s, std::vector<SiteIndex>& out) const override;
    bool inNeighbourhood(SiteIndex s, const Point& p, SiteIndex owner) const override;

private:
    void reassign(RegionIndex region, SiteIndex to);

    const std::vector<Point>& mPoints;
    std::vector<Point> mSites;
    SiteTriangulation mTriangulation;
    std::vector<SiteIndex> mRegionSite;
    std::vector<std::vector<RegionIndex>> mMembers;
    std::vector<std::uint32_t> mPositionInMembers;
    std::vector<SiteIndex> mCandidates; // scratch
};

} // namespace vbas

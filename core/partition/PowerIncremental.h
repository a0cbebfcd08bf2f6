#pragma once

#include "IncrementalPartition.h"
#include "PointGrid.h"
#include "PowerTriangulation.h"

#include <unordered_set>

#include <vector>

namespace vbas
{

class Feedback;

/**
 * The power partition (SPEC section 11) under single changes of a site's location or weight.
 * Only the power distance to the changed site s changes, so a region of another site either
 * stays or goes to s, which it can only do inside the new power cell of s: the regions in a box around
 * that cell are compared against their cached distance to their site (every region when s lies on the
 * hull or is hidden; the regions of sites that a heavier s hides lie in its cell too), and a region of s goes
 * to the nearest of all sites (a walk in the updated regular triangulation, which also finds sites a lighter
 * s uncovers). Comparisons run in doubles with a bound on their rounding; only near ties go to the exact
 * predicate.
 */
class PowerIncremental : public IncrementalPartition
{
public:
    /** Sites must have distinct locations; `weights` one per site. */
    PowerIncremental(const std::vector<Point>& regionPoints, std::vector<Point> sites,
                     std::vector<double> weights, Feedback& feedback);

    const std::vector<Point>& sites() const override { return mSites; }
    const std::vector<double>& weights() const override { return mWeights; }
    const std::vector<SiteIndex>& regionSite() const override { return mRegionSite; }
    const std::vector<RegionIndex>& members(SiteIndex s) const override { return mMembers[s]; }
    bool move(SiteIndex s, const Point& p, std::vector<Change>& changes) override;
    void undo(SiteIndex s, const Point& previous, const std::vector<Change>& changes) override;
    bool reweigh(SiteIndex s, double weight, std::vector<Change>& changes) override;
    void undoReweigh(SiteIndex s, double previous, const std::vector<Change>& changes) override;
    /** The power neighbours of s (none while s is hidden). */
    void neighbours(SiteIndex s, std::vector<SiteIndex>& out) const override;
    bool inNeighbourhood(SiteIndex s, const Point& p, SiteIndex owner) const override;

private:
    /** A power distance in doubles with a bound on its rounding error. */
    struct Power
    {
        double value;
        double error;
    };
    Power power(RegionIndex r, SiteIndex s) const;
    /** Re-assigns the regions after site s changed, appending the changes. */
    void follow(SiteIndex s, std::vector<Change>& changes);
    void revert(const std::vector<Change>& changes);
    void reassign(RegionIndex region, SiteIndex to);
    /** Recomputes the cached power distance of the regions of s after s changed. */
    void refreshOwnerPowers(SiteIndex s);

    const std::vector<Point>& mPoints;
    std::vector<Point> mSites;
    std::vector<double> mWeights;
    PowerTriangulation mTriangulation;
    /** The region points by place: those that may come to a changed site are the ones near its cell. */
    PointGrid mGrid;
    /** Where the sites are, to refuse a move onto another site. */
    std::unordered_set<Point, PointHash> mSiteLocations;
    std::vector<SiteIndex> mRegionSite;
    std::vector<std::vector<RegionIndex>> mMembers;
    std::vector<std::uint32_t> mPositionInMembers;
    /** Per region: its power distance to its site, so a change compares one new distance per region. */
    std::vector<Power> mOwnerPower;
};

} // namespace vbas

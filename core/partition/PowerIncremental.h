#pragma once

#include "IncrementalPartition.h"
#include "PointGrid.h"
#include "PowerTriangulation.h"

#include <optional>
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
 *
 * Most changes are tried and undone, so a change leaves the triangulation as it was when the sites that
 * would take the cell of s if s were removed are its neighbours alone (PowerTriangulation::heirs()) and no
 * region of s is as near to one of them: its regions then go to s or to the nearest of those, and the box of
 * its new cell is cut from the bisectors of the sites around its old and new places. The triangulation
 * takes such a change when anything reads it next (settle()), or never when it is undone first.
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
    /** Gives site s location p and weight w and re-assigns the regions, appending the changes. */
    void change(SiteIndex s, const Point& p, double w, std::vector<Change>& changes);
    /** Gives site s back location p and weight w, which it had before `changes`. */
    void restore(SiteIndex s, const Point& p, double w, const std::vector<Change>& changes);
    /** Re-assigns the regions after site s changed, from the updated triangulation. */
    void follow(SiteIndex s, std::vector<Change>& changes);
    /**
     * Re-assigns the regions after site s changed from `before` (`beforeWeight`) without the triangulation,
     * which still holds s there; false, changing nothing, when only the updated triangulation can tell.
     */
    bool followLocally(SiteIndex s, const Point& before, double beforeWeight, std::vector<Change>& changes);
    /** A box holding the power cell of site s, cut from the bisectors of the sites in mNearby; false if none.
     */
    bool bisectorBox(SiteIndex s, Point& low, Point& high);
    /**
     * Appends the regions of other sites that site s takes, in region order: those in [low, high], or every
     * region without a box; then re-assigns the changes from `first` on.
     */
    void gainAndReassign(SiteIndex s, const Point* low, const Point* high, std::size_t first,
                         std::vector<Change>& changes);
    /** Brings the triangulation up to a change followed locally. */
    void settle() const;
    void revert(const std::vector<Change>& changes);
    void reassign(RegionIndex region, SiteIndex to);
    /** Recomputes the cached power distance of the regions of s after s changed. */
    void refreshOwnerPowers(SiteIndex s);

    const std::vector<Point>& mPoints;
    std::vector<Point> mSites;
    std::vector<double> mWeights;
    /** Holds every site as in mSites and mWeights but mUnsettled, which it holds as before its change. */
    mutable PowerTriangulation mTriangulation;
    mutable std::optional<SiteIndex> mUnsettled;
    /** The region points by place: those that may come to a changed site are the ones near its cell. */
    PointGrid mGrid;
    /** Where the sites are, to refuse a move onto another site. */
    std::unordered_set<Point, PointHash> mSiteLocations;
    std::vector<SiteIndex> mRegionSite;
    std::vector<std::vector<RegionIndex>> mMembers;
    std::vector<std::uint32_t> mPositionInMembers;
    /** Per region: its power distance to its site, so a change compares one new distance per region. */
    std::vector<Power> mOwnerPower;
    /** Scratch of followLocally(): the sites around s, and the cell being cut. */
    std::vector<SiteIndex> mNearby;
    std::vector<Point> mCell, mCut;
};

} // namespace vbas

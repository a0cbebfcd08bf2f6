#include "PowerIncremental.h"

#include "GraphSupport.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vbas
{

PowerIncremental::PowerIncremental(const std::vector<Point>& regionPoints, std::vector<Point> sites,
                                   std::vector<double> weights, Feedback& feedback)
    : mPoints(regionPoints)
    , mSites(std::move(sites))
    , mWeights(std::move(weights))
    , mTriangulation(mSites, mWeights)
    , mGrid(regionPoints)
    , mSiteLocations(mSites.begin(), mSites.end())
{
    mRegionSite = mTriangulation.nearestSites(mPoints, feedback);
    buildMembers(mRegionSite, mSites.size(), mMembers, mPositionInMembers);
    mOwnerPower.reserve(mPoints.size());
    for (RegionIndex r = 0; r < mPoints.size(); ++r)
        mOwnerPower.push_back(power(r, mRegionSite[r]));
}

void PowerIncremental::reassign(RegionIndex region, SiteIndex to)
{
    moveMember(mMembers, mPositionInMembers, region, mRegionSite[region], to);
    mRegionSite[region] = to;
    mOwnerPower[region] = power(region, to);
}

void PowerIncremental::refreshOwnerPowers(SiteIndex s)
{
    for (RegionIndex r : mMembers[s])
        mOwnerPower[r] = power(r, s);
}

PowerIncremental::Power PowerIncremental::power(RegionIndex r, SiteIndex s) const
{
    const double dx = mPoints[r].x - mSites[s].x, dy = mPoints[r].y - mSites[s].y;
    const double squared = dx * dx + dy * dy;
    // A bound on the rounding of the three operations: values further apart than their bounds
    // compare the same exactly, so only near ties need the exact predicate.
    return {squared - mWeights[s],
            8.0 * std::numeric_limits<double>::epsilon() * (squared + std::abs(mWeights[s]))};
}

void PowerIncremental::follow(SiteIndex s, std::vector<Change>& changes)
{
    const std::size_t first = changes.size();
    for (RegionIndex r : mMembers[s])
    {
        const SiteIndex best = mTriangulation.nearestSite(mPoints[r], s);
        if (best != s)
            changes.push_back({r, s, best});
    }
    refreshOwnerPowers(s);
    // Regions of other sites can only come to s inside its new power cell: those in a box around the cell,
    // else (no box known: s on the hull or hidden) every region, each against its cached owner distance.
    const Point site = mSites[s];
    const double weight = mWeights[s], errorScale = 8.0 * std::numeric_limits<double>::epsilon();
    const auto consider = [&](RegionIndex r)
    {
        const double dx = mPoints[r].x - site.x, dy = mPoints[r].y - site.y;
        const double squared = dx * dx + dy * dy;
        const Power& toOwner = mOwnerPower[r];
        if (squared - weight - errorScale * (squared + std::abs(weight)) > toOwner.value + toOwner.error)
            return; // certainly stays
        const SiteIndex owner = mRegionSite[r];
        if (owner == s)
            return;
        const int order = comparePower(mPoints[r], mSites[s], mWeights[s], mSites[owner], mWeights[owner]);
        if (order < 0 || (order == 0 && s < owner))
            changes.push_back({r, owner, s});
    };
    Point low, high;
    if (mTriangulation.cellBox(s, low, high))
    {
        const std::size_t gainedFrom = changes.size();
        mGrid.forEachIn(low, high, consider);
        // In region order, as the scan of every region gives them.
        std::sort(changes.begin() + std::ptrdiff_t(gainedFrom), changes.end(),
                  [](const Change& a, const Change& b) { return a.region < b.region; });
    }
    else
        for (RegionIndex r = 0; r < mPoints.size(); ++r)
            consider(r);
    for (std::size_t i = first; i < changes.size(); ++i)
        reassign(changes[i].region, changes[i].to);
}

void PowerIncremental::revert(const std::vector<Change>& changes)
{
    for (auto change = changes.rbegin(); change != changes.rend(); ++change)
        reassign(change->region, change->from);
}

bool PowerIncremental::move(SiteIndex s, const Point& p, std::vector<Change>& changes)
{
    if (mSiteLocations.count(p) > 0)
        return false;
    mSiteLocations.erase(mSites[s]);
    mSiteLocations.insert(p);
    mSites[s] = p;
    mTriangulation.update(s, p, mWeights[s]);
    follow(s, changes);
    return true;
}

void PowerIncremental::undo(SiteIndex s, const Point& previous, const std::vector<Change>& changes)
{
    mSiteLocations.erase(mSites[s]);
    mSiteLocations.insert(previous);
    mSites[s] = previous;
    mTriangulation.update(s, previous, mWeights[s]);
    revert(changes);
    refreshOwnerPowers(s);
}

bool PowerIncremental::reweigh(SiteIndex s, double weight, std::vector<Change>& changes)
{
    mWeights[s] = weight;
    mTriangulation.update(s, mSites[s], weight);
    follow(s, changes);
    return true;
}

void PowerIncremental::undoReweigh(SiteIndex s, double previous, const std::vector<Change>& changes)
{
    mWeights[s] = previous;
    mTriangulation.update(s, mSites[s], previous);
    revert(changes);
    refreshOwnerPowers(s);
}

void PowerIncremental::neighbours(SiteIndex s, std::vector<SiteIndex>& out) const
{
    mTriangulation.neighbours(s, out);
}

bool PowerIncremental::inNeighbourhood(SiteIndex s, const Point& p, SiteIndex owner) const
{
    return owner == s || mTriangulation.inStar(s, p);
}

} // namespace vbas

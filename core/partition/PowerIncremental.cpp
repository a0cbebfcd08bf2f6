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
    Point low, high;
    if (mTriangulation.cellBox(s, low, high))
        gainAndReassign(s, &low, &high, first, changes);
    else
        gainAndReassign(s, nullptr, nullptr, first, changes);
}

bool PowerIncremental::followLocally(SiteIndex s, const Point& before, double beforeWeight,
                                     std::vector<Change>& changes)
{
    mNearby.clear();
    if (!mTriangulation.heirs(s, mNearby))
        return false;
    const std::size_t heirs = mNearby.size();
    // The new cell lies near the new place: the sites around the one nearest to it bound it there.
    if (const SiteIndex near = mTriangulation.nearestSite(mSites[s], s); near != s)
    {
        mNearby.push_back(near);
        mTriangulation.neighbours(near, mNearby);
        // Each site once, s not at all: the box is cut once per bisector.
        const auto known = mNearby.begin() + std::ptrdiff_t(heirs);
        mNearby.erase(std::remove_if(known, mNearby.end(),
                                     [&](SiteIndex t)
                                     { return t == s || std::find(mNearby.begin(), known, t) != known; }),
                      mNearby.end());
    }
    Point low, high;
    if (!bisectorBox(s, low, high))
        return false;
    const std::size_t first = changes.size();
    const auto nearer = [&](RegionIndex r, SiteIndex a, const Power& toA, SiteIndex b, const Power& toB)
    {
        if (toA.value + toA.error < toB.value - toB.error)
            return -1;
        if (toA.value - toA.error > toB.value + toB.error)
            return 1;
        return comparePower(mPoints[r], mSites[a], mWeights[a], mSites[b], mWeights[b]);
    };
    for (RegionIndex r : mMembers[s])
    {
        // mOwnerPower[r] is still the distance to s before the change. A region as near to an heir as to s
        // then lies on the border of the cell of s, where other sites may be as near: the triangulation
        // decides.
        const Power& toBefore = mOwnerPower[r];
        SiteIndex best = s;
        Power toBest = power(r, s);
        for (std::size_t i = 0; i < heirs; ++i)
        {
            const SiteIndex t = mNearby[i];
            const Power toT = power(r, t);
            if (toT.value - toT.error <= toBefore.value + toBefore.error &&
                comparePower(mPoints[r], before, beforeWeight, mSites[t], mWeights[t]) >= 0)
            {
                changes.resize(first);
                return false;
            }
            const int order = nearer(r, t, toT, best, toBest);
            if (order < 0 || (order == 0 && t < best))
                best = t, toBest = toT;
        }
        if (best != s)
            changes.push_back({r, s, best});
    }
    refreshOwnerPowers(s);
    gainAndReassign(s, &low, &high, first, changes);
    return true;
}

bool PowerIncremental::bisectorBox(SiteIndex s, Point& low, Point& high)
{
    // In coordinates relative to s, whose cell is where ‖x‖² − ws <= ‖x − d‖² − wt for every other site t
    // at d: 2 x·d <= ‖d‖² − wt + ws, a half-plane each. Any of them bound the cell from outside; the regions'
    // box bounds it too.
    const Point p = mSites[s];
    const double ws = mWeights[s];
    mCell = {{mGrid.low().x - p.x - 1.0, mGrid.low().y - p.y - 1.0},
             {mGrid.high().x - p.x + 1.0, mGrid.low().y - p.y - 1.0},
             {mGrid.high().x - p.x + 1.0, mGrid.high().y - p.y + 1.0},
             {mGrid.low().x - p.x - 1.0, mGrid.high().y - p.y + 1.0}};
    double reach = 0.0;
    for (const SiteIndex t : mNearby)
    {
        const double dx = mSites[t].x - p.x, dy = mSites[t].y - p.y;
        const double ax = 2.0 * dx, ay = 2.0 * dy, bound = dx * dx + dy * dy - mWeights[t] + ws;
        reach = std::max({reach, std::abs(dx), std::abs(dy)});
        mCut.clear();
        for (std::size_t i = 0; i < mCell.size(); ++i)
        {
            const Point& a = mCell[i];
            const Point& b = mCell[(i + 1) % mCell.size()];
            const double fa = ax * a.x + ay * a.y - bound, fb = ax * b.x + ay * b.y - bound;
            if (fa <= 0.0)
                mCut.push_back(a);
            if ((fa < 0.0 && fb > 0.0) || (fa > 0.0 && fb < 0.0))
            {
                const double along = std::clamp(fa / (fa - fb), 0.0, 1.0);
                mCut.push_back({a.x + along * (b.x - a.x), a.y + along * (b.y - a.y)});
            }
        }
        mCell.swap(mCut);
        if (mCell.empty())
            return false; // an empty or hairline cell: the triangulation tells
    }
    const double inf = std::numeric_limits<double>::infinity();
    low = {inf, inf};
    high = {-inf, -inf};
    for (const Point& corner : mCell)
    {
        low = {std::min(low.x, corner.x), std::min(low.y, corner.y)};
        high = {std::max(high.x, corner.x), std::max(high.y, corner.y)};
    }
    // The corners are constructed in doubles: a margin far above their rounding, relative to the cell, to
    // the distances to the sites cutting it and to the coordinates.
    const double margin = 1e-6 * std::max({high.x - low.x, high.y - low.y, reach}) +
                          1e-9 * std::max(std::abs(p.x), std::abs(p.y)) + 1e-9;
    low = {p.x + low.x - margin, p.y + low.y - margin};
    high = {p.x + high.x + margin, p.y + high.y + margin};
    return true;
}

void PowerIncremental::gainAndReassign(SiteIndex s, const Point* low, const Point* high, std::size_t first,
                                       std::vector<Change>& changes)
{
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
    if (low != nullptr)
    {
        const std::size_t gainedFrom = changes.size();
        mGrid.forEachIn(*low, *high, consider);
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

void PowerIncremental::settle() const
{
    if (!mUnsettled)
        return;
    const SiteIndex s = *mUnsettled;
    mUnsettled.reset();
    mTriangulation.update(s, mSites[s], mWeights[s]);
}

void PowerIncremental::change(SiteIndex s, const Point& p, double w, std::vector<Change>& changes)
{
    settle();
    const Point before = mSites[s];
    const double beforeWeight = mWeights[s];
    mSites[s] = p;
    mWeights[s] = w;
    if (followLocally(s, before, beforeWeight, changes))
    {
        mUnsettled = s;
        return;
    }
    mTriangulation.update(s, p, w);
    follow(s, changes);
}

void PowerIncremental::restore(SiteIndex s, const Point& p, double w, const std::vector<Change>& changes)
{
    mSites[s] = p;
    mWeights[s] = w;
    if (mUnsettled == s)
        mUnsettled.reset(); // the triangulation still holds s as it was
    else
        mTriangulation.update(s, p, w);
    revert(changes);
    refreshOwnerPowers(s);
}

bool PowerIncremental::move(SiteIndex s, const Point& p, std::vector<Change>& changes)
{
    if (mSiteLocations.count(p) > 0)
        return false;
    mSiteLocations.erase(mSites[s]);
    mSiteLocations.insert(p);
    change(s, p, mWeights[s], changes);
    return true;
}

void PowerIncremental::undo(SiteIndex s, const Point& previous, const std::vector<Change>& changes)
{
    mSiteLocations.erase(mSites[s]);
    mSiteLocations.insert(previous);
    restore(s, previous, mWeights[s], changes);
}

bool PowerIncremental::reweigh(SiteIndex s, double weight, std::vector<Change>& changes)
{
    change(s, mSites[s], weight, changes);
    return true;
}

void PowerIncremental::undoReweigh(SiteIndex s, double previous, const std::vector<Change>& changes)
{
    restore(s, mSites[s], previous, changes);
}

void PowerIncremental::neighbours(SiteIndex s, std::vector<SiteIndex>& out) const
{
    settle();
    mTriangulation.neighbours(s, out);
}

bool PowerIncremental::inNeighbourhood(SiteIndex s, const Point& p, SiteIndex owner) const
{
    if (owner == s)
        return true;
    settle();
    return mTriangulation.inStar(s, p);
}

} // namespace vbas

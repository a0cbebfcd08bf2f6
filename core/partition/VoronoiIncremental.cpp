#include "VoronoiIncremental.h"

#include "GraphSupport.h"

#include <algorithm>

namespace vbas
{

VoronoiIncremental::VoronoiIncremental(const std::vector<Point>& regionPoints, std::vector<Point> sites,
                                       Feedback& feedback)
    : mPoints(regionPoints)
    , mSites(std::move(sites))
    , mTriangulation(mSites)
{
    mRegionSite = mTriangulation.nearestSites(mPoints, feedback);
    buildMembers(mRegionSite, mSites.size(), mMembers, mPositionInMembers);
}

void VoronoiIncremental::reassign(RegionIndex region, SiteIndex to)
{
    moveMember(mMembers, mPositionInMembers, region, mRegionSite[region], to);
    mRegionSite[region] = to;
}

bool VoronoiIncremental::move(SiteIndex s, const Point& p, std::vector<Change>& changes)
{
    mCandidates.assign(1, s);
    mTriangulation.neighbours(s, mCandidates);
    if (!mTriangulation.moveSite(s, p))
        return false;
    mSites[s] = p;
    mTriangulation.neighbours(s, mCandidates);
    std::sort(mCandidates.begin(), mCandidates.end());
    mCandidates.erase(std::unique(mCandidates.begin(), mCandidates.end()), mCandidates.end());

    // Regions of s may go to any neighbour, old or new (the second-nearest site of a point in a
    // cell is a Delaunay neighbour); regions of the others can only come to s, the one site that
    // moved, and only from a new neighbour of s.
    const std::size_t first = changes.size();
    const SiteIndex* all = mCandidates.data();
    for (SiteIndex owner : mCandidates)
    {
        const SiteIndex pair[2] = {std::min(owner, s), std::max(owner, s)};
        for (RegionIndex r : mMembers[owner])
        {
            const SiteIndex best =
                owner == s
                    ? SiteTriangulation::nearestAmong(mPoints[r], mSites, all, all + mCandidates.size())
                    : SiteTriangulation::nearestAmong(mPoints[r], mSites, pair, pair + 2);
            if (best != owner)
                changes.push_back({r, owner, best});
        }
    }
    for (std::size_t i = first; i < changes.size(); ++i)
        reassign(changes[i].region, changes[i].to);
    return true;
}

void VoronoiIncremental::undo(SiteIndex s, const Point& previous, const std::vector<Change>& changes)
{
    mTriangulation.moveSite(s, previous);
    mSites[s] = previous;
    for (auto change = changes.rbegin(); change != changes.rend(); ++change)
        reassign(change->region, change->from);
}

void VoronoiIncremental::neighbours(SiteIndex s, std::vector<SiteIndex>& out) const
{
    mTriangulation.neighbours(s, out);
}

bool VoronoiIncremental::inNeighbourhood(SiteIndex s, const Point& p, SiteIndex owner) const
{
    return owner == s || mTriangulation.inStar(s, p);
}

} // namespace vbas

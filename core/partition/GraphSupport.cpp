#include "GraphSupport.h"

#include <algorithm>
#include <numeric>

namespace vbas
{

VisiblePointFinder::VisiblePointFinder(const std::vector<Point>& points, const Obstacles* obstacles)
    : mPoints(points)
    , mObstacles(obstacles)
    , mTriangulation(points)
{
}

RegionIndex VisiblePointFinder::find(const Point& query) const
{
    const RegionIndex nearest = mTriangulation.nearestSite(query);
    if (mObstacles == nullptr || !mObstacles->blocks(query, mPoints[nearest]))
        return nearest;
    // Rare (a query right behind a barrier): widen the search, nearest first.
    std::vector<SiteIndex> candidates;
    for (std::size_t k = 16; candidates.size() < mPoints.size(); k *= 4)
    {
        candidates.clear();
        mTriangulation.nearestSites(query, std::min(k, mPoints.size()), candidates);
        for (SiteIndex r : candidates)
            if (!mObstacles->blocks(query, mPoints[r]))
                return r;
        if (candidates.size() < std::min(k, mPoints.size()))
            break;
    }
    return nearest;
}

std::vector<std::uint32_t>
connectedComponents(std::size_t nodes, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges)
{
    std::vector<std::uint32_t> parent(nodes);
    std::iota(parent.begin(), parent.end(), 0u);
    const auto root = [&](std::uint32_t x)
    {
        while (parent[x] != x)
            x = parent[x] = parent[parent[x]];
        return x;
    };
    for (const auto& [a, b] : edges)
        parent[std::max(root(a), root(b))] = std::min(root(a), root(b));
    std::vector<std::uint32_t> component(nodes);
    std::vector<std::uint32_t> number(nodes, std::uint32_t(-1));
    std::uint32_t next = 0;
    for (std::uint32_t n = 0; n < nodes; ++n)
    {
        const std::uint32_t r = root(n);
        if (number[r] == std::uint32_t(-1))
            number[r] = next++;
        component[n] = number[r];
    }
    return component;
}

void buildMembers(const std::vector<SiteIndex>& regionSite, std::size_t sites,
                  std::vector<std::vector<RegionIndex>>& members, std::vector<std::uint32_t>& position)
{
    members.assign(sites, {});
    position.resize(regionSite.size());
    for (RegionIndex r = 0; r < regionSite.size(); ++r)
    {
        position[r] = std::uint32_t(members[regionSite[r]].size());
        members[regionSite[r]].push_back(r);
    }
}

void moveMember(std::vector<std::vector<RegionIndex>>& members, std::vector<std::uint32_t>& position,
                RegionIndex region, SiteIndex from, SiteIndex to)
{
    std::vector<RegionIndex>& list = members[from];
    const RegionIndex last = list.back();
    list[position[region]] = last;
    position[last] = position[region];
    list.pop_back();
    position[region] = std::uint32_t(members[to].size());
    members[to].push_back(region);
}

void PositionalPartition::undo(SiteIndex s, const Point& previous, const std::vector<Change>& changes)
{
    std::vector<Change> back;
    move(s, previous, back);
    restore(back, changes);
}

void PositionalPartition::undoReweigh(SiteIndex s, double previous, const std::vector<Change>& changes)
{
    std::vector<Change> back;
    reweigh(s, previous, back);
    restore(back, changes);
}

void PositionalPartition::restore(const std::vector<Change>& back, const std::vector<Change>& changes)
{
    // Changing the site back restores the distances, but where two sites are equally near a region
    // the re-evaluation may settle it otherwise than before the change. Callers keep books by the
    // changes (ledgers, the parent constraint's member lists): put back exactly the assignment before.
    for (auto it = back.rbegin(); it != back.rend(); ++it)
    {
        moveMember(mMembers, mPosition, it->region, it->to, it->from);
        mRegionSite[it->region] = it->from;
    }
    for (auto it = changes.rbegin(); it != changes.rend(); ++it)
    {
        moveMember(mMembers, mPosition, it->region, it->to, it->from);
        mRegionSite[it->region] = it->from;
    }
}

void PositionalPartition::assignAll(std::size_t regions, std::size_t sites,
                                    const std::function<SiteIndex(RegionIndex)>& siteOf)
{
    mRegionSite.resize(regions);
    for (RegionIndex r = 0; r < regions; ++r)
        mRegionSite[r] = siteOf(r);
    buildMembers(mRegionSite, sites, mMembers, mPosition);
}

void PositionalPartition::reassign(std::vector<RegionIndex> regions,
                                   const std::function<SiteIndex(RegionIndex)>& siteOf,
                                   std::vector<Change>& changes)
{
    std::sort(regions.begin(), regions.end());
    regions.erase(std::unique(regions.begin(), regions.end()), regions.end());
    for (RegionIndex r : regions)
    {
        const SiteIndex now = siteOf(r);
        if (now != mRegionSite[r])
        {
            changes.push_back({r, mRegionSite[r], now});
            moveMember(mMembers, mPosition, r, mRegionSite[r], now);
            mRegionSite[r] = now;
        }
    }
}

} // namespace vbas

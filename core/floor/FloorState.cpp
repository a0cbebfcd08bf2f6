#include "FloorState.h"

#include <algorithm>
#include <limits>

namespace vbas
{

double FloorGraph::fill(double people, double count) const
{
    double share = std::numeric_limits<double>::infinity();
    if (populationFloor > 0.0)
        share = std::min(share, people / populationFloor);
    if (caseFloor > 0.0)
        share = std::min(share, count / caseFloor);
    return share;
}

FloorState::FloorState(const FloorGraph& graph, const std::vector<std::uint32_t>& regionOfArea)
    : mGraph(&graph)
    , mRegionOf(regionOfArea.size())
    , mPosition(regionOfArea.size())
    , mMark(regionOfArea.size(), 0)
{
    std::uint32_t regions = 0;
    for (const std::uint32_t region : regionOfArea)
        regions = std::max(regions, region + 1);
    mMembers.resize(regions);
    mPopulation.assign(regions, 0.0);
    mCases.assign(regions, 0.0);
    for (std::uint32_t a = 0; a < regionOfArea.size(); ++a)
        insert(a, regionOfArea[a]);
}

std::size_t FloorState::regionCount() const
{
    return std::size_t(std::count_if(mMembers.begin(), mMembers.end(),
                                     [](const std::vector<std::uint32_t>& members)
                                     { return !members.empty(); }));
}

std::vector<std::uint32_t> FloorState::neighbours(std::uint32_t region) const
{
    std::vector<std::uint32_t> found;
    for (const std::uint32_t a : mMembers[region])
        for (std::size_t i = mGraph->offsets[a]; i < mGraph->offsets[a + 1]; ++i)
            if (const std::uint32_t other = mRegionOf[mGraph->neighbours[i]]; other != region)
                found.push_back(other);
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    return found;
}

void FloorState::remove(std::uint32_t area)
{
    std::vector<std::uint32_t>& members = mMembers[mRegionOf[area]];
    const std::uint32_t last = members.back();
    members[mPosition[area]] = last;
    mPosition[last] = mPosition[area];
    members.pop_back();
    mPopulation[mRegionOf[area]] -= mGraph->population[area];
    mCases[mRegionOf[area]] -= mGraph->cases[area];
}

void FloorState::insert(std::uint32_t area, std::uint32_t region)
{
    mRegionOf[area] = region;
    mPosition[area] = std::uint32_t(mMembers[region].size());
    mMembers[region].push_back(area);
    mPopulation[region] += mGraph->population[area];
    mCases[region] += mGraph->cases[area];
}

void FloorState::merge(std::uint32_t from, std::uint32_t into)
{
    const std::vector<std::uint32_t> moving = mMembers[from];
    for (const std::uint32_t a : moving)
        insert(a, into);
    mMembers[from].clear();
    // Recomputed rather than subtracted, so that a region merged away holds exactly nothing.
    mPopulation[from] = mCases[from] = 0.0;
}

std::uint32_t FloorState::split(const std::vector<std::uint32_t>& areas)
{
    const std::uint32_t region = std::uint32_t(mMembers.size());
    mMembers.emplace_back();
    mPopulation.push_back(0.0);
    mCases.push_back(0.0);
    for (const std::uint32_t a : areas)
    {
        remove(a);
        insert(a, region);
    }
    return region;
}

void FloorState::move(std::uint32_t area, std::uint32_t to)
{
    remove(area);
    insert(area, to);
}

bool FloorState::connectedWithout(std::uint32_t region, std::uint32_t area) const
{
    const std::vector<std::uint32_t>& members = mMembers[region];
    if (members.size() <= 2) // what is left is one area or none
        return true;
    if (++mStamp == 0)
    {
        std::fill(mMark.begin(), mMark.end(), 0);
        mStamp = 1;
    }
    mMark[area] = mStamp;
    const std::uint32_t start = members.front() != area ? members.front() : members[1];
    std::vector<std::uint32_t> stack{start};
    mMark[start] = mStamp;
    std::size_t reached = 1;
    while (!stack.empty())
    {
        const std::uint32_t a = stack.back();
        stack.pop_back();
        for (std::size_t i = mGraph->offsets[a]; i < mGraph->offsets[a + 1]; ++i)
        {
            const std::uint32_t b = mGraph->neighbours[i];
            if (mMark[b] != mStamp && mRegionOf[b] == region)
            {
                mMark[b] = mStamp;
                ++reached;
                stack.push_back(b);
            }
        }
    }
    return reached == members.size() - 1;
}

std::vector<std::uint32_t> FloorState::numbered() const
{
    constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> number(mMembers.size(), kNone), result(mRegionOf.size());
    std::uint32_t next = 0;
    for (std::uint32_t a = 0; a < mRegionOf.size(); ++a)
    {
        std::uint32_t& n = number[mRegionOf[a]];
        if (n == kNone)
            n = next++;
        result[a] = n;
    }
    return result;
}

} // namespace vbas

#include "ParentConstrainedPartitioner.h"

#include "GraphSupport.h"

#include <algorithm>
#include <map>

namespace vbas
{
namespace
{

/** One parent's regions and sites, renumbered from 0, with the maps back. */
struct Group
{
    std::vector<RegionIndex> regions; // local -> global
    std::vector<SiteIndex> sites;     // local -> global
    std::vector<Point> points;
    std::vector<Count> weights;
    /** The group's sites with their power weights (empty when the sites are unweighted). */
    Sites localSites;
    SpatialContext spatial;

    PartitionInput input() const { return {points, weights, spatial}; }
};

/** Splits regions and sites by parent; parents without a site get one (appended to `sites`, weight 0). */
std::vector<Group> splitByParent(const PartitionInput& input, const std::vector<std::uint32_t>& regionParent,
                                 Sites& all)
{
    if (regionParent.size() != input.points.size())
        throw Error(Subject::Partition, "the parent field must give a value for every region");
    std::map<std::uint32_t, std::size_t> groupOf;
    for (std::uint32_t parent : regionParent)
        groupOf.emplace(parent, 0);
    std::size_t next = 0;
    for (auto& entry : groupOf)
        entry.second = next++;
    std::vector<Group> groups(groupOf.size());
    std::vector<std::uint32_t> local(input.points.size());
    for (RegionIndex r = 0; r < input.points.size(); ++r)
    {
        Group& g = groups[groupOf[regionParent[r]]];
        local[r] = std::uint32_t(g.regions.size());
        g.regions.push_back(r);
        g.points.push_back(input.points[r]);
        g.weights.push_back(input.weights[r]);
    }
    std::vector<Point>& sites = all.points;
    const VisiblePointFinder nearestRegion(input.points, nullptr);
    for (SiteIndex s = 0; s < sites.size(); ++s)
        groups[groupOf[regionParent[nearestRegion.find(sites[s])]]].sites.push_back(s);
    for (Group& g : groups)
        if (g.sites.empty())
        {
            const std::size_t heaviest =
                std::size_t(std::max_element(g.weights.begin(), g.weights.end()) - g.weights.begin());
            g.sites.push_back(SiteIndex(sites.size()));
            sites.push_back(g.points[heaviest]);
            if (!all.weights.empty())
                all.weights.push_back(0.0);
        }
    for (Group& g : groups)
        for (SiteIndex s : g.sites)
        {
            g.localSites.points.push_back(sites[s]);
            if (!all.weights.empty())
                g.localSites.weights.push_back(all.weights[s]);
        }
    // The adjacency graph cut at parent boundaries.
    if (input.spatial.adjacency)
    {
        std::vector<std::vector<AdjacentPair>> pairs(groups.size());
        for (const AdjacentPair& p : input.spatial.adjacency->pairs())
            if (regionParent[p.a] == regionParent[p.b])
                pairs[groupOf[regionParent[p.a]]].push_back(
                    {local[p.a], local[p.b], p.sharedLength, p.border});
        for (std::size_t i = 0; i < groups.size(); ++i)
            groups[i].spatial.adjacency = std::make_shared<RegionAdjacency>(
                RegionAdjacency::fromPairs(groups[i].points.size(), pairs[i]));
    }
    for (Group& g : groups)
        g.spatial.obstacles = input.spatial.obstacles;
    return groups;
}

/** Gives global numbers to sites the inner partition of `group` added (weight 0, e.g. for a cut-off bank). */
void adoptAddedSites(Group& group, const std::vector<Point>& innerSites, Sites& all)
{
    for (std::size_t i = group.sites.size(); i < innerSites.size(); ++i)
    {
        group.sites.push_back(SiteIndex(all.points.size()));
        all.points.push_back(innerSites[i]);
        if (!all.weights.empty())
            all.weights.push_back(0.0);
    }
}

/** The inner incremental partitions of every parent, seen as one. */
class ParentConstrainedPartition : public IncrementalPartition
{
public:
    ParentConstrainedPartition(const Partitioner& inner, const PartitionInput& input,
                               const std::vector<std::uint32_t>& regionParent, Sites sites,
                               Feedback& feedback)
        : mSites(std::move(sites))
        , mGroups(splitByParent(input, regionParent, mSites))
        , mRegionParent(regionParent)
        , mNearestRegion(input.points, nullptr)
        , mRegionSite(input.points.size())
    {
        for (std::size_t g = 0; g < mGroups.size(); ++g)
        {
            mInner.push_back(inner.incremental(mGroups[g].input(), mGroups[g].localSites, feedback));
            adoptAddedSites(mGroups[g], mInner[g]->sites(), mSites);
        }
        mMembers.resize(mSites.points.size());
        mSiteGroup.resize(mSites.points.size());
        mLocalSite.resize(mSites.points.size());
        for (std::size_t g = 0; g < mGroups.size(); ++g)
        {
            for (std::size_t i = 0; i < mGroups[g].sites.size(); ++i)
            {
                mSiteGroup[mGroups[g].sites[i]] = std::uint32_t(g);
                mLocalSite[mGroups[g].sites[i]] = SiteIndex(i);
            }
            for (SiteIndex s = 0; s < mGroups[g].sites.size(); ++s)
                for (RegionIndex r : mInner[g]->members(s))
                {
                    const RegionIndex global = mGroups[g].regions[r];
                    mRegionSite[global] = mGroups[g].sites[s];
                    mMembers[mGroups[g].sites[s]].push_back(global);
                }
        }
        mPosition.resize(input.points.size());
        for (const auto& list : mMembers)
            for (std::uint32_t i = 0; i < list.size(); ++i)
                mPosition[list[i]] = i;
    }

    const std::vector<Point>& sites() const override { return mSites.points; }
    const std::vector<double>& weights() const override { return mSites.weights; }
    const std::vector<SiteIndex>& regionSite() const override { return mRegionSite; }
    const std::vector<RegionIndex>& members(SiteIndex s) const override { return mMembers[s]; }

    bool move(SiteIndex s, const Point& p, std::vector<Change>& changes) override
    {
        const std::uint32_t g = mSiteGroup[s];
        // A site belongs to the parent of its nearest region: a move may not carry it across.
        if (mRegionParent[mNearestRegion.find(p)] != mRegionParent[mGroups[g].regions.front()])
            return false;
        std::vector<Change> local;
        if (!mInner[g]->move(mLocalSite[s], p, local))
            return false;
        mSites.points[s] = p;
        adopt(g, local, changes);
        return true;
    }

    void undo(SiteIndex s, const Point& previous, const std::vector<Change>& changes) override
    {
        const std::uint32_t g = mSiteGroup[s];
        mInner[g]->undo(mLocalSite[s], previous, restore(g, changes));
        mSites.points[s] = previous;
    }

    bool reweigh(SiteIndex s, double w, std::vector<Change>& changes) override
    {
        const std::uint32_t g = mSiteGroup[s];
        std::vector<Change> local;
        mInner[g]->reweigh(mLocalSite[s], w, local);
        mSites.weights.at(s) = w;
        adopt(g, local, changes);
        return true;
    }

    void undoReweigh(SiteIndex s, double previous, const std::vector<Change>& changes) override
    {
        const std::uint32_t g = mSiteGroup[s];
        mInner[g]->undoReweigh(mLocalSite[s], previous, restore(g, changes));
        mSites.weights[s] = previous;
    }

    void neighbours(SiteIndex s, std::vector<SiteIndex>& out) const override
    {
        const std::uint32_t g = mSiteGroup[s];
        std::vector<SiteIndex> local;
        mInner[g]->neighbours(mLocalSite[s], local);
        for (SiteIndex n : local)
            out.push_back(mGroups[g].sites[n]);
    }

    bool inNeighbourhood(SiteIndex s, const Point& p, SiteIndex owner) const override
    {
        const std::uint32_t g = mSiteGroup[s];
        if (owner != kNoSite && mSiteGroup[owner] != g)
            return false; // another parent's region can never join s
        return mInner[g]->inNeighbourhood(mLocalSite[s], p, owner == kNoSite ? kNoSite : mLocalSite[owner]);
    }

private:
    /** Applies the inner changes of group g in global numbers and appends them to `changes`. */
    void adopt(std::uint32_t g, const std::vector<Change>& local, std::vector<Change>& changes)
    {
        for (const Change& c : local)
        {
            const Change global{mGroups[g].regions[c.region], mGroups[g].sites[c.from],
                                mGroups[g].sites[c.to]};
            moveMember(mMembers, mPosition, global.region, global.from, global.to);
            mRegionSite[global.region] = global.to;
            changes.push_back(global);
        }
    }

    /** Reverts global `changes` of group g; returns them in the group's numbers. */
    std::vector<Change> restore(std::uint32_t g, const std::vector<Change>& changes)
    {
        std::vector<Change> local;
        for (const Change& c : changes)
        {
            local.push_back({localRegion(g, c.region), mLocalSite[c.from], mLocalSite[c.to]});
            moveMember(mMembers, mPosition, c.region, c.to, c.from);
            mRegionSite[c.region] = c.from;
        }
        return local;
    }

    RegionIndex localRegion(std::uint32_t g, RegionIndex global) const
    {
        const auto& regions = mGroups[g].regions;
        return RegionIndex(std::lower_bound(regions.begin(), regions.end(), global) - regions.begin());
    }

    Sites mSites;
    std::vector<Group> mGroups;
    const std::vector<std::uint32_t>& mRegionParent;
    VisiblePointFinder mNearestRegion;
    std::vector<std::unique_ptr<IncrementalPartition>> mInner;
    std::vector<SiteIndex> mRegionSite;
    std::vector<std::vector<RegionIndex>> mMembers;
    std::vector<std::uint32_t> mPosition;
    std::vector<std::uint32_t> mSiteGroup;
    std::vector<SiteIndex> mLocalSite;
};

} // namespace

ParentConstrainedPartitioner::ParentConstrainedPartitioner(const Partitioner& inner,
                                                           std::vector<std::uint32_t> regionParent)
    : mInner(inner)
    , mRegionParent(std::move(regionParent))
{
}

ParentConstrainedPartitioner::~ParentConstrainedPartitioner() = default;

Partition ParentConstrainedPartitioner::assignRegions(const PartitionInput& input, Sites sites,
                                                      Feedback& feedback) const
{
    std::vector<Group> groups = splitByParent(input, mRegionParent, sites);
    std::vector<SiteIndex> regionSite(input.points.size(), kNoSite);
    for (std::size_t g = 0; g < groups.size(); ++g)
    {
        Feedback::Stage stage(feedback, double(g) / double(groups.size()),
                              double(g + 1) / double(groups.size()));
        const Partition local = mInner.partition(groups[g].input(), groups[g].localSites, feedback);
        adoptAddedSites(groups[g], local.sites, sites);
        for (RegionIndex r = 0; r < local.regionSite.size(); ++r)
            regionSite[groups[g].regions[r]] = groups[g].sites[local.regionSite[r]];
    }
    return {std::move(sites.points), std::move(regionSite), std::move(sites.weights)};
}

std::unique_ptr<IncrementalPartition>
ParentConstrainedPartitioner::assignRegionsIncrementally(const PartitionInput& input, Sites sites,
                                                         Feedback& feedback) const
{
    return std::make_unique<ParentConstrainedPartition>(mInner, input, mRegionParent, std::move(sites),
                                                        feedback);
}

} // namespace vbas

#include "BarrierPartitioner.h"

#include "GraphSupport.h"
#include "NearestSourceField.h"

#include <algorithm>
#include <cmath>

namespace vbas
{
namespace
{

double distance(const Point& a, const Point& b)
{
    return std::sqrt(squaredDistance(a, b));
}

/**
 * The barrier graph: adjacency edges through the shared border, cut where an obstacle lies.
 * `component` receives the connected components; `island` tells those no border links to any
 * other region even without obstacles.
 */
WeightedGraph barrierGraph(const PartitionInput& input, std::vector<std::uint32_t>& component,
                           std::vector<bool>& island)
{
    if (!input.spatial.adjacency)
        throw Error(Subject::Partition,
                    "the barrier partition needs the region polygons to know which areas are "
                    "neighbours; give polygons or use the Euclidean partition");
    const Obstacles* obstacles = input.spatial.obstacles.get();
    std::vector<WeightedGraph::Edge> edges;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> links;
    for (const AdjacentPair& pair : input.spatial.adjacency->pairs())
    {
        const Point& a = input.points[pair.a];
        const Point& b = input.points[pair.b];
        if (obstacles != nullptr && (obstacles->blocks(a, pair.border) || obstacles->blocks(pair.border, b)))
            continue;
        edges.push_back({pair.a, pair.b, distance(a, pair.border) + distance(pair.border, b)});
        links.emplace_back(pair.a, pair.b);
    }
    component = connectedComponents(input.points.size(), links);
    const std::uint32_t components =
        component.empty() ? 0 : *std::max_element(component.begin(), component.end()) + 1;
    island.assign(components, true);
    for (const AdjacentPair& pair : input.spatial.adjacency->pairs())
        if (component[pair.a] != component[pair.b])
            island[component[pair.a]] = island[component[pair.b]] = false;
    return WeightedGraph::fromEdges(input.points.size(), edges);
}

/** The barrier partition and its updates under site moves and weight changes. */
class BarrierPartition : public PositionalPartition
{
public:
    BarrierPartition(const PartitionInput& input, Sites sites)
        : mPoints(input.points)
        , mObstacles(input.spatial.obstacles.get())
        , mSites(std::move(sites.points))
        , mWeights(std::move(sites.weights))
        , mGraph(barrierGraph(input, mComponent, mIsland))
        , mFinder(mPoints, mObstacles)
        , mComponentNodes(mIsland.size())
        , mSiteIndex(mSites)
        , mField(attachAll(input.weights))
        , mSitesInComponent(mComponentNodes.size(), 0)
        , mIslandSite(mComponentNodes.size(), kNoSite)
    {
        for (SiteIndex s = 0; s < mSites.size(); ++s)
            ++mSitesInComponent[mComponent[mField.attachments(s).front().node]];
        settleIslands();
        assignAll(mPoints.size(), mSites.size(), [this](RegionIndex r) { return finalSite(r); });
    }

    const std::vector<Point>& sites() const override { return mSites; }
    const std::vector<double>& weights() const override { return mWeights; }

    bool move(SiteIndex s, const Point& p, std::vector<Change>& changes) override
    {
        // A site stays on its side of the barriers: crossing would leave a bank without its site.
        const Attachment entry = attach(p);
        if (mComponent[entry.node] != mComponent[mField.attachments(s).front().node] ||
            !mSiteIndex.moveSite(s, p))
            return false;
        mSites[s] = p;
        std::vector<NearestSourceField::Change> fieldChanges;
        mField.moveSource(s, {entry}, fieldChanges);
        follow(fieldChanges, changes);
        return true;
    }

    bool reweigh(SiteIndex s, double w, std::vector<Change>& changes) override
    {
        if (mWeights.empty())
            return IncrementalPartition::reweigh(s, w, changes);
        mWeights[s] = w;
        std::vector<NearestSourceField::Change> fieldChanges;
        mField.reweighSource(s, w, fieldChanges);
        follow(fieldChanges, changes);
        return true;
    }

    void neighbours(SiteIndex s, std::vector<SiteIndex>& out) const override
    {
        const std::size_t first = out.size();
        mSiteIndex.neighbours(s, out);
        // Sites across a shared border, which a barrier graph can make other than Delaunay neighbours.
        for (RegionIndex r : mMembers[s])
            for (const WeightedGraph::Arc* arc = mGraph.begin(r); arc != mGraph.end(r); ++arc)
                if (mRegionSite[arc->to] != s)
                    out.push_back(mRegionSite[arc->to]);
        std::sort(out.begin() + std::ptrdiff_t(first), out.end());
        out.erase(std::unique(out.begin() + std::ptrdiff_t(first), out.end()), out.end());
    }

    bool inNeighbourhood(SiteIndex s, const Point& p, SiteIndex owner) const override
    {
        return owner == s || mSiteIndex.inStar(s, p);
    }

private:
    std::uint32_t componentCount() const { return std::uint32_t(mComponentNodes.size()); }

    /** Re-assigns the regions whose winner changed in the field, and the islands. */
    void follow(const std::vector<NearestSourceField::Change>& fieldChanges, std::vector<Change>& changes)
    {
        std::vector<RegionIndex> recheck;
        for (const auto& change : fieldChanges)
            if (change.from != change.to)
                recheck.push_back(change.node);
        // Islands follow the nearest site, which any change may change; few regions are islands.
        for (std::uint32_t c = 0; c < componentCount(); ++c)
            if (mSitesInComponent[c] == 0)
                recheck.insert(recheck.end(), mComponentNodes[c].begin(), mComponentNodes[c].end());
        settleIslands();
        reassign(
            std::move(recheck), [this](RegionIndex r) { return finalSite(r); }, changes);
    }

    Attachment attach(const Point& site) const
    {
        const RegionIndex r = mFinder.find(site);
        return {r, distance(site, mPoints[r])};
    }

    /**
     * The field of every site; a component cut off by obstacles that no site reaches gets a site of
     * its own (weight 0) at its region with the most records (appended), so no aggregate crosses a
     * barrier.
     */
    NearestSourceField attachAll(const std::vector<Count>& records)
    {
        for (RegionIndex r = 0; r < mPoints.size(); ++r)
            mComponentNodes[mComponent[r]].push_back(r);
        std::vector<std::vector<Attachment>> attachments;
        std::vector<bool> reached(mComponentNodes.size(), false);
        for (const Point& site : mSites)
        {
            attachments.push_back({attach(site)});
            reached[mComponent[attachments.back().front().node]] = true;
        }
        for (std::uint32_t c = 0; c < mComponentNodes.size(); ++c)
            if (!reached[c] && !mIsland[c])
            {
                // The heaviest region where no site stands already (a site exactly on an obstacle
                // through a region point attaches elsewhere): sites stay distinct, so they can move.
                std::vector<RegionIndex> nodes = mComponentNodes[c];
                std::sort(nodes.begin(), nodes.end(),
                          [&](RegionIndex a, RegionIndex b)
                          { return records[a] > records[b] || (records[a] == records[b] && a < b); });
                const auto free = std::find_if(
                    nodes.begin(), nodes.end(),
                    [&](RegionIndex r)
                    { return std::find(mSites.begin(), mSites.end(), mPoints[r]) == mSites.end(); });
                if (free == nodes.end())
                    continue; // settleIslands() gives it to the nearest site
                mSites.push_back(mPoints[*free]);
                if (!mWeights.empty())
                    mWeights.push_back(0.0);
                mSiteIndex = SiteTriangulation(mSites);
                attachments.push_back({{*free, 0.0}});
            }
        return NearestSourceField(mGraph, std::move(attachments), mWeights);
    }

    /** Each component without a site goes whole to the site of least power distance to any of its points. */
    void settleIslands()
    {
        for (std::uint32_t c = 0; c < componentCount(); ++c)
        {
            if (mSitesInComponent[c] > 0)
                continue;
            double best = std::numeric_limits<double>::infinity();
            SiteIndex bestSite = kNoSite;
            const auto consider = [&](const Point& p, SiteIndex s)
            {
                const double d = squaredDistance(p, mSites[s]) - mField.weight(s);
                if (d < best || (d == best && s < bestSite))
                {
                    best = d;
                    bestSite = s;
                }
            };
            for (RegionIndex r : mComponentNodes[c])
                if (mWeights.empty())
                    consider(mPoints[r], mSiteIndex.nearestSite(mPoints[r]));
                else // the power diagram of few sites and few island points: by brute force
                    for (SiteIndex s = 0; s < mSites.size(); ++s)
                        consider(mPoints[r], s);
            mIslandSite[c] = bestSite;
        }
    }

    SiteIndex finalSite(RegionIndex r) const
    {
        return mSitesInComponent[mComponent[r]] > 0 ? mField.winner(r).site : mIslandSite[mComponent[r]];
    }

    const std::vector<Point>& mPoints;
    const Obstacles* mObstacles;
    std::vector<Point> mSites;
    /** The sites' power weights; empty when unweighted. */
    std::vector<double> mWeights;
    std::vector<std::uint32_t> mComponent;
    std::vector<bool> mIsland;
    WeightedGraph mGraph;
    VisiblePointFinder mFinder;
    std::vector<std::vector<RegionIndex>> mComponentNodes;
    SiteTriangulation mSiteIndex;
    NearestSourceField mField;
    std::vector<std::uint32_t> mSitesInComponent;
    std::vector<SiteIndex> mIslandSite;
};

} // namespace

std::unique_ptr<Partitioner> BarrierPartitioner::create(const StrategyOptions&)
{
    return std::make_unique<BarrierPartitioner>();
}

Partition BarrierPartitioner::assignRegions(const PartitionInput& input, Sites sites,
                                            Feedback& feedback) const
{
    feedback.checkCanceled();
    const BarrierPartition state(input, std::move(sites));
    return {state.sites(), state.regionSite(), state.weights()};
}

std::unique_ptr<IncrementalPartition>
BarrierPartitioner::assignRegionsIncrementally(const PartitionInput& input, Sites sites, Feedback&) const
{
    return std::make_unique<BarrierPartition>(input, std::move(sites));
}

} // namespace vbas

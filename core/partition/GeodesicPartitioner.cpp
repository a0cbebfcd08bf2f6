#include "GeodesicPartitioner.h"

#include "GraphSupport.h"
#include "NearestSourceField.h"
#include "PowerIncremental.h"
#include "VoronoiIncremental.h"

#include <algorithm>
#include <cmath>

namespace vbas
{
namespace
{

/**
 * How a point links to the graph: the nearest nodes it sees, until it has `visible` of them or
 * has looked at `scanned`. Enough that the first corner of a shortest path is nearly always among
 * them (measured against an exact visibility graph, tests/core/partition/ObstacleTest.cpp).
 */
struct Reach
{
    std::size_t visible;
    std::size_t scanned;
};
constexpr Reach kRegionReach{48, 48}; // a blocked region point
constexpr Reach kSiteReach{24, 24};   // a site
constexpr Reach kNodeReach{24, 24};   // a node, to the other nodes

double distance(const Point& a, const Point& b)
{
    return std::sqrt(squaredDistance(a, b));
}

/**
 * Nodes just off every obstacle vertex, where shortest paths bend: on both sides of a vertex
 * where a line or ring turns (along the bisector), around the tip of a line's end (beyond it and
 * to both sides), and on the four diagonals where several lines meet.
 */
std::vector<Point> offsetNodes(const Obstacles& obstacles, const std::vector<Point>& points)
{
    struct Spoke
    {
        Point vertex;
        double dx, dy; // unit direction from the vertex along one incident segment
    };
    std::vector<Spoke> spokes;
    double minX = 0, maxX = 0, minY = 0, maxY = 0;
    bool first = true;
    const auto extend = [&](const Point& p)
    {
        minX = first ? p.x : std::min(minX, p.x);
        maxX = first ? p.x : std::max(maxX, p.x);
        minY = first ? p.y : std::min(minY, p.y);
        maxY = first ? p.y : std::max(maxY, p.y);
        first = false;
    };
    for (const Segment& s : obstacles.segments())
    {
        const double length = distance(s.a, s.b);
        spokes.push_back({s.a, (s.b.x - s.a.x) / length, (s.b.y - s.a.y) / length});
        spokes.push_back({s.b, (s.a.x - s.b.x) / length, (s.a.y - s.b.y) / length});
        extend(s.a);
        extend(s.b);
    }
    for (const Point& p : points)
        extend(p);
    const double offset = 1e-5 * std::max({maxX - minX, maxY - minY, 1e-9});
    std::sort(spokes.begin(), spokes.end(),
              [](const Spoke& a, const Spoke& b)
              { return a.vertex.x != b.vertex.x ? a.vertex.x < b.vertex.x : a.vertex.y < b.vertex.y; });
    std::vector<Point> nodes;
    const auto add = [&](const Point& v, double dx, double dy)
    {
        nodes.push_back({v.x + offset * dx, v.y + offset * dy});
    };
    for (std::size_t i = 0; i < spokes.size();)
    {
        std::size_t j = i + 1;
        while (j < spokes.size() && spokes[j].vertex == spokes[i].vertex)
            ++j;
        const Point& v = spokes[i].vertex;
        if (j - i == 1) // the end of a line: beyond the tip and on both sides
        {
            const double dx = spokes[i].dx, dy = spokes[i].dy;
            add(v, -dx, -dy);
            add(v, -dy, dx);
            add(v, dy, -dx);
        }
        else if (j - i == 2) // a turn: both sides, along the bisector (the normal if straight)
        {
            double bx = spokes[i].dx + spokes[i + 1].dx, by = spokes[i].dy + spokes[i + 1].dy;
            const double length = std::sqrt(bx * bx + by * by);
            if (length < 1e-9)
            {
                bx = -spokes[i].dy;
                by = spokes[i].dx;
            }
            else
            {
                bx /= length;
                by /= length;
            }
            add(v, bx, by);
            add(v, -bx, -by);
        }
        else // several lines meet
            for (const auto& [dx, dy] : {std::pair{0.7071, 0.7071}, std::pair{0.7071, -0.7071},
                                         std::pair{-0.7071, 0.7071}, std::pair{-0.7071, -0.7071}})
                add(v, dx, dy);
        i = j;
    }
    return nodes;
}

/** The straight-line partition beneath the geodesic one: Voronoi, or the power diagram of weighted sites. */
std::unique_ptr<IncrementalPartition> straightPartition(const std::vector<Point>& points, Sites sites,
                                                        Feedback& feedback)
{
    if (sites.weights.empty())
        return std::make_unique<VoronoiIncremental>(points, std::move(sites.points), feedback);
    return std::make_unique<PowerIncremental>(points, std::move(sites.points), std::move(sites.weights),
                                              feedback);
}

/** The geodesic partition and its updates under site moves and weight changes. */
class GeodesicPartition : public PositionalPartition
{
public:
    GeodesicPartition(const PartitionInput& input, Sites sites, Feedback& feedback)
        : mPoints(input.points)
        , mObstacles(input.spatial.obstacles.get())
        , mEuclid(straightPartition(input.points, std::move(sites), feedback))
        , mNodes(mObstacles != nullptr ? offsetNodes(*mObstacles, mPoints) : std::vector<Point>{})
        , mNodeIndex(mNodes)
        , mGraph(buildGraph())
        , mField(mGraph, attachAll(), mEuclid->weights())
        , mRegionAttachments(mPoints.size())
        , mAttached(mPoints.size(), false)
        , mNodeRegions(mNodes.size())
    {
        assignAll(mPoints.size(), mEuclid->sites().size(),
                  [&](RegionIndex r)
                  {
                      if (r % 4096 == 0)
                          feedback.checkCanceled();
                      return evaluate(r);
                  });
    }

    const std::vector<Point>& sites() const override { return mEuclid->sites(); }
    const std::vector<double>& weights() const override { return mEuclid->weights(); }

    bool move(SiteIndex s, const Point& p, std::vector<Change>& changes) override
    {
        std::vector<SiteIndex> around{s};
        mEuclid->neighbours(s, around);
        std::vector<Change> euclidChanges;
        if (!mEuclid->move(s, p, euclidChanges))
            return false;
        std::vector<NearestSourceField::Change> fieldChanges;
        mField.moveSource(s, attach(p, kSiteReach), fieldChanges);
        follow(std::move(around), euclidChanges, fieldChanges, changes);
        return true;
    }

    bool reweigh(SiteIndex s, double w, std::vector<Change>& changes) override
    {
        std::vector<SiteIndex> around{s};
        mEuclid->neighbours(s, around);
        std::vector<Change> euclidChanges;
        mEuclid->reweigh(s, w, euclidChanges); // throws when unweighted
        std::vector<NearestSourceField::Change> fieldChanges;
        mField.reweighSource(s, w, fieldChanges);
        follow(std::move(around), euclidChanges, fieldChanges, changes);
        return true;
    }

    void neighbours(SiteIndex s, std::vector<SiteIndex>& out) const override
    {
        const std::size_t first = out.size();
        mEuclid->neighbours(s, out);
        // Blocked points near s may belong to sites further away.
        const std::size_t delaunay = out.size();
        for (std::size_t i = first; i < delaunay; ++i)
            for (RegionIndex r : mEuclid->members(out[i]))
                out.push_back(mRegionSite[r]);
        for (RegionIndex r : mEuclid->members(s))
            out.push_back(mRegionSite[r]);
        std::sort(out.begin() + std::ptrdiff_t(first), out.end());
        out.erase(std::unique(out.begin() + std::ptrdiff_t(first), out.end()), out.end());
        out.erase(std::remove(out.begin() + std::ptrdiff_t(first), out.end(), s), out.end());
    }

    bool inNeighbourhood(SiteIndex s, const Point& p, SiteIndex owner) const override
    {
        return owner == s || mEuclid->inNeighbourhood(s, p, kNoSite);
    }

private:
    /**
     * Re-evaluates who can change after site s changed: the straight-line cells of s and of its
     * neighbours before and after (certification and direct candidates), the regions that changed
     * straight-line site, and the regions hanging off graph nodes whose labels changed.
     */
    void follow(std::vector<SiteIndex> around, const std::vector<Change>& euclidChanges,
                const std::vector<NearestSourceField::Change>& fieldChanges, std::vector<Change>& changes)
    {
        mEuclid->neighbours(around.front(), around);
        std::vector<RegionIndex> recheck;
        for (SiteIndex c : around)
            recheck.insert(recheck.end(), mEuclid->members(c).begin(), mEuclid->members(c).end());
        for (const Change& change : euclidChanges)
            recheck.push_back(change.region);
        for (const auto& change : fieldChanges)
            recheck.insert(recheck.end(), mNodeRegions[change.node].begin(), mNodeRegions[change.node].end());
        reassign(
            std::move(recheck), [this](RegionIndex r) { return evaluate(r); }, changes);
    }

    /** Each node linked to the nearby nodes it sees. */
    WeightedGraph buildGraph() const
    {
        std::vector<WeightedGraph::Edge> edges;
        for (std::uint32_t a = 0; a < mNodes.size(); ++a)
            for (const Attachment& link : attach(mNodes[a], kNodeReach))
                if (link.node > a)
                    edges.push_back({a, link.node, link.distance});
        return WeightedGraph::fromEdges(mNodes.size(), edges);
    }

    /** The nearby graph nodes that p sees, with their distance. */
    std::vector<Attachment> attach(const Point& p, Reach reach) const
    {
        std::vector<Attachment> visible;
        SiteTriangulation::NearestWalk walk(mNodeIndex, p);
        SiteIndex node;
        for (std::size_t scanned = 0;
             scanned < reach.scanned && visible.size() < reach.visible && walk.next(node); ++scanned)
            if (mNodes[node] != p && !mObstacles->blocks(p, mNodes[node]))
                visible.push_back({node, distance(p, mNodes[node])});
        return visible;
    }

    std::vector<std::vector<Attachment>> attachAll() const
    {
        std::vector<std::vector<Attachment>> attachments;
        for (const Point& site : mEuclid->sites())
            attachments.push_back(mNodes.empty() ? std::vector<Attachment>{} : attach(site, kSiteReach));
        return attachments;
    }

    /**
     * The graph nodes region r sees, computed the first time r is blocked (few regions are) and
     * registered so that label changes of those nodes recheck r.
     */
    const std::vector<Attachment>& regionAttachments(RegionIndex r)
    {
        if (!mAttached[r])
        {
            mAttached[r] = true;
            mRegionAttachments[r] = attach(mPoints[r], kRegionReach);
            for (const Attachment& a : mRegionAttachments[r])
                mNodeRegions[a.node].push_back(r);
        }
        return mRegionAttachments[r];
    }

    SiteIndex evaluate(RegionIndex r)
    {
        const Point& p = mPoints[r];
        const std::vector<Point>& sites = mEuclid->sites();
        const SiteIndex nearest = mEuclid->regionSite()[r];
        if (mObstacles == nullptr || !mObstacles->blocks(p, sites[nearest]))
            return nearest; // certified: a clear straight path to the nearest site
        double best = std::numeric_limits<double>::infinity();
        SiteIndex bestSite = kNoSite;
        const auto consider = [&](double power, SiteIndex s)
        {
            if (power < best || (power == best && s < bestSite))
            {
                best = power;
                bestSite = s;
            }
        };
        std::vector<SiteIndex> direct{nearest};
        mEuclid->neighbours(nearest, direct);
        for (SiteIndex s : direct)
            if (!mObstacles->blocks(p, sites[s]))
                consider(mField.power(distance(p, sites[s]), s), s);
        for (const Attachment& a : regionAttachments(r))
            for (const NearestSourceField::Label& label : mField.labels(a.node))
                consider(mField.power(a.distance + label.distance, label.site), label.site);
        return bestSite != kNoSite ? bestSite : nearest;
    }

    const std::vector<Point>& mPoints;
    const Obstacles* mObstacles;
    std::unique_ptr<IncrementalPartition> mEuclid;
    std::vector<Point> mNodes;
    SiteTriangulation mNodeIndex;
    WeightedGraph mGraph;
    NearestSourceField mField;
    std::vector<std::vector<Attachment>> mRegionAttachments;
    std::vector<bool> mAttached;
    std::vector<std::vector<RegionIndex>> mNodeRegions;
};

} // namespace

std::unique_ptr<Partitioner> GeodesicPartitioner::create(const StrategyOptions&)
{
    return std::make_unique<GeodesicPartitioner>();
}

Partition GeodesicPartitioner::assignRegions(const PartitionInput& input, Sites sites,
                                             Feedback& feedback) const
{
    const GeodesicPartition state(input, sites, feedback);
    return {std::move(sites.points), state.regionSite(), std::move(sites.weights)};
}

std::unique_ptr<IncrementalPartition>
GeodesicPartitioner::assignRegionsIncrementally(const PartitionInput& input, Sites sites,
                                                Feedback& feedback) const
{
    return std::make_unique<GeodesicPartition>(input, std::move(sites), feedback);
}

} // namespace vbas

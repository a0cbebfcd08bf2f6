#include "RegionAdjacency.h"

#include "base/CompressedLists.h"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>

#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace vbas
{
namespace
{
namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;
using BoxPoint = bg::model::point<double, 2, bg::cs::cartesian>;
using Box = bg::model::box<BoxPoint>;
using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;

/** One boundary segment of one region, keyed by its endpoints in canonical order. */
struct Edge
{
    Point low;
    Point high;
    RegionIndex region;
};

bool before(const Point& p, const Point& q)
{
    return p.x < q.x || (p.x == q.x && p.y < q.y);
}

double length(const Edge& e)
{
    return std::sqrt(squaredDistance(e.low, e.high));
}
Point middle(const Edge& e)
{
    return {(e.low.x + e.high.x) / 2, (e.low.y + e.high.y) / 2};
}

/** Shared boundary of each pair so far: total length and the middle of its longest piece. */
class Contacts
{
public:
    /** Adds `piece` to the boundary shared by a and b, counting `share` of its length. */
    void add(RegionIndex a, RegionIndex b, const Edge& piece, double share = 1.0)
    {
        if (a == b)
            return;
        Contact& c = mContacts[{std::min(a, b), std::max(a, b)}];
        const double l = length(piece);
        c.length += share * l;
        if (l > c.longest)
        {
            c.longest = l;
            c.border = middle(piece);
        }
    }
    std::vector<AdjacentPair> pairs() const
    {
        std::vector<AdjacentPair> out;
        for (const auto& [key, c] : mContacts)
            out.push_back({key.first, key.second, c.length, c.border});
        return out;
    }

private:
    struct Contact
    {
        double length = 0;
        double longest = -1;
        Point border;
    };
    std::map<std::pair<RegionIndex, RegionIndex>, Contact> mContacts;
};
} // namespace

double defaultAdjacencyTolerance(const RegionGeometries& geometries)
{
    double extent = 0;
    for (std::size_t i = 0; i < geometries.size(); ++i)
    {
        double minX, minY, maxX, maxY;
        const GEOSContextHandle_t h = geometries.context().handle();
        GEOSGeom_getXMin_r(h, geometries.geometry(i), &minX);
        GEOSGeom_getYMin_r(h, geometries.geometry(i), &minY);
        GEOSGeom_getXMax_r(h, geometries.geometry(i), &maxX);
        GEOSGeom_getYMax_r(h, geometries.geometry(i), &maxY);
        extent = std::max({extent, maxX - minX, maxY - minY});
    }
    return extent * 1e-6;
}

RegionAdjacency RegionAdjacency::build(const RegionGeometries& geometries, double tolerance,
                                       Feedback& feedback)
{
    const GEOSContextHandle_t h = geometries.context().handle();
    std::vector<Edge> edges;
    for (RegionIndex r = 0; r < geometries.size(); ++r)
        geos::forEachSegment(h, geometries.geometry(r),
                             [&](const Point& a, const Point& b) {
                                 edges.push_back(before(a, b) ? Edge{a, b, r} : Edge{b, a, r});
                             });
    feedback.checkCanceled();
    std::sort(edges.begin(), edges.end(),
              [](const Edge& p, const Edge& q)
              {
                  return std::tie(p.low.x, p.low.y, p.high.x, p.high.y, p.region) <
                         std::tie(q.low.x, q.low.y, q.high.x, q.high.y, q.region);
              });

    Contacts contacts;
    std::vector<Edge> unmatched;
    for (std::size_t i = 0; i < edges.size();)
    {
        std::size_t j = i + 1;
        while (j < edges.size() && edges[j].low == edges[i].low && edges[j].high == edges[i].high)
            ++j;
        if (j - i == 1)
            unmatched.push_back(edges[i]);
        for (std::size_t p = i; p < j; ++p)
            for (std::size_t q = p + 1; q < j; ++q)
                contacts.add(edges[p].region, edges[q].region, edges[p]);
        i = j;
    }
    feedback.checkCanceled();

    // Unmatched pieces: shared when their middle lies within tolerance of another region's piece.
    if (tolerance > 0 && !unmatched.empty())
    {
        using Entry = std::pair<Box, std::size_t>;
        std::vector<Entry> entries;
        for (std::size_t i = 0; i < unmatched.size(); ++i)
        {
            const Edge& e = unmatched[i];
            entries.emplace_back(Box(BoxPoint(e.low.x - tolerance, std::min(e.low.y, e.high.y) - tolerance),
                                     BoxPoint(e.high.x + tolerance, std::max(e.low.y, e.high.y) + tolerance)),
                                 i);
        }
        const bgi::rtree<Entry, bgi::quadratic<16>> tree(entries.begin(), entries.end());
        const double squaredTolerance = tolerance * tolerance;
        for (const Edge& e : unmatched)
        {
            const Point m = middle(e);
            const Kernel::Point_2 mid(m.x, m.y);
            for (auto it = tree.qbegin(bgi::intersects(BoxPoint(m.x, m.y))); it != tree.qend(); ++it)
            {
                const Edge& other = unmatched[it->second];
                if (other.region == e.region)
                    continue;
                const Kernel::Segment_2 s(Kernel::Point_2(other.low.x, other.low.y),
                                          Kernel::Point_2(other.high.x, other.high.y));
                if (CGAL::squared_distance(mid, s) <= squaredTolerance)
                {
                    // Each side of a shared stretch finds the other: count each at half length.
                    contacts.add(e.region, other.region, e, 0.5);
                    break;
                }
            }
        }
    }
    return fromPairs(geometries.size(), contacts.pairs());
}

RegionAdjacency RegionAdjacency::fromPairs(std::size_t regions, std::vector<AdjacentPair> pairs)
{
    RegionAdjacency adjacency;
    pairs.erase(std::remove_if(pairs.begin(), pairs.end(), [](const AdjacentPair& p) { return p.a == p.b; }),
                pairs.end());
    adjacency.mPairs = std::move(pairs);
    fillCompressedLists(
        regions,
        [&](auto&& emit)
        {
            for (std::uint32_t i = 0; i < adjacency.mPairs.size(); ++i)
            {
                const AdjacentPair& p = adjacency.mPairs[i];
                emit(p.a, Neighbour{p.b, i});
                emit(p.b, Neighbour{p.a, i});
            }
        },
        adjacency.mOffsets, adjacency.mNeighbours);
    return adjacency;
}

} // namespace vbas

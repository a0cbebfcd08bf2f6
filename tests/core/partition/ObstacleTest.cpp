#include "SceneSupport.h"
#include "geometry/Dissolve.h"
#include "partition/BarrierPartitioner.h"
#include "partition/ContiguityRepair.h"
#include "partition/GeodesicPartitioner.h"
#include "partition/VoronoiPartitioner.h"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>

#include <gtest/gtest.h>

#include <cmath>
#include <queue>
#include <random>
#include <set>

using namespace vbas;
using namespace vbas::test;

namespace
{
/** The row of each region of a grid scene. */
std::size_t rowOf(const GridScene& scene, RegionIndex r)
{
    return r / scene.columns;
}

/** Random sites inside the grid's box. */
std::vector<Point> randomSites(std::mt19937_64& generator, std::size_t count, double width, double height)
{
    std::vector<Point> sites;
    for (std::size_t i = 0; i < count; ++i)
        sites.push_back(
            {double(generator() % 10000) / 10000.0 * width, double(generator() % 10000) / 10000.0 * height});
    return sites;
}

/** The site of every region of a grid, partitioned by barrier mode. */
Partition barrier(const GridScene& scene, std::vector<Point> sites)
{
    Feedback feedback;
    return BarrierPartitioner().partition(scene.input(), std::move(sites), feedback);
}
} // namespace

TEST(BarrierPartition, NoAggregateSpansARiverWithoutABridge)
{
    // 20 x 10 cells of 10; rows 0-4 are the south bank, rows 5-9 the north bank.
    for (const char* river : {"POLYGON ((-5 48, 205 48, 205 52, -5 52, -5 48))", // a river polygon
                              "LINESTRING (-5 50, 205 50)"})                     // a river line on the border
    {
        std::mt19937_64 generator(3);
        for (int trial = 0; trial < 20; ++trial)
        {
            GridScene scene(20, 10, 10.0, std::uint64_t(trial));
            scene.setObstacles({river});
            // Sometimes every site on one bank: the other bank then gets a site of its own.
            const double height = trial % 4 == 0 ? 45.0 : 100.0;
            const Partition p = barrier(scene, randomSites(generator, 1 + generator() % 8, 200.0, height));
            std::map<SiteIndex, std::set<bool>> banks;
            for (RegionIndex r = 0; r < p.regionSite.size(); ++r)
                banks[p.regionSite[r]].insert(rowOf(scene, r) >= 5);
            for (const auto& [site, sides] : banks)
                EXPECT_EQ(sides.size(), 1u)
                    << river << " trial " << trial << ": site " << site << " spans both banks";
        }
    }
}

TEST(BarrierPartition, AggregatesCrossOnlyAtTheBridge)
{
    // The river polygon has a gap (a bridge) over columns 9 and 10; all sites on the north bank.
    std::mt19937_64 generator(5);
    for (int trial = 0; trial < 20; ++trial)
    {
        GridScene scene(20, 10, 10.0, std::uint64_t(trial));
        scene.setObstacles({"POLYGON ((-5 48, 90 48, 90 52, -5 52, -5 48))",
                            "POLYGON ((110 48, 205 48, 205 52, 110 52, 110 48))"});
        std::vector<Point> sites;
        for (Point p : randomSites(generator, 1 + generator() % 6, 200.0, 40.0))
            sites.push_back({p.x, p.y + 55.0});
        const Partition p = barrier(scene, sites);
        EXPECT_EQ(p.sites.size(), sites.size()) << "the south bank is reachable: no extra site";
        std::map<SiteIndex, std::set<RegionIndex>> members;
        for (RegionIndex r = 0; r < p.regionSite.size(); ++r)
            members[p.regionSite[r]].insert(r);
        int spanning = 0;
        for (const auto& [site, regions] : members)
        {
            const bool south = std::any_of(regions.begin(), regions.end(),
                                           [&](RegionIndex r) { return rowOf(scene, r) < 5; });
            if (!south)
                continue;
            ++spanning; // every site is north, so an aggregate with a south region spans
            // Its crossing: a bridge cell on each bank (columns 9-10, rows 4 and 5).
            const auto holds = [&](std::size_t row)
            {
                return regions.count(scene.index(9, row)) > 0 || regions.count(scene.index(10, row)) > 0;
            };
            EXPECT_TRUE(holds(4) && holds(5)) << "trial " << trial << ": crossed away from the bridge";
        }
        EXPECT_GE(spanning, 1);
    }
}

TEST(BarrierPartition, WeightedSitesWinByLeastSquaredPathLengthMinusWeight)
{
    // Reference: one Dijkstra per site over the areas (a step goes through the shared border
    // point, unless an obstacle lies on it), the site entering at the nearest area point it sees;
    // a region goes to the least d² − w, ties to the lower site. The river has a bridge, so paths
    // bend and a heavy site can win far along its path where it loses nearer.
    std::mt19937_64 generator(21);
    std::size_t differFromUnweighted = 0;
    for (int trial = 0; trial < 12; ++trial)
    {
        GridScene scene(20, 10, 10.0, std::uint64_t(trial));
        scene.setObstacles({"POLYGON ((-5 48, 90 48, 90 52, -5 52, -5 48))",
                            "POLYGON ((110 48, 205 48, 205 52, 110 52, 110 48))"});
        const std::vector<Point> sites = randomSites(generator, 3 + generator() % 6, 200.0, 100.0);
        std::vector<double> weights;
        for (std::size_t s = 0; s < sites.size(); ++s)
            weights.push_back(double(int(generator() % 5001) - 2500)); // up to (50)², a quarter of the grid
        Feedback feedback;
        const Partition engine =
            BarrierPartitioner().partition(scene.input(), Sites(sites, weights), feedback);
        const Partition plain = barrier(scene, sites);
        ASSERT_EQ(engine.sites.size(), sites.size()) << "both banks are reachable: no extra site";
        ASSERT_EQ(engine.weights, weights);

        const std::size_t n = scene.points.size();
        const Obstacles& obstacles = *scene.spatial.obstacles;
        std::vector<std::vector<std::pair<std::size_t, double>>> next(n);
        for (const AdjacentPair& pair : scene.spatial.adjacency->pairs())
        {
            const Point &a = scene.points[pair.a], &b = scene.points[pair.b];
            if (obstacles.blocks(a, pair.border) || obstacles.blocks(pair.border, b))
                continue;
            const double length =
                std::sqrt(squaredDistance(a, pair.border)) + std::sqrt(squaredDistance(pair.border, b));
            next[pair.a].emplace_back(pair.b, length);
            next[pair.b].emplace_back(pair.a, length);
        }
        std::vector<double> best(n, std::numeric_limits<double>::infinity());
        std::vector<SiteIndex> expected(n, kNoSite);
        for (SiteIndex s = 0; s < sites.size(); ++s)
        {
            // The nearest area point it sees; the nearest of all for a site standing in the river.
            std::size_t entry = n;
            const auto nearer = [&](std::size_t r)
            {
                return entry == n || squaredDistance(sites[s], scene.points[r]) <
                                         squaredDistance(sites[s], scene.points[entry]);
            };
            for (std::size_t r = 0; r < n; ++r)
                if (!obstacles.blocks(sites[s], scene.points[r]) && nearer(r))
                    entry = r;
            const bool seesNone = entry == n;
            for (std::size_t r = 0; r < n && seesNone; ++r)
                if (nearer(r))
                    entry = r;
            std::vector<double> d(n, std::numeric_limits<double>::infinity());
            d[entry] = std::sqrt(squaredDistance(sites[s], scene.points[entry]));
            using Item = std::pair<double, std::size_t>;
            std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
            queue.push({d[entry], entry});
            while (!queue.empty())
            {
                const auto [du, u] = queue.top();
                queue.pop();
                if (du != d[u])
                    continue;
                for (const auto& [v, length] : next[u])
                    if (du + length < d[v])
                    {
                        d[v] = du + length;
                        queue.push({d[v], v});
                    }
            }
            for (std::size_t r = 0; r < n; ++r)
            {
                const double power = d[r] * d[r] - weights[s];
                if (!std::isinf(d[r]) && (expected[r] == kNoSite || power < best[r]))
                {
                    best[r] = power;
                    expected[r] = s;
                }
            }
        }
        EXPECT_EQ(engine.regionSite, expected) << "trial " << trial;
        for (std::size_t r = 0; r < n; ++r)
            differFromUnweighted += engine.regionSite[r] != plain.regionSite[r];
    }
    EXPECT_GT(differFromUnweighted, 100u) << "the weights should move many regions";
}

namespace
{
using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;

/** Exact reference for geodesic distances among segments and convex polygons (test oracle). */
struct VisibilityReference
{
    std::vector<Segment> segments;
    std::vector<std::vector<Point>> polygons; // closed rings, counter-clockwise
    std::vector<Point> vertices;

    static bool properlyCross(const Point& a, const Point& b, const Point& c, const Point& d)
    {
        const auto o = [](const Point& p, const Point& q, const Point& r)
        {
            return CGAL::orientation(Kernel::Point_2(p.x, p.y), Kernel::Point_2(q.x, q.y),
                                     Kernel::Point_2(r.x, r.y));
        };
        const auto o1 = o(a, b, c), o2 = o(a, b, d), o3 = o(c, d, a), o4 = o(c, d, b);
        return o1 != CGAL::COLLINEAR && o2 != CGAL::COLLINEAR && o3 != CGAL::COLLINEAR &&
               o4 != CGAL::COLLINEAR && o1 != o2 && o3 != o4;
    }
    static bool strictlyInside(const std::vector<Point>& ring, const Point& p)
    {
        for (std::size_t i = 0; i + 1 < ring.size(); ++i)
            if (CGAL::orientation(Kernel::Point_2(ring[i].x, ring[i].y),
                                  Kernel::Point_2(ring[i + 1].x, ring[i + 1].y),
                                  Kernel::Point_2(p.x, p.y)) != CGAL::LEFT_TURN)
                return false;
        return true;
    }
    bool insideObstacle(const Point& p) const
    {
        return std::any_of(polygons.begin(), polygons.end(),
                           [&](const auto& ring) { return strictlyInside(ring, p); });
    }
    /** Touching vertices and edges is allowed; crossing an edge or a polygon's inside is not. */
    bool visible(const Point& a, const Point& b) const
    {
        for (const Segment& s : segments)
            if (properlyCross(a, b, s.a, s.b))
                return false;
        return !insideObstacle({(a.x + b.x) / 2, (a.y + b.y) / 2});
    }
    /** Geodesic distances from `source` to every vertex (Dijkstra over the visibility graph). */
    std::vector<double> fromSource(const Point& source) const
    {
        const std::size_t n = vertices.size();
        std::vector<double> d(n, std::numeric_limits<double>::infinity());
        std::vector<bool> done(n, false);
        for (std::size_t v = 0; v < n; ++v)
            if (visible(source, vertices[v]))
                d[v] = std::sqrt(squaredDistance(source, vertices[v]));
        for (std::size_t round = 0; round < n; ++round)
        {
            std::size_t u = n;
            for (std::size_t v = 0; v < n; ++v)
                if (!done[v] && (u == n || d[v] < d[u]))
                    u = v;
            if (u == n || std::isinf(d[u]))
                break;
            done[u] = true;
            for (std::size_t v = 0; v < n; ++v)
                if (!done[v] && visible(vertices[u], vertices[v]))
                    d[v] = std::min(d[v], d[u] + std::sqrt(squaredDistance(vertices[u], vertices[v])));
        }
        return d;
    }
};
} // namespace

TEST(GeodesicPartition, AgreesWithAnExactVisibilityGraphOnRandomScenes)
{
    std::mt19937_64 generator(11);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::size_t agree = 0, total = 0, blockedTotal = 0, agreeWeighted = 0, weightsMatter = 0;
    for (int scene = 0; scene < 12; ++scene)
    {
        VisibilityReference reference;
        std::vector<std::string> wkts;
        for (int i = 0; i < 10; ++i) // river-like segments
        {
            const Point a{unit(generator) * 1000, unit(generator) * 1000};
            const double angle = unit(generator) * 6.283, length = 50 + unit(generator) * 250;
            const Point b{a.x + length * std::cos(angle), a.y + length * std::sin(angle)};
            reference.segments.push_back({a, b});
            reference.vertices.push_back(a);
            reference.vertices.push_back(b);
        }
        for (int i = 0; i < 5; ++i) // rotated rectangles: lakes
        {
            const Point c{unit(generator) * 1000, unit(generator) * 1000};
            const double w = 20 + unit(generator) * 70, h = 20 + unit(generator) * 70,
                         t = unit(generator) * 3.1416;
            std::vector<Point> ring;
            for (const auto& [u, v] :
                 {std::pair{-1.0, -1.0}, std::pair{1.0, -1.0}, std::pair{1.0, 1.0}, std::pair{-1.0, 1.0}})
                ring.push_back({c.x + u * w * std::cos(t) - v * h * std::sin(t),
                                c.y + u * w * std::sin(t) + v * h * std::cos(t)});
            ring.push_back(ring.front());
            for (std::size_t k = 0; k + 1 < ring.size(); ++k)
            {
                reference.segments.push_back({ring[k], ring[k + 1]});
                reference.vertices.push_back(ring[k]);
            }
            reference.polygons.push_back(ring);
        }
        std::vector<Segment> engineSegments = reference.segments;
        const auto freePoint = [&]()
        {
            Point p;
            do
            {
                p = {unit(generator) * 1000, unit(generator) * 1000};
            } while (reference.insideObstacle(p));
            return p;
        };
        std::vector<Point> points, sites;
        for (int i = 0; i < 400; ++i)
            points.push_back(freePoint());
        for (int i = 0; i < 8; ++i)
            sites.push_back(freePoint());
        const std::vector<Count> weights(points.size(), 1);
        SpatialContext spatial;
        spatial.obstacles = std::make_shared<Obstacles>(engineSegments);
        Feedback feedback;
        const Partition engine = GeodesicPartitioner().partition({points, weights, spatial}, sites, feedback);
        // The same sites with power weights up to (150)², about half their spacing.
        std::vector<double> power;
        for (std::size_t s = 0; s < sites.size(); ++s)
            power.push_back((unit(generator) - 0.5) * 45000.0);
        const Partition weighted =
            GeodesicPartitioner().partition({points, weights, spatial}, Sites(sites, power), feedback);

        std::vector<std::vector<double>> viaVertices;
        for (const Point& s : sites)
            viaVertices.push_back(reference.fromSource(s));
        for (std::size_t i = 0; i < points.size(); ++i)
        {
            double best = std::numeric_limits<double>::infinity(),
                   bestPower = std::numeric_limits<double>::infinity();
            SiteIndex bestSite = 0, bestPowerSite = 0;
            for (SiteIndex s = 0; s < sites.size(); ++s)
            {
                double d = reference.visible(points[i], sites[s])
                               ? std::sqrt(squaredDistance(points[i], sites[s]))
                               : std::numeric_limits<double>::infinity();
                for (std::size_t v = 0; v < reference.vertices.size(); ++v)
                    if (!std::isinf(viaVertices[s][v]) && reference.visible(points[i], reference.vertices[v]))
                        d = std::min(d, std::sqrt(squaredDistance(points[i], reference.vertices[v])) +
                                            viaVertices[s][v]);
                if (d < best)
                {
                    best = d;
                    bestSite = s;
                }
                if (d * d - power[s] < bestPower)
                {
                    bestPower = d * d - power[s];
                    bestPowerSite = s;
                }
            }
            SiteIndex euclidean = 0;
            for (SiteIndex s = 1; s < sites.size(); ++s)
                if (squaredDistance(points[i], sites[s]) < squaredDistance(points[i], sites[euclidean]))
                    euclidean = s;
            blockedTotal += !reference.visible(points[i], sites[euclidean]);
            agree += engine.regionSite[i] == bestSite;
            agreeWeighted += weighted.regionSite[i] == bestPowerSite;
            weightsMatter += bestPowerSite != bestSite;
            ++total;
        }
    }
    const double share = double(agree) / double(total);
    std::cout << "geodesic: " << agree << " of " << total << " points agree with the exact reference ("
              << share * 100 << " %); " << blockedTotal
              << " points were blocked from their Euclidean-nearest site\n";
    const double shareWeighted = double(agreeWeighted) / double(total);
    std::cout << "geodesic with weights: " << agreeWeighted << " of " << total << " agree ("
              << shareWeighted * 100 << " %); the weights change the exact answer of " << weightsMatter
              << " points\n";
    EXPECT_GE(share, 0.995);
    EXPECT_GE(shareWeighted, 0.995);
    EXPECT_GT(weightsMatter, total / 10);
    EXPECT_GT(blockedTotal, total / 50) << "the scenes should block enough points to test the fallback";
}

TEST(ContiguityRepair, LeavesEveryAggregateInOnePieceButIslands)
{
    // Long thin regions: Voronoi of their points strands pieces. Strips of 1 x 30 cells in two
    // layers, plus one square far away (an island).
    RegionGeometries geometries;
    std::vector<Point> points;
    std::mt19937_64 generator(4);
    for (int i = 0; i < 30; ++i)
        for (int layer = 0; layer < 2; ++layer)
        {
            addWkt(geometries, "POLYGON ((" + std::to_string(i) + " " + std::to_string(layer * 30) + ", " +
                                   std::to_string(i + 1) + " " + std::to_string(layer * 30) + ", " +
                                   std::to_string(i + 1) + " " + std::to_string(layer * 30 + 30) + ", " +
                                   std::to_string(i) + " " + std::to_string(layer * 30 + 30) + ", " +
                                   std::to_string(i) + " " + std::to_string(layer * 30) + "))");
            // Points near one end of the strip, alternating, so cells cut strips apart.
            points.push_back({i + 0.5, layer * 30 + ((i + layer) % 2 == 0 ? 2.0 : 28.0) +
                                           double(generator() % 100) / 100.0});
        }
    addWkt(geometries, square(100, 100, 1));
    points.push_back({100.5, 100.5});
    const std::vector<Count> weights(points.size(), 10);
    Feedback feedback;
    SpatialContext spatial;
    spatial.adjacency = std::make_shared<RegionAdjacency>(RegionAdjacency::build(geometries, 1e-6, feedback));
    std::vector<Point> sites;
    for (int s = 0; s < 9; ++s)
        sites.push_back({double(generator() % 300) / 10.0, double(generator() % 600) / 10.0});
    Partition partition = VoronoiPartitioner().partition({points, weights, spatial}, sites, feedback);

    const auto parts = [&](const std::vector<SiteIndex>& regionSite)
    {
        std::vector<std::size_t> result;
        for (const DissolvedAggregate& d :
             dissolve(geometries, groupsOf({regionSite.begin(), regionSite.end()}, sites.size()), feedback))
            result.push_back(d.parts);
        return result;
    };
    const std::vector<std::size_t> before = parts(partition.regionSite);
    EXPECT_GT(*std::max_element(before.begin(), before.end()), 2u) << "the scene should strand pieces";
    const ContiguityReport report = repairContiguity(*spatial.adjacency, weights, {}, partition.regionSite);
    EXPECT_GT(report.regionsMoved, 0u);
    EXPECT_EQ(report.islandPieces, 1u);
    const SiteIndex islandSite = partition.regionSite.back();
    const std::vector<std::size_t> after = parts(partition.regionSite);
    for (std::size_t s = 0; s < after.size(); ++s)
        if (after[s] > 0)
        {
            EXPECT_EQ(after[s], s == islandSite ? 2u : 1u) << "site " << s;
        }
}

// The power partition (SPEC section 11) against brute force: every region to the site with the
// least squared distance minus weight, ties to the lowest site index, recounted here in exact
// integer arithmetic (coordinates and weights are small integers, so nothing rounds).

#include "geometry/RegionGeometries.h"
#include "geometry/VoronoiCells.h"
#include "partition/PowerTriangulation.h"
#include "partition/VoronoiPartitioner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace vbas;

namespace
{
/** The brute-force power site of q: exact in 64-bit integers. */
SiteIndex bruteForce(const Point& q, const std::vector<Point>& sites, const std::vector<double>& weights)
{
    SiteIndex best = 0;
    long long bestPower = 0;
    for (SiteIndex s = 0; s < sites.size(); ++s)
    {
        const long long dx = (long long)(q.x - sites[s].x), dy = (long long)(q.y - sites[s].y);
        const long long power = dx * dx + dy * dy - (long long)weights[s];
        if (s == 0 || power < bestPower)
            best = s, bestPower = power;
    }
    return best;
}

} // namespace

TEST(PowerDiagram, EqualsBruteForceWithTiesOnIntegerGrids)
{
    std::mt19937_64 generator(11);
    std::size_t ties = 0;
    for (int scene = 0; scene < 60; ++scene)
    {
        // Regions on a 30 x 30 integer grid; 3-40 sites on grid points, some with the same weight
        // (Voronoi-like ties along whole bisectors), some weighted.
        std::vector<Point> points;
        for (int x = 0; x < 30; ++x)
            for (int y = 0; y < 30; ++y)
                points.push_back({double(x), double(y)});
        const std::size_t count = 3 + generator() % 38;
        std::vector<Point> sites;
        std::vector<double> weights;
        while (sites.size() < count)
        {
            const Point p{double(generator() % 30), double(generator() % 30)};
            if (std::find(sites.begin(), sites.end(), p) != sites.end())
                continue;
            sites.push_back(p);
            weights.push_back(scene % 3 == 0 ? 0.0
                                             : double(int(generator() % 41) - 20) * (scene % 2 ? 1.0 : 4.0));
        }
        const std::vector<Count> recordCounts(points.size(), 1);
        const PartitionInput input{points, recordCounts, {}};
        Feedback feedback;
        const Partition partition = VoronoiPartitioner().partition(input, Sites(sites, weights), feedback);
        for (RegionIndex r = 0; r < points.size(); ++r)
        {
            const SiteIndex expected = bruteForce(points[r], sites, weights);
            ASSERT_EQ(partition.regionSite[r], expected)
                << "scene " << scene << " region (" << points[r].x << ", " << points[r].y << ")";
            // Count the regions with an exact tie between two or more sites.
            std::size_t equal = 0;
            for (SiteIndex s = 0; s < sites.size(); ++s)
                equal +=
                    comparePower(points[r], sites[s], weights[s], sites[expected], weights[expected]) == 0;
            ties += equal > 1;
        }
    }
    EXPECT_GT(ties, 1000u) << "the scenes should exercise ties";
}

TEST(PowerDiagram, ZeroWeightsAreTheVoronoiPartition)
{
    std::mt19937_64 generator(5);
    std::vector<Point> points, sites;
    for (int i = 0; i < 3000; ++i)
        points.push_back({double(generator() % 100000) / 7.0, double(generator() % 100000) / 7.0});
    for (int i = 0; i < 80; ++i)
        sites.push_back({double(generator() % 100000) / 7.0, double(generator() % 100000) / 7.0});
    const std::vector<Count> recordCounts(points.size(), 1);
    const PartitionInput input{points, recordCounts, {}};
    Feedback feedback;
    const Partition plain = VoronoiPartitioner().partition(input, sites, feedback);
    EXPECT_TRUE(plain.weights.empty());
    const Partition zero =
        VoronoiPartitioner().partition(input, Sites(sites, std::vector<double>(sites.size(), 0.0)), feedback);
    EXPECT_TRUE(zero.weights.empty()) << "all-zero weights are no weights";
    EXPECT_EQ(zero.regionSite, plain.regionSite);
    // A heavier site reaches further: one unit of weight moves the bisector by 1 / (2 d).
    std::vector<double> weights(sites.size(), 0.0);
    weights[0] = 1e7;
    const Partition heavy = VoronoiPartitioner().partition(input, Sites(sites, weights), feedback);
    std::size_t before = 0, after = 0;
    for (RegionIndex r = 0; r < points.size(); ++r)
    {
        before += plain.regionSite[r] == 0;
        after += heavy.regionSite[r] == 0;
        if (plain.regionSite[r] == 0)
        {
            EXPECT_EQ(heavy.regionSite[r], 0u) << "a heavier site keeps its regions";
        }
        EXPECT_EQ(heavy.regionSite[r], bruteForce(points[r], sites, weights) == 0 ? 0u : plain.regionSite[r]);
    }
    EXPECT_GT(after, before);
}

TEST(PowerDiagram, WeightsThatAreNotOneFiniteNumberPerSiteAreRefused)
{
    const std::vector<Point> points{{0, 0}, {10, 0}};
    const std::vector<Count> recordCounts{1, 1};
    const PartitionInput input{points, recordCounts, {}};
    Feedback feedback;
    EXPECT_THROW(VoronoiPartitioner().partition(input, Sites({{0, 0}, {10, 0}}, {1.0}), feedback), Error)
        << "one weight for two sites";
    EXPECT_THROW(
        VoronoiPartitioner().partition(input, Sites({{0, 0}, {10, 0}}, {1.0, std::nan("")}), feedback),
        Error);
}

TEST(PowerDiagram, CellsAreThePowerCells)
{
    // Two sites 10 apart with weights 0 and 40: the bisector x² − (x − 10)² + 40 = 0 sits at x = 3.
    const std::vector<Point> sites{{0, 0}, {10, 0}};
    const auto cells = voronoiCells(sites, {0.0, 40.0});
    ASSERT_EQ(cells.size(), 2u);
    double leftMaxX = -1e300, rightMinX = 1e300;
    for (const Point& p : cells[0])
        leftMaxX = std::max(leftMaxX, p.x);
    for (const Point& p : cells[1])
        rightMinX = std::min(rightMinX, p.x);
    EXPECT_NEAR(leftMaxX, 3.0, 1e-6);
    EXPECT_NEAR(rightMinX, 3.0, 1e-6);
    // A site swallowed by a far heavier neighbour has no cell.
    const auto hidden = voronoiCells({{0, 0}, {1, 0}, {20, 0}}, {0.0, -1000.0, 0.0});
    EXPECT_TRUE(hidden[1].empty());
    EXPECT_FALSE(hidden[0].empty());
}

namespace
{
/**
 * 120 sites over a 40 x 40 grid of regions, most of them inside the hull, where a change looks only at the
 * regions near the site's new cell: every move and weight change (with `weighted`), kept or undone, against
 * brute force.
 */
void expectIncrementalChangesEqualBruteForce(bool weighted)
{
    std::mt19937_64 generator(23);
    std::vector<Point> points;
    for (int x = 0; x < 40; ++x)
        for (int y = 0; y < 40; ++y)
            points.push_back({double(x), double(y)});
    std::vector<Point> sites;
    std::vector<double> weights;
    const auto randomWeight = [&]
    {
        return weighted ? double(int(generator() % 61) - 30) : 0.0;
    };
    while (sites.size() < 120)
    {
        const Point p{double(generator() % 40), double(generator() % 40)};
        if (std::find(sites.begin(), sites.end(), p) == sites.end())
            sites.push_back(p), weights.push_back(randomWeight());
    }
    const std::vector<Count> recordCounts(points.size(), 1);
    const PartitionInput input{points, recordCounts, {}};
    Feedback feedback;
    const std::unique_ptr<IncrementalPartition> partition =
        VoronoiPartitioner().incremental(input, Sites(sites, weights), feedback);
    std::vector<IncrementalPartition::Change> changes;
    std::size_t moved = 0, tiesAfterChanges = 0;
    for (int step = 0; step < 3000; ++step)
    {
        const SiteIndex s = SiteIndex(generator() % sites.size());
        changes.clear();
        const bool reweigh = weighted && generator() % 3 == 0;
        const Point previous = partition->sites()[s];
        const double previousWeight = partition->weights()[s];
        if (reweigh)
            partition->reweigh(s, randomWeight(), changes);
        else
        {
            // Near the old place mostly, so that the site stays inside; sometimes anywhere.
            const bool far = generator() % 5 == 0;
            const Point target =
                far ? Point{double(generator() % 40), double(generator() % 40)}
                    : Point{std::clamp(previous.x + double(int(generator() % 7) - 3), 0.0, 39.0),
                            std::clamp(previous.y + double(int(generator() % 7) - 3), 0.0, 39.0)};
            if (!partition->move(s, target, changes))
                continue;
        }
        moved += !changes.empty();
        const bool undo = generator() % 2 == 0;
        if (undo)
        {
            if (reweigh)
                partition->undoReweigh(s, previousWeight, changes);
            else
                partition->undo(s, previous, changes);
        }
        for (RegionIndex r = 0; r < points.size(); ++r)
        {
            const SiteIndex expected = bruteForce(points[r], partition->sites(), partition->weights());
            ASSERT_EQ(partition->regionSite()[r], expected)
                << "step " << step << (undo ? " (undone)" : "") << " region (" << points[r].x << ", "
                << points[r].y << ")";
            tiesAfterChanges +=
                comparePower(points[r], partition->sites()[expected], partition->weights()[expected],
                             partition->sites()[s], partition->weights()[s]) == 0 &&
                expected != s;
        }
    }
    EXPECT_GT(moved, 1000u) << "the changes should move regions";
    EXPECT_GT(tiesAfterChanges, 100u) << "the changes should make ties with the changed site";
}
} // namespace

TEST(PowerDiagram, IncrementalChangesEqualBruteForceWithTiesOnIntegerGrids)
{
    expectIncrementalChangesEqualBruteForce(true);
}

TEST(PowerDiagram, ARegionWhereFourSitesTieGoesToTheLowestOfTheOthersWhenItsSiteLeaves)
{
    // Sites 0, 2 and 3 about the origin, site 1 brought in last opposite site 0: the triangulation has no
    // edge 0-1, yet when site 0 leaves, the origin (equally near to all four, so site 0's) goes to site 1.
    std::vector<Point> sites{{1.0, 0.0}, {-6.0, 5.0}, {0.0, 1.0}, {0.0, -1.0}};
    for (const Point& ring :
         std::vector<Point>{{10, 3}, {3, 10}, {-3, 10}, {-10, 3}, {-10, -3}, {-3, -10}, {3, -10}, {10, -3}})
        sites.push_back(ring); // around them, so that every site moved is inside the hull
    // Few regions, so that no region of site 1 lies where it ties with another site before its move.
    const std::vector<Point> points{{0, 0}, {7, 0}, {0, -7}, {-8, 8}};
    const RegionIndex origin = 0;
    const std::vector<Count> recordCounts(points.size(), 1);
    const PartitionInput input{points, recordCounts, {}};
    Feedback feedback;
    const std::unique_ptr<IncrementalPartition> partition = VoronoiPartitioner().incremental(
        input, Sites(sites, std::vector<double>(sites.size(), 0.0)), feedback);
    std::vector<IncrementalPartition::Change> changes;
    ASSERT_TRUE(partition->move(1, {-1.0, 0.0}, changes));
    EXPECT_EQ(partition->regionSite()[origin], 0u);
    changes.clear();
    ASSERT_TRUE(partition->move(0, {3.0, 0.0}, changes));
    EXPECT_EQ(partition->regionSite()[origin], 1u);
    for (RegionIndex r = 0; r < points.size(); ++r)
        ASSERT_EQ(partition->regionSite()[r], bruteForce(points[r], partition->sites(), partition->weights()))
            << "region (" << points[r].x << ", " << points[r].y << ")";
}

TEST(PowerDiagram, NeighboursAfterChangesAreThoseOfAFreshTriangulation)
{
    // Sites and regions anywhere (no ties, so that one triangulation is right): after every kept or undone
    // change, the neighbours of every site are those of a triangulation made anew.
    std::mt19937_64 generator(5);
    std::uniform_real_distribution<double> coordinate(0.0, 1000.0), weight(-2000.0, 2000.0);
    std::vector<Point> points(3000), sites(80);
    for (Point& p : points)
        p = {coordinate(generator), coordinate(generator)};
    for (Point& p : sites)
        p = {coordinate(generator), coordinate(generator)};
    std::vector<double> weights(sites.size());
    for (double& w : weights)
        w = weight(generator);
    const std::vector<Count> recordCounts(points.size(), 1);
    const PartitionInput input{points, recordCounts, {}};
    Feedback feedback;
    const std::unique_ptr<IncrementalPartition> partition =
        VoronoiPartitioner().incremental(input, Sites(sites, weights), feedback);
    std::vector<IncrementalPartition::Change> changes;
    std::vector<SiteIndex> around, expected;
    std::size_t moved = 0;
    for (int step = 0; step < 400; ++step)
    {
        const SiteIndex s = SiteIndex(generator() % sites.size());
        const Point previous = partition->sites()[s];
        changes.clear();
        ASSERT_TRUE(partition->move(s,
                                    {previous.x + coordinate(generator) / 20.0 - 25.0,
                                     previous.y + coordinate(generator) / 20.0 - 25.0},
                                    changes));
        moved += !changes.empty();
        if (generator() % 2 == 0)
            partition->undo(s, previous, changes);
        const PowerTriangulation fresh(partition->sites(), partition->weights());
        for (SiteIndex t = 0; t < sites.size(); ++t)
        {
            around.clear();
            expected.clear();
            partition->neighbours(t, around);
            fresh.neighbours(t, expected);
            std::sort(around.begin(), around.end());
            std::sort(expected.begin(), expected.end());
            ASSERT_EQ(around, expected) << "site " << t << " after step " << step;
        }
        for (RegionIndex r = 0; r < points.size(); r += 7)
            ASSERT_EQ(partition->regionSite()[r], fresh.nearestSite(points[r], partition->regionSite()[r]));
    }
    EXPECT_GT(moved, 100u) << "the moves should move regions";
}

TEST(PowerDiagram, IncrementalMovesEqualBruteForceWhereFourSitesOrMoreTie)
{
    // Unweighted sites on integer points: many regions lie where four sites or more are equally near, so that
    // a site moving away hands such a region to one it shares no edge with.
    expectIncrementalChangesEqualBruteForce(false);
}

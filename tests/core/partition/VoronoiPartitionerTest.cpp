#include "partition/VoronoiPartitioner.h"
#include "partition/SiteTriangulation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace vbas;

namespace
{
/** Reference: nearest site by brute force, ties to the lowest index. */
SiteIndex bruteForceNearest(const std::vector<Point>& sites, const Point& q)
{
    SiteIndex best = 0;
    for (SiteIndex s = 1; s < sites.size(); ++s)
        if (squaredDistance(q, sites[s]) < squaredDistance(q, sites[best]))
            best = s;
    return best;
}

void expectBruteForce(const std::vector<Point>& sites, const std::vector<Point>& queries)
{
    Feedback feedback;
    const std::vector<Count> weights(queries.size(), 1);
    const std::vector<SiteIndex> nearest =
        VoronoiPartitioner().partition({queries, weights, {}}, sites, feedback).regionSite;
    ASSERT_EQ(nearest.size(), queries.size());
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < queries.size(); ++i)
        if (nearest[i] != bruteForceNearest(sites, queries[i]))
            ++mismatches;
    EXPECT_EQ(mismatches, 0u);
}
} // namespace

TEST(VoronoiPartitioner, EqualsBruteForceOnRandomScenes)
{
    std::mt19937_64 generator(2024);
    std::uniform_real_distribution<double> coordinate(-1000.0, 1000.0);
    for (int scene = 0; scene < 20; ++scene)
    {
        std::vector<Point> sites(1 + generator() % 300);
        for (Point& s : sites)
            s = {coordinate(generator), coordinate(generator)};
        std::vector<Point> queries(5000);
        for (Point& q : queries)
            q = {coordinate(generator), coordinate(generator)};
        expectBruteForce(sites, queries);
    }
}

TEST(VoronoiPartitioner, ExactTiesGoToTheLowerSiteIndex)
{
    // Integer grids make many exact ties (queries on bisectors and at co-circular centres).
    std::vector<Point> sites;
    for (int x = 0; x < 10; ++x)
        for (int y = 0; y < 10; ++y)
            sites.push_back({double(2 * x), double(2 * y)});
    std::mt19937 generator(5);
    std::shuffle(sites.begin(), sites.end(), generator); // the lowest index is not the first inserted
    std::vector<Point> queries;
    for (int x = -2; x <= 20; ++x)
        for (int y = -2; y <= 20; ++y)
            queries.push_back({double(x), double(y)});
    expectBruteForce(sites, queries);
}

TEST(VoronoiPartitioner, DuplicateSitesBelongToTheLowestIndex)
{
    const std::vector<Point> sites{{5, 5}, {0, 0}, {5, 5}, {0, 0}};
    expectBruteForce(sites, {{4, 4}, {1, 1}, {5, 5}, {0, 0}, {2.5, 2.5}});
}

TEST(VoronoiPartitioner, DegenerateSiteSets)
{
    expectBruteForce({{3, 3}}, {{0, 0}, {10, -4}});
    // Collinear sites: a one-dimensional triangulation.
    std::vector<Point> line;
    for (int i = 0; i < 50; ++i)
        line.push_back({double(i), 2.0 * i});
    std::vector<Point> queries;
    for (int i = -10; i < 120; ++i)
        queries.push_back({i * 0.5, (i % 7) * 3.0});
    expectBruteForce(line, queries);
}

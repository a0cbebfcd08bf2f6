#include "Pipeline.h"
#include "TestSupport.h"
#include "sitelocation/BalancedDensitySites.h"
#include "sitelocation/GridShape.h"
#include "sitelocation/NaiveAnonymitySites.h"
#include "sitelocation/NaiveDensitySites.h"
#include "sitelocation/RandomSites.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::qi;

namespace
{
struct WeightedPoint
{
    double x, y;
    std::int64_t records; // 0: a region without records
};

/** Regions at the given points, each with `records` records of one class. */
Dataset regionsAt(const std::vector<WeightedPoint>& points)
{
    DatasetBuilder builder({qi("c")});
    builder.weighted();
    for (std::size_t i = 0; i < points.size(); ++i)
    {
        builder.region(std::to_string(i), points[i].x, points[i].y);
        if (points[i].records > 0)
            builder.records(std::to_string(i), {0}, points[i].records);
    }
    return builder.build();
}

RegionSet regionSetOf(const Dataset& dataset)
{
    return RegionSet(dataset, dataset.regionHistograms());
}

std::vector<std::pair<double, double>> sorted(const std::vector<Point>& sites)
{
    std::vector<std::pair<double, double>> out;
    for (const Point& p : sites)
        out.emplace_back(p.x, p.y);
    std::sort(out.begin(), out.end());
    return out;
}

void expectSites(const std::vector<Point>& actual, std::vector<std::pair<double, double>> expected)
{
    std::sort(expected.begin(), expected.end());
    const auto got = sorted(actual);
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i)
    {
        EXPECT_NEAR(got[i].first, expected[i].first, 1e-9) << "site " << i;
        EXPECT_NEAR(got[i].second, expected[i].second, 1e-9) << "site " << i;
    }
}
} // namespace

TEST(GridShape, SevenSitesAtRatio1Point6Make2By3) // thesis Fig. 5
{
    const GridShape shape = gridShape(7, 16.0, 10.0);
    EXPECT_EQ(shape.rows, 2u);
    EXPECT_EQ(shape.columns, 3u);
}

TEST(NaiveDensitySites, AllocatesByDensityAndFractionalParts)
{
    // Box 16 x 10 (ratio 1.6), 7 sites: 2 x 3 cells of 16/3 x 5. Points per cell (row-major from
    // the bottom left): 4, 2, 0, 3, 2, 1; p' = 12 / 6 = 2; d = 2, 1, 0, 1.5, 1, 0.5; floors give 5
    // sites, the two left go to the cells with fraction .5 (cell 3, then cell 5).
    const Dataset dataset = regionsAt({{0, 0, 1},
                                       {1, 1, 1},
                                       {2, 2, 1},
                                       {3, 3, 1},
                                       {6, 1, 1},
                                       {7, 2, 1},
                                       {1, 6, 1},
                                       {2, 7, 1},
                                       {3, 8, 1},
                                       {6, 6, 1},
                                       {7, 7, 1},
                                       {16, 10, 1}});
    const RegionSet regions = regionSetOf(dataset);
    Feedback feedback;
    const std::vector<Point> sites = NaiveDensitySites().locate(regions, 7, feedback);
    // Two sites in a 16/3 x 5 cell: a 1 x 2 sub-grid, centres at 1/4 and 3/4 of its width.
    const double w = 16.0 / 3.0;
    expectSites(sites, {{w / 4, 2.5},
                        {3 * w / 4, 2.5},
                        {w * 1.5, 2.5},
                        {w / 4, 7.5},
                        {3 * w / 4, 7.5},
                        {w * 1.5, 7.5},
                        {w * 2.5, 7.5}});
}

TEST(NaiveDensitySites, TallBoxesSwapAxes)
{
    // The same scene transposed gives the transposed sites.
    const Dataset dataset = regionsAt({{0, 0, 1},
                                       {1, 1, 1},
                                       {2, 2, 1},
                                       {3, 3, 1},
                                       {1, 6, 1},
                                       {2, 7, 1},
                                       {6, 1, 1},
                                       {7, 2, 1},
                                       {8, 3, 1},
                                       {6, 6, 1},
                                       {7, 7, 1},
                                       {10, 16, 1}});
    const RegionSet regions = regionSetOf(dataset);
    Feedback feedback;
    const std::vector<Point> sites = NaiveDensitySites().locate(regions, 7, feedback);
    const double w = 16.0 / 3.0;
    expectSites(sites, {{2.5, w / 4},
                        {2.5, 3 * w / 4},
                        {2.5, w * 1.5},
                        {7.5, w / 4},
                        {7.5, 3 * w / 4},
                        {7.5, w * 1.5},
                        {7.5, w * 2.5}});
}

TEST(BalancedDensitySites, SevenSitesUseThreeRows) // thesis Fig. 6
{
    EXPECT_EQ(BalancedDensitySites::plannedRows(7), 3u);
    // 7 x 3 points of one record each: rows of 7 points; 7 cells apportioned 3, 2, 2 (equal
    // remainders, lowest row first). Row 0: ideal round(7/3) = 2 -> {0,1} {2,3} {4,5,6}; rows 1
    // and 2: ideal round(3.5) = 4 -> {0..3} {4..6}.
    std::vector<WeightedPoint> points;
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 7; ++x)
            points.push_back({double(x), double(y), 1});
    const Dataset dataset = regionsAt(points);
    Feedback feedback;
    const std::vector<Point> sites =
        BalancedDensitySites(CellCentre::Mean).locate(regionSetOf(dataset), 7, feedback);
    expectSites(sites, {{0.5, 0}, {2.5, 0}, {5, 0}, {1.5, 1}, {5, 1}, {1.5, 2}, {5, 2}});
    std::set<double> rows;
    for (const Point& p : sites)
        rows.insert(p.y);
    EXPECT_EQ(rows.size(), 3u);
}

TEST(BalancedDensitySites, CrossingPointStartsTheNextRowWhenThatIsCloser)
{
    // Weights 6, 9, 5 up a line, s = 2 -> 2 rows, ideal 10. At the second point the row would hold
    // 15: 15 - 10 = 5 > 10 - 6 = 4, so it starts the next row. Rows {6}, {9, 5}.
    const Dataset dataset = regionsAt({{0, 0, 6}, {0, 1, 9}, {0, 2, 5}});
    Feedback feedback;
    const RegionSet regions = regionSetOf(dataset);
    expectSites(BalancedDensitySites(CellCentre::Mean).locate(regions, 2, feedback), {{0, 0}, {0, 1.5}});
    expectSites(BalancedDensitySites(CellCentre::WeightedMean).locate(regions, 2, feedback),
                {{0, 0}, {0, 19.0 / 14.0}});
    expectSites(BalancedDensitySites(CellCentre::Median).locate(regions, 2, feedback), {{0, 0}, {0, 1.5}});
}

TEST(BalancedDensitySites, OnePointCellsCannotSplitSoFewerSitesAreReported)
{
    // s = 3 -> 2 rows; a heavy point fills row 0 alone; largest remainder gives it 3 cells, the
    // minimum of one cell for row 1 leaves it 2; it cannot split, so 2 sites come back.
    const Dataset dataset = regionsAt({{1, 0, 100}, {0, 1, 1}, {1, 1, 1}, {2, 1, 1}});
    vbas::test::RecordingFeedback feedback;
    const std::vector<Point> sites =
        BalancedDensitySites(CellCentre::Mean).locate(regionSetOf(dataset), 3, feedback);
    expectSites(sites, {{1, 0}, {1, 1}});
    ASSERT_EQ(feedback.warnings.size(), 1u);
    EXPECT_NE(feedback.warnings[0].find("2 of 3"), std::string::npos);
}

TEST(BalancedDensitySites, ShortRowsSplitTheirMostPopulousCell)
{
    // Weights 0, 0, 4 along y = 0, s = 2: 2 rows planned, ideal 2. The walk reaches 4 at the third
    // point with 0 before it (4 - 2 <= 2 - 0), keeps it and ends: one row of 3 points given both
    // cells. Its cut yields one cell, which splits at the weighted median, the heavy point.
    const Dataset dataset = regionsAt({{0, 0, 0}, {1, 0, 0}, {2, 0, 4}});
    Feedback feedback;
    const std::vector<Point> sites =
        BalancedDensitySites(CellCentre::Mean).locate(regionSetOf(dataset), 2, feedback);
    expectSites(sites, {{0.5, 0}, {2, 0}});
}

TEST(NaiveAnonymitySites, LowestAnonymityFirstThenMoreClassesThenInputOrder)
{
    DatasetBuilder builder({qi("c")});
    builder.region("a", 0, 0).records("a", {0}, 3);                      // anonymity 3
    builder.region("b", 1, 0).records("b", {0}, 1).records("b", {1}, 5); // 1, one class at 1
    builder.region("c", 2, 0);                                           // no records: last
    builder.region("d", 3, 0).records("d", {0}, 1).records("d", {1}, 1); // 1, two classes at 1
    builder.region("e", 4, 0).records("e", {0}, 1);                      // 1, one class, after b
    const Dataset dataset = builder.build();
    Feedback feedback;
    const RegionSet regions(dataset, dataset.regionHistograms());
    const std::vector<Point> sites = NaiveAnonymitySites().locate(regions, 5, feedback);
    ASSERT_EQ(sites.size(), 5u);
    const std::vector<double> xs{sites[0].x, sites[1].x, sites[2].x, sites[3].x, sites[4].x};
    EXPECT_EQ(xs, (std::vector<double>{3, 1, 4, 0, 2}));
}

TEST(RandomSites, SeededAndInsideTheBox)
{
    const Dataset dataset = regionsAt({{-5, 2, 1}, {10, 7, 1}, {3, 3, 1}});
    const RegionSet regions = regionSetOf(dataset);
    Feedback feedback;
    const auto a = RandomSites(42).locate(regions, 100, feedback);
    const auto b = RandomSites(42).locate(regions, 100, feedback);
    const auto c = RandomSites(43).locate(regions, 100, feedback);
    EXPECT_EQ(sorted(a), sorted(b));
    EXPECT_NE(sorted(a), sorted(c));
    for (const Point& p : a)
    {
        EXPECT_GE(p.x, -5);
        EXPECT_LT(p.x, 10);
        EXPECT_GE(p.y, 2);
        EXPECT_LT(p.y, 7);
    }
}

/** The SiteLocator contract, for every registered locator, on random scenes. */
class SiteLocatorContract : public ::testing::TestWithParam<std::string>
{
};

TEST_P(SiteLocatorContract, AtMostCountSitesInTheBoxAndDeterministic)
{
    const StrategyEntry<SiteLocator>& entry =
        Registry::find(Registry::builtIn().siteLocators, GetParam(), "locator");
    std::mt19937 generator(11);
    for (int scene = 0; scene < 40; ++scene)
    {
        std::vector<WeightedPoint> points;
        const int n = 1 + int(generator() % 60);
        for (int i = 0; i < n; ++i)
            points.push_back(
                {double(generator() % 50), double(generator() % 30), std::int64_t(generator() % 7)});
        points[0].records = 1;
        const Dataset dataset = regionsAt(points);
        const RegionSet regions = regionSetOf(dataset);
        const BoundingBox box = boundingBox(regions.points());
        StrategyOptions options;
        options.set("seed", double(scene));
        const std::size_t count = 1 + generator() % std::size_t(n + 5);
        Feedback feedback;
        const auto first = entry.create(options)->locate(regions, count, feedback);
        const auto second = entry.create(options)->locate(regions, count, feedback);
        EXPECT_LE(first.size(), count);
        EXPECT_FALSE(first.empty());
        EXPECT_EQ(sorted(first), sorted(second));
        for (const Point& p : first)
        {
            EXPECT_GE(p.x, box.minX);
            EXPECT_LE(p.x, box.maxX);
            EXPECT_GE(p.y, box.minY);
            EXPECT_LE(p.y, box.maxY);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllRegistered, SiteLocatorContract,
                         ::testing::ValuesIn(vbas::test::idsOf(Registry::builtIn().siteLocators)),
                         [](const auto& testInfo) { return vbas::test::testName(testInfo.param); });

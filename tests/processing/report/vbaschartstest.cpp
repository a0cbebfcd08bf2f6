// The binning and summaries behind the report's charts and the map's classes, on values worked out by
// hand.

#include "vbascharts.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

TEST(Charts, WholeNumbersGetOneBinPerValueStartingAtTheSmallest)
{
    const VbasCharts::Bins bins = VbasCharts::bins({5, 5, 6, 9, 14}, true);
    EXPECT_EQ(bins.edges, (QVector<double>{5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}));
    EXPECT_EQ(bins.counts, (QVector<int>{2, 1, 0, 0, 1, 0, 0, 0, 0, 1}));
    // About five classes of 5..14: steps of two from the smallest value.
    EXPECT_EQ(VbasCharts::bins({5, 14}, true, 5).edges, (QVector<double>{5, 7, 9, 11, 13, 15}));
}

TEST(Charts, OtherValuesGetRoundEdgesAndEveryValueOneBin)
{
    const VbasCharts::Bins bins = VbasCharts::bins({84, 372, 1026}, true);
    EXPECT_EQ(bins.edges.front(), 0);
    EXPECT_EQ(bins.edges[1], 100);
    EXPECT_EQ(bins.edges.back(), 1100);
    EXPECT_EQ(bins.counts[0] + bins.counts[3] + bins.counts[10], 3);
    // About five classes of 0.14..0.7: steps of 0.2 from 0, each edge first + i * step as computed.
    const VbasCharts::Bins fractions = VbasCharts::bins({0.14, 0.7, std::nan(""), 0.3}, false, 5);
    EXPECT_EQ(fractions.edges, (QVector<double>{0, 0.2, 0.2 * 2, 0.2 * 3, 0.2 * 4}));
    EXPECT_EQ(fractions.counts, (QVector<int>{1, 1, 0, 1}));
    int counted = 0;
    for (const int count : fractions.counts)
        counted += count;
    EXPECT_EQ(counted, 3) << "NaN has no bin";
}

TEST(Charts, ValuesThatDifferInTheirLastBitsStillEndInOneBin)
{
    const double a = 0.43215135906685037, b = std::nextafter(a, 1.0);
    const VbasCharts::Bins bins = VbasCharts::bins({a, b}, false);
    ASSERT_EQ(bins.counts.size(), 1);
    EXPECT_EQ(bins.counts[0], 2);
    const QString scatter =
        VbasCharts::scatter("x", "x", "y", "y", {{a, a, 1, true}, {b, b, 2, false}}, "p", "d");
    EXPECT_EQ(scatter.count("<circle class=\"point"), 2);
    EXPECT_TRUE(VbasCharts::bins({}, false).counts.isEmpty());
    EXPECT_TRUE(VbasCharts::bins({std::numeric_limits<double>::infinity()}, false).counts.isEmpty());
}

TEST(Charts, SummaryInterpolatesQuartiles)
{
    const VbasCharts::Summary five = VbasCharts::summary({4, 1, 3, 2});
    EXPECT_EQ(five.min, 1);
    EXPECT_EQ(five.q1, 1.75);
    EXPECT_EQ(five.median, 2.5);
    EXPECT_EQ(five.q3, 3.25);
    EXPECT_EQ(five.max, 4);
}

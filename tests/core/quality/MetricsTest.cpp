#include "Pipeline.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::qi;

namespace
{
/**
 * Four regions on a line, k = 2, one quasi-identifier with classes x, y, z (codes 0, 1, 2):
 *   A (0,0): x x y     B (3,0): x y z     C (10,0): x x x     D (11,0): y
 * Sites (-1,0) and (10,0): A, B -> aggregate 0; C, D -> aggregate 1.
 * Global: x 6, y 3, z 1 -> z (1 record, in B) withheld. Aggregate 0: x 3, y 2; aggregate 1: x 3,
 * y 1 -> y of D withheld locally.
 */
struct HandCase : ::testing::Test
{
    Dataset dataset = []
    {
        DatasetBuilder builder({qi("q")});
        builder.region("A", 0, 0).region("B", 3, 0).region("C", 10, 0).region("D", 11, 0);
        builder.records("A", {0}, 2).records("A", {1}).records("B", {0}).records("B", {1}).records("B", {2});
        builder.records("C", {0}, 3).records("D", {1});
        return builder.build();
    }();
    PipelineResult result = [this]
    {
        PipelineConfig config;
        config.k = 2;
        const Pipeline pipeline(config);
        Feedback feedback;
        const PreparedData data = pipeline.prepare(dataset, feedback);
        return pipeline.finish(data, std::vector<Point>{{-1, 0}, {10, 0}}, feedback);
    }();
};
} // namespace

TEST_F(HandCase, HeadlineMetrics)
{
    EXPECT_EQ(result.metric("quality.global_anonymity"), 1.0);                    // aggregate 1 has y once
    EXPECT_EQ(result.metric("quality.global_anonymity_after"), 2.0);              // aggregate 0: y twice
    EXPECT_DOUBLE_EQ(result.metric("quality.anonymity_deviation"), 0.5);          // ((2-2) + (3-2)) / 2
    EXPECT_DOUBLE_EQ(result.metric("quality.average_distance"), 1.5);             // (1 + 4 + 0 + 1) / 4
    EXPECT_DOUBLE_EQ(result.metric("quality.alternative_average_distance"), 1.0); // (1.5 1.5 .5 .5) / 4
    EXPECT_EQ(result.metric("quality.suppressed_global"), 1.0);
    EXPECT_EQ(result.metric("quality.suppressed_local"), 1.0);
    EXPECT_EQ(result.metric("quality.suppressed"), 2.0);
    EXPECT_DOUBLE_EQ(result.metric("quality.precision_loss"), 0.5);     // log2(2) / log2(4)
    EXPECT_EQ(result.metric("quality.discernibility"), 22.0);           // 3^2 + 2^2 + 3^2
    EXPECT_EQ(result.metric("quality.discernibility_penalized"), 42.0); // 22 + 10 * 2
    // Released: A 3, B 2 of aggregate 0's 5; C 3 of aggregate 1's 3.
    const double entropy = -(3 * std::log2(3.0 / 5.0) + 2 * std::log2(2.0 / 5.0) + 3 * std::log2(1.0));
    EXPECT_NEAR(result.metric("quality.non_uniform_entropy"), entropy, 1e-12);
    EXPECT_NEAR(entropy, 4.854753, 1e-6);
}

TEST_F(HandCase, PerAggregateFigures)
{
    ASSERT_EQ(result.aggregates.size(), 2u);
    const AggregateFigures& first = result.aggregates[0];
    EXPECT_EQ(first.memberRegions, 2u);
    EXPECT_EQ(first.recordsBefore, 5u);
    EXPECT_EQ(first.recordsReleased, 5u);
    EXPECT_EQ(first.recordsSuppressed, 0u);
    EXPECT_EQ(first.classesReleased, 2u);
    EXPECT_EQ(first.anonymityBefore, 2u);
    EXPECT_EQ(first.anonymityAfter, 2u);
    EXPECT_DOUBLE_EQ(first.meanDistance, 2.5);
    const AggregateFigures& second = result.aggregates[1];
    EXPECT_EQ(second.recordsBefore, 4u);
    EXPECT_EQ(second.recordsReleased, 3u);
    EXPECT_EQ(second.recordsSuppressed, 1u);
    EXPECT_EQ(second.classesReleased, 1u);
    EXPECT_EQ(second.anonymityBefore, 1u);
    EXPECT_EQ(second.anonymityAfter, 3u);
    EXPECT_DOUBLE_EQ(second.meanDistance, 0.5);
}

TEST_F(HandCase, RecordFates)
{
    // Rows in builder order: A x x y, B x y z, C x x x, D y.
    const std::vector<RecordFate> fates = recordFates(dataset, result);
    using F = RecordFate;
    EXPECT_EQ(fates, (std::vector<F>{F::Released, F::Released, F::Released, F::Released, F::Released,
                                     F::SuppressedGlobally, F::Released, F::Released, F::Released,
                                     F::SuppressedLocally}));
}

TEST(Metrics, PrecisionLossIsZeroForASingleRegion)
{
    DatasetBuilder builder({qi("q")});
    builder.region("A", 0, 0).records("A", {0}, 5);
    const Dataset dataset = builder.build();
    const Pipeline pipeline(PipelineConfig{});
    Feedback feedback;
    const PipelineResult result = pipeline.run(dataset, feedback);
    EXPECT_EQ(result.metric("quality.precision_loss"), 0.0);
    EXPECT_EQ(result.metric("quality.suppressed"), 0.0);
}

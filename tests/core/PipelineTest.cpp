#include "Pipeline.h"
#include "PropertyCheck.h"
#include "Sweep.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <random>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::qi;

namespace
{
/** A random scene: regions (some empty, some on the same point), schema, records, k, options. */
struct Scene
{
    DatasetBuilder builder;
    Count k;
    bool globalSuppression;
    std::uint64_t fixedCount;
    std::uint64_t seed;
};

Scene randomScene(std::mt19937_64& generator)
{
    const auto pick = [&](std::uint64_t n)
    {
        return generator() % n;
    };
    std::vector<QuasiIdentifier> qis;
    const std::size_t qiCount = pick(5);
    const bool huge = pick(6) == 0; // declared category counts far beyond 2^64 together
    std::vector<std::uint32_t> observed;
    for (std::size_t i = 0; i < qiCount; ++i)
    {
        qis.push_back(qi("q" + std::to_string(i), huge ? (std::uint64_t(1) << 40) : 0));
        observed.push_back(std::uint32_t(1 + pick(huge ? 40 : 5)));
    }
    Scene scene{DatasetBuilder(qis), 0, pick(2) == 0, 0, generator()};
    const bool weighted = pick(3) == 0;
    if (weighted)
        scene.builder.weighted();
    const std::size_t regions = 1 + pick(pick(4) == 0 ? 3 : 40);
    const bool samePoint = pick(10) == 0;
    for (std::size_t r = 0; r < regions; ++r)
        scene.builder.region("r" + std::to_string(r), samePoint ? 1.0 : double(pick(30)),
                             samePoint ? 1.0 : double(pick(20)));
    const std::size_t rows = 1 + pick(300);
    Count total = 0;
    for (std::size_t row = 0; row < rows; ++row)
    {
        std::vector<std::uint32_t> codes;
        for (std::uint32_t categories : observed)
            codes.push_back(std::uint32_t(pick(categories)));
        const std::int64_t count = weighted ? std::int64_t(1 + pick(5)) : 1;
        // Skewed towards few regions so that many regions stay empty.
        const std::size_t region = pick(2) == 0 ? pick(std::max<std::size_t>(1, regions / 3)) : pick(regions);
        scene.builder.records("r" + std::to_string(region), codes, count);
        total += Count(count);
    }
    scene.k = std::min<Count>(2 + pick(5), std::max<Count>(2, total));
    if (total < 2)
        scene.builder.records("r0", std::vector<std::uint32_t>(qiCount, 0));
    scene.fixedCount = 1 + pick(regions + 5);
    return scene;
}

struct Combination
{
    std::string counter;
    std::string locator;
};

void PrintTo(const Combination& combination, std::ostream* out)
{
    *out << combination.counter << " + " << combination.locator;
}

std::vector<Combination> allCombinations()
{
    std::vector<Combination> combinations;
    for (const auto& counter : Registry::builtIn().siteCounters)
        for (const auto& locator : Registry::builtIn().siteLocators)
            combinations.push_back({counter.id, locator.id});
    return combinations;
}
} // namespace

class GuaranteeProperty : public ::testing::TestWithParam<Combination>
{
};

TEST_P(GuaranteeProperty, HoldsOnRandomScenesAndIsDeterministic)
{
    std::mt19937_64 generator(std::hash<std::string>{}(GetParam().counter + GetParam().locator));
    for (int i = 0; i < 150; ++i)
    {
        Scene scene = randomScene(generator);
        SCOPED_TRACE("scene " + std::to_string(i));
        const Dataset dataset = scene.builder.build();
        PipelineConfig config;
        config.k = scene.k;
        config.globalSuppression = scene.globalSuppression;
        config.siteCounter = GetParam().counter;
        config.siteLocator = GetParam().locator;
        config.options.set("site_count", double(scene.fixedCount));
        config.options.set("seed", double(scene.seed));
        const Pipeline pipeline(config);
        Feedback feedback;
        const PipelineResult first = pipeline.run(dataset, feedback);
        ASSERT_NO_FATAL_FAILURE(vbas::test::expectGuarantee(scene.builder.table(), dataset, first, scene.k));
        EXPECT_LE(first.aggregation.size(), dataset.regionCount());

        const PipelineResult second = pipeline.run(dataset, feedback);
        EXPECT_EQ(first.aggregation.regionAggregate, second.aggregation.regionAggregate);
        EXPECT_EQ(recordFates(dataset, first), recordFates(dataset, second));
        ASSERT_EQ(first.partition.sites.size(), second.partition.sites.size());
        for (std::size_t s = 0; s < first.partition.sites.size(); ++s)
            EXPECT_EQ(first.partition.sites[s], second.partition.sites[s]);
    }
}

INSTANTIATE_TEST_SUITE_P(AllStrategies, GuaranteeProperty, ::testing::ValuesIn(allCombinations()),
                         [](const auto& testInfo) {
                             return vbas::test::testName(testInfo.param.counter + "_" +
                                                         testInfo.param.locator);
                         });

TEST(Pipeline, KMustBeAtLeastTwoAndAtMostTheRecords)
{
    DatasetBuilder builder({qi("q")});
    builder.region("A", 0, 0).records("A", {0}, 30);
    const Dataset dataset = builder.build();
    Feedback feedback;
    for (Count k : {Count(0), Count(1), Count(31)})
    {
        PipelineConfig config;
        config.k = k;
        try
        {
            Pipeline(config).prepare(dataset, feedback);
            ADD_FAILURE() << "k = " << k << " accepted";
        }
        catch (const Error& error)
        {
            EXPECT_EQ(error.subject(), Subject::K);
        }
    }
    PipelineConfig config;
    config.k = 30;
    EXPECT_NO_THROW(Pipeline(config).prepare(dataset, feedback));
}

TEST(Pipeline, PopulationFloorWithoutQuasiIdentifiers)
{
    // No quasi-identifiers: every aggregate must reach k records (here weighted populations).
    DatasetBuilder builder;
    builder.weighted();
    const std::int64_t populations[] = {9000, 12000, 3000, 25000, 7000, 8000, 15000, 4000};
    for (int r = 0; r < 8; ++r)
    {
        builder.region(std::to_string(r), r, r % 3);
        builder.records(std::to_string(r), {}, populations[r]);
    }
    const Dataset dataset = builder.build();
    PipelineConfig config;
    config.k = 20000;
    config.siteCounter = "sitecount.fixed";
    config.options.set("site_count", 3.0);
    Feedback feedback;
    const PipelineResult result = Pipeline(config).run(dataset, feedback);
    ASSERT_NO_FATAL_FAILURE(vbas::test::expectGuarantee(builder.table(), dataset, result, 20000));
    for (const AggregateFigures& figures : result.aggregates)
        EXPECT_TRUE(figures.recordsReleased == 0 || figures.recordsReleased >= 20000);
}

TEST(Sweep, SiteCountsAroundTheEstimate)
{
    // Thesis Table 7: 885 -> 707, 796, 885, 974, 1063; 350 -> 280 ... 420.
    EXPECT_EQ(sweepSiteCounts(885, {}, 4426), (std::vector<std::uint64_t>{707, 796, 885, 974, 1063}));
    EXPECT_EQ(sweepSiteCounts(350, {}, 4426), (std::vector<std::uint64_t>{280, 315, 350, 385, 420}));
    EXPECT_EQ(sweepSiteCounts(3, {}, 4), (std::vector<std::uint64_t>{1, 2, 3, 4}));
}

TEST(Sweep, MarksParetoOptimalRows)
{
    std::mt19937_64 generator(9);
    Scene scene = randomScene(generator);
    DatasetBuilder builder({qi("a"), qi("b")});
    for (int r = 0; r < 60; ++r)
    {
        builder.region(std::to_string(r), r % 10, r / 10);
        for (int i = 0; i < 20; ++i)
            builder.records(std::to_string(r),
                            {std::uint32_t(generator() % 3), std::uint32_t(generator() % 2)});
    }
    const Dataset dataset = builder.build();
    PipelineConfig config;
    config.siteCounter = "sitecount.fixed";
    config.options.set("site_count", 20.0);
    const Pipeline pipeline(config);
    Feedback feedback;
    std::vector<SweepRow> rows = sweep(pipeline, pipeline.prepare(dataset, feedback), {}, feedback);
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows.front().siteCount, 16u);
    EXPECT_EQ(rows.back().siteCount, 24u);
    // Independent dominance check over the objective vectors.
    for (const SweepRow& row : rows)
    {
        bool dominated = false;
        for (const SweepRow& other : rows)
        {
            const auto a = other.result.objectives(Registry::builtIn());
            const auto b = row.result.objectives(Registry::builtIn());
            bool noWorse = true, better = false;
            for (std::size_t m = 0; m < a.size(); ++m)
            {
                noWorse &= a[m] <= b[m];
                better |= a[m] < b[m];
            }
            dominated |= noWorse && better;
        }
        EXPECT_EQ(row.paretoOptimal, !dominated);
        ASSERT_NO_FATAL_FAILURE(vbas::test::expectGuarantee(builder.table(), dataset, row.result, 5));
    }
}

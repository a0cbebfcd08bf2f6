#include "Sweep.h"
#include "PropertyCheck.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::qi;

namespace
{
/** 60 regions of 20 records each over two quasi-identifiers. */
struct SweepScene
{
    DatasetBuilder builder{{qi("a"), qi("b")}};
    Dataset dataset;

    SweepScene()
        : dataset(build())
    {
    }

    Dataset build()
    {
        std::mt19937_64 generator(9);
        for (int r = 0; r < 60; ++r)
        {
            builder.region(std::to_string(r), r % 10, r / 10);
            for (int i = 0; i < 20; ++i)
                builder.records(std::to_string(r),
                                {std::uint32_t(generator() % 3), std::uint32_t(generator() % 2)});
        }
        return builder.build();
    }
};

/** Whether no other row is at least as good on every objective and better on one (brute force). */
bool undominated(const SweepRow& row, const std::vector<SweepRow>& rows)
{
    const std::vector<double> b = row.result.objectives(Registry::builtIn());
    for (const SweepRow& other : rows)
    {
        const std::vector<double> a = other.result.objectives(Registry::builtIn());
        bool noWorse = true, better = false;
        for (std::size_t m = 0; m < a.size(); ++m)
        {
            noWorse &= a[m] <= b[m];
            better |= a[m] < b[m];
        }
        if (noWorse && better)
            return false;
    }
    return true;
}
} // namespace

TEST(Sweep, SiteCountsAroundTheEstimate)
{
    // Thesis Table 7: 885 -> 707, 796, 885, 974, 1063; 350 -> 280 ... 420.
    EXPECT_EQ(sweepSiteCounts(885, {}, 4426), (std::vector<std::uint64_t>{707, 796, 885, 974, 1063}));
    EXPECT_EQ(sweepSiteCounts(350, {}, 4426), (std::vector<std::uint64_t>{280, 315, 350, 385, 420}));
    EXPECT_EQ(sweepSiteCounts(3, {}, 4), (std::vector<std::uint64_t>{1, 2, 3, 4}));
}

TEST(Sweep, MarksParetoOptimalRows)
{
    const SweepScene scene;
    const Dataset& dataset = scene.dataset;
    PipelineConfig config;
    config.siteCounter = "sitecount.fixed";
    config.options.set("site_count", 20.0);
    const Pipeline pipeline(config);
    Feedback feedback;
    std::vector<SweepRow> rows = sweep(pipeline, pipeline.prepare(dataset, feedback), {}, feedback);
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows.front().siteCount, 16u);
    EXPECT_EQ(rows.back().siteCount, 24u);
    for (const SweepRow& row : rows)
    {
        EXPECT_EQ(row.paretoOptimal, undominated(row, rows));
        ASSERT_NO_FATAL_FAILURE(vbas::test::expectGuarantee(scene.builder.table(), dataset, row.result, 5));
    }
}

TEST(Comparison, CrossesTheChoicesAndMarksParetoOverAllRows)
{
    const SweepScene scene;
    PipelineConfig base;
    base.siteCounter = "sitecount.fixed"; // replaced by the choices
    const ComparisonChoices choices{{"sitecount.naive_anonymity", "sitecount.gaps_maxcombs"},
                                    {"sitelocation.balanced_density", "sitelocation.random"},
                                    {"refinement.adc"}};
    const Comparison comparison(base, choices, SweepOptions{1, 0.1});
    ASSERT_EQ(comparison.configs().size(), 8u); // 2 x 2 x (unrefined, ADC)
    std::set<std::string> combinations;
    for (const PipelineConfig& config : comparison.configs())
        combinations.insert(config.siteCounter + "+" + config.siteLocator + "+" + config.siteRefiner);
    EXPECT_EQ(combinations.size(), 8u);
    EXPECT_EQ(combinations.count("sitecount.gaps_maxcombs+sitelocation.random+refinement.adc"), 1u);
    EXPECT_EQ(combinations.count("sitecount.naive_anonymity+sitelocation.balanced_density+"), 1u);

    Feedback feedback;
    const ComparisonResult result = comparison.run(scene.dataset, feedback);
    ASSERT_EQ(result.rowConfig.size(), result.rows.size());
    std::size_t pareto = 0;
    for (std::size_t r = 0; r < result.rows.size(); ++r)
    {
        const SweepRow& row = result.rows[r];
        // Each row is its configuration's release at that site count.
        PipelineConfig single = comparison.configs()[result.rowConfig[r]];
        EXPECT_LE(row.result.requestedSites, row.siteCount);
        EXPECT_EQ(row.paretoOptimal, undominated(row, result.rows)) << "row " << r;
        pareto += row.paretoOptimal;
        ASSERT_NO_FATAL_FAILURE(
            vbas::test::expectGuarantee(scene.builder.table(), scene.dataset, row.result, single.k));
    }
    EXPECT_EQ(result.paretoRows, pareto);
    EXPECT_GE(pareto, 1u);
    // Rows of every configuration, a sweep of up to 3 site counts each.
    EXPECT_EQ(std::set<std::size_t>(result.rowConfig.begin(), result.rowConfig.end()).size(), 8u);
    EXPECT_LE(result.rows.size(), 8u * 3u);
}

TEST(Comparison, RefusesAnEmptyChoiceOrAnUnknownMethodBeforeAnyData)
{
    const auto subjectOf = [](const ComparisonChoices& choices)
    {
        try
        {
            Comparison(PipelineConfig{}, choices, SweepOptions{});
        }
        catch (const Error& error)
        {
            return error.subject();
        }
        return Subject::General;
    };
    EXPECT_EQ(subjectOf({{}, {"sitelocation.random"}, {}}), Subject::SiteCount);
    EXPECT_EQ(subjectOf({{"sitecount.fixed"}, {}, {}}), Subject::SiteLocation);
    EXPECT_NE(subjectOf({{"sitecount.fixed"}, {"sitelocation.nowhere"}, {}}), Subject::General);
}

#include "Pipeline.h"
#include "TestSupport.h"
#include "sitecount/GapsCount.h"
#include "sitecount/GapsEntropyCount.h"
#include "sitecount/GapsMaxCombsCount.h"
#include "sitecount/NaiveAnonymityCount.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::qi;

namespace
{
/**
 * A data set with only the headers of a thesis table: |R| regions, N records spread over them as
 * weighted rows, and quasi-identifiers with declared category counts (all records in one class).
 */
Dataset headersOnly(std::size_t regions, Count records, const std::vector<std::uint64_t>& categories)
{
    std::vector<QuasiIdentifier> qis;
    for (std::size_t i = 0; i < categories.size(); ++i)
        qis.push_back(qi("q" + std::to_string(i), categories[i]));
    DatasetBuilder builder(qis);
    builder.weighted();
    const std::vector<std::uint32_t> codes(categories.size(), 0);
    for (std::size_t r = 0; r < regions; ++r)
    {
        const std::string id = std::to_string(r);
        builder.region(id, double(r % 100), double(r / 100));
        const Count share = records / regions + (r < records % regions ? 1 : 0);
        builder.records(id, codes, std::int64_t(share));
    }
    return builder.build();
}

struct Scenario
{
    const char* name;
    std::vector<std::uint64_t> categories;
    std::uint64_t naiveEastern, naiveWestern, maxCombsEastern, maxCombsWestern;
    bool westernMaxCombsWithinOne; // SPEC: rounding of the published coefficients
};

// SPEC.md section 3 (thesis Appendix A headers): age 22 / generalized 11, gender 2, marital 6,
// income 21 / generalized 7; k = 5, default offsets.
const Scenario kScenarios[] = {
    {"Age, Gender (44)", {22, 2}, 885, 3522, 350, 1115, false},
    {"Age, Gender generalized (22)", {11, 2}, 885, 3522, 432, 1492, false},
    {"Age, Marital (132)", {22, 6}, 442, 1761, 250, 702, true},
    {"Age, Marital generalized (66)", {11, 6}, 885, 3522, 309, 940, true},
    {"Age, Gender, Income (924)", {22, 2, 21}, 98, 391, 138, 310, false},
    {"Age, Gender, Income generalized (154)", {11, 2, 7}, 442, 1761, 239, 658, true},
};

std::uint64_t estimate(const Dataset& dataset, const std::string& counter, const std::string& model)
{
    PipelineConfig config;
    config.siteCounter = counter;
    config.options.set("gaps_model", model);
    const Pipeline pipeline(config);
    Feedback feedback;
    const PreparedData data = pipeline.prepare(dataset, feedback);
    return pipeline.estimateSiteCount(data, feedback);
}
} // namespace

TEST(SiteCount, ReproducesTheThesisTablesFromTheirHeaders)
{
    const Dataset eastern44 = headersOnly(4426, 2433221, {22, 2});
    ASSERT_EQ(eastern44.totalRecords(), 2433221u);
    for (const Scenario& s : kScenarios)
    {
        SCOPED_TRACE(s.name);
        const Dataset eastern = headersOnly(4426, 2433221, s.categories);
        const Dataset western = headersOnly(17613, 9647422, s.categories);
        EXPECT_EQ(estimate(eastern, "sitecount.naive_anonymity", "eastern"), s.naiveEastern);
        EXPECT_EQ(estimate(western, "sitecount.naive_anonymity", "western"), s.naiveWestern);
        EXPECT_EQ(estimate(eastern, "sitecount.gaps_maxcombs", "eastern"), s.maxCombsEastern);
        const std::uint64_t western_ = estimate(western, "sitecount.gaps_maxcombs", "western");
        if (s.westernMaxCombsWithinOne)
            EXPECT_LE(std::llabs(std::int64_t(western_) - std::int64_t(s.maxCombsWestern)), 1);
        else
            EXPECT_EQ(western_, s.maxCombsWestern);
    }
}

TEST(SiteCount, NaiveUsesCeilingOfKOverExpectedAnonymity)
{
    // 10 regions, 100 records, e = 10: a = 1, r = ceil(5 / 1) = 5, s = floor(10 * 0.5 / 5) = 1;
    // with d = 1: floor(10 / 5) = 2. The thesis's k / e would give r = 1 and s = 10.
    const Dataset dataset = headersOnly(10, 100, {10});
    StrategyOptions options;
    options.set("site_count_offset", 1.0);
    Feedback feedback;
    const Pipeline pipeline(PipelineConfig{});
    const PreparedData data = pipeline.prepare(dataset, feedback);
    // The estimate is read from the headers alone: a release probe must never be asked.
    struct NoRelease : ReleaseProbe
    {
        Count records() const override { throw std::logic_error("probed"); }
        double budgetPercent() const override { throw std::logic_error("probed"); }
        Count withheld(std::uint64_t, bool, Feedback&) override { throw std::logic_error("probed"); }
    } noRelease;
    EXPECT_EQ(NaiveAnonymityCount(1.0).estimate(data.regions, 5, noRelease, feedback), 2u);
    EXPECT_EQ(NaiveAnonymityCount(0.5).estimate(data.regions, 5, noRelease, feedback), 1u);
}

TEST(SiteCount, EntropyOfClassTotalsAfterGlobalSuppression)
{
    // Classes of 5, 5, 10 and 2 records, k = 5: the class of 2 is suppressed globally.
    DatasetBuilder builder({qi("c")});
    int region = 0;
    for (std::uint32_t cls = 0; cls < 4; ++cls)
    {
        const int size = cls == 2 ? 10 : (cls == 3 ? 2 : 5);
        for (int i = 0; i < size; ++i, ++region)
            builder.region(std::to_string(region), region, 0).records(std::to_string(region), {cls});
    }
    const Dataset dataset = builder.build();
    PipelineConfig config;
    config.siteCounter = "sitecount.gaps_entropy";
    config.options.set("gaps_model", "custom");
    config.options.set("gaps_c", 1.0);
    config.options.set("gaps_b", 1.0); // cutoff = H
    const Pipeline pipeline(config);
    Feedback feedback;
    const PreparedData data = pipeline.prepare(dataset, feedback);
    // H = -(2 * 0.25 ln 0.25 + 0.5 ln 0.5) = 1.0397208; s = floor(0.9 * 20 / H) = floor(17.312) = 17.
    EXPECT_NEAR(GapsEntropyCount::entropy(data.regions.classTotals()), 1.0397208, 1e-6);
    EXPECT_EQ(pipeline.estimateSiteCount(data, feedback), 17u);
}

TEST(SiteCount, CanadaIsTheLargestRegionalCutoff)
{
    for (double x : {2.0, 44.0, 924.0, 1e6})
    {
        const double western = 1588.0 * std::pow(x, 0.42);
        const double central = 1436.0 * std::pow(x, 0.43);
        const double eastern = 1978.0 * std::pow(x, 0.304);
        EXPECT_DOUBLE_EQ(GapsCount::cutoff(GapsModel::Canada, x, 0, 0),
                         std::max({western, central, eastern}));
    }
}

TEST(SiteCount, EstimatesAreClampedToNonEmptyRegions)
{
    // 3 regions with records, 2 without: any estimate ends in [1, 3].
    DatasetBuilder builder({qi("c")});
    for (int r = 0; r < 5; ++r)
        builder.region(std::to_string(r), r, 0);
    builder.records("0", {0}, 10).records("1", {0}, 10).records("2", {0}, 10);
    const Dataset dataset = builder.build();
    PipelineConfig config;
    config.siteCounter = "sitecount.fixed";
    config.options.set("site_count", 50.0);
    vbas::test::RecordingFeedback feedback;
    const Pipeline pipeline(config);
    const PreparedData data = pipeline.prepare(dataset, feedback);
    std::uint64_t raw = 0;
    EXPECT_EQ(pipeline.estimateSiteCount(data, feedback, &raw), 3u);
    EXPECT_EQ(raw, 50u);
    ASSERT_FALSE(feedback.warnings.empty());
    EXPECT_NE(feedback.warnings.back().find("clamped to 3"), std::string::npos);

    config.siteCounter = "sitecount.gaps_maxcombs"; // 30 records: cutoff far above, raw estimate 0
    const Pipeline gaps(config);
    EXPECT_EQ(gaps.estimateSiteCount(gaps.prepare(dataset, feedback), feedback), 1u);
}

TEST(SiteCount, BadParametersAreErrors)
{
    StrategyOptions offset;
    offset.set("site_count_offset", 1.5);
    EXPECT_THROW(NaiveAnonymityCount::create(offset), Error);
    StrategyOptions fixed;
    fixed.set("site_count", 0.0);
    PipelineConfig config;
    config.siteCounter = "sitecount.fixed";
    config.options = fixed;
    EXPECT_THROW(Pipeline{config}, Error);
    config.siteCounter = "sitecount.nonsense";
    try
    {
        Pipeline unknown(config);
        FAIL();
    }
    catch (const Error& error)
    {
        EXPECT_EQ(error.subject(), Subject::Strategy);
        EXPECT_NE(std::string(error.what()).find("sitecount.gaps_maxcombs"), std::string::npos);
    }
}

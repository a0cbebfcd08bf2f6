// refinement.suppression against independent recounts: the withheld records and the aggregates
// of its sites come from a full partition and SuppressionOutcome::apply (Pipeline::finish), never from the
// refiner's own ledger.

#include "sitelocation/SuppressionRefiner.h"
#include "Pipeline.h"
#include "TestSupport.h"
#include "partition/VoronoiPartitioner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::qi;

namespace
{
/** Scattered regions of 5-40 records over two quasi-identifiers (5 x 2 classes, skewed). */
DatasetBuilder randomScene(std::uint64_t seed, std::size_t regions)
{
    std::mt19937_64 generator(seed);
    std::discrete_distribution<std::uint32_t> age({5, 4, 3, 2, 1});
    DatasetBuilder builder({qi("age"), qi("sex")});
    for (std::size_t r = 0; r < regions; ++r)
    {
        const std::string id = std::to_string(r);
        builder.region(id, double(generator() % 1000), double(generator() % 1000));
        const std::size_t records = 5 + generator() % 36;
        for (std::size_t i = 0; i < records; ++i)
            builder.records(id, {age(generator), std::uint32_t(generator() % 2)});
    }
    return builder;
}

PipelineConfig configFor(Count k, const std::string& locator, const std::string& refiner, bool weights = true)
{
    PipelineConfig config;
    config.k = k;
    config.siteCounter = "sitecount.fixed";
    config.siteLocator = locator;
    config.siteRefiner = refiner;
    config.options.set("seed", 3.0).set("site_count", 1.0); // sites are asked of the locator directly
    config.options.set("suppression_move_weights", weights ? 1.0 : 0.0);
    return config;
}

/** One refinement of `sites` seeds, with the releases before and after it recounted by Pipeline::finish. */
struct Refined
{
    PipelineResult before;
    PipelineResult after;
    Sites moved;
    RefinementReport report;
};

Refined refineOnce(const PipelineConfig& plainConfig, const PipelineConfig& refinedConfig,
                   const Dataset& dataset, std::size_t sites)
{
    const Pipeline plain(plainConfig);
    const Pipeline refined(refinedConfig);
    Feedback feedback;
    const PreparedData data = plain.prepare(dataset, feedback);
    const std::vector<Point> seeds = plain.locateSites(data, sites, feedback);
    std::optional<RefinementReport> report;
    Sites moved = refined.refineSites(data, seeds, report, feedback);
    EXPECT_TRUE(report);
    PipelineResult after = refined.finish(data, moved, feedback);
    return {plain.finish(data, seeds, feedback), std::move(after), std::move(moved),
            report.value_or(RefinementReport{})};
}

std::size_t releasingAggregates(const PipelineResult& result)
{
    std::size_t count = 0;
    for (const Count released : result.suppression.aggregateReleased)
        count += released > 0;
    return count;
}

struct CancelAtOnce : Feedback
{
    bool isCanceled() const override { return true; }
};
} // namespace

TEST(SuppressionRefiner, NeverWithholdsMoreOrLosesAnAggregateOnRandomScenes)
{
    int improved = 0, runs = 0, entropyOnly = 0;
    for (std::uint64_t seed = 1; seed <= 12; ++seed)
    {
        const Dataset dataset = randomScene(seed, 120).build();
        for (const Count k : {Count(3), Count(5)})
            for (const std::string locator : {"sitelocation.balanced_density", "sitelocation.random"})
                for (const std::size_t sites : {std::size_t(4), std::size_t(10), std::size_t(25)})
                    for (const bool weights : {false, true})
                    {
                        SCOPED_TRACE("seed " + std::to_string(seed) + " k " + std::to_string(k) + " " +
                                     locator + " s " + std::to_string(sites) +
                                     (weights ? " weights" : " positions"));
                        const Refined run = refineOnce(
                            configFor(k, locator, ""),
                            configFor(k, locator, "refinement.suppression", weights), dataset, sites);
                        const PipelineResult& before = run.before;
                        const PipelineResult& after = run.after;
                        const RefinementReport& report = run.report;
                        EXPECT_TRUE(weights || run.moved.weights.empty());

                        EXPECT_LE(after.suppression.suppressed(), before.suppression.suppressed());
                        EXPECT_GE(after.aggregation.size(), before.aggregation.size())
                            << "an aggregate was emptied";
                        EXPECT_GE(releasingAggregates(after), releasingAggregates(before));
                        EXPECT_EQ(report.objectiveBefore, double(before.suppression.locallySuppressed));
                        EXPECT_EQ(report.objectiveAfter, double(after.suppression.locallySuppressed));
                        // Kept moves lower (withheld, non-uniform entropy) lexicographically (SPEC section
                        // 11).
                        const double entropyBefore = before.metric("quality.non_uniform_entropy");
                        const double entropyAfter = after.metric("quality.non_uniform_entropy");
                        if (after.suppression.suppressed() == before.suppression.suppressed())
                        {
                            EXPECT_LE(entropyAfter, entropyBefore * (1.0 + 1e-12));
                        }
                        EXPECT_LE(entropyAfter, entropyBefore * 1.05 * (1.0 + 1e-12))
                            << "the default slack: NUE rises by 5 % at most";
                        entropyOnly += int(report.movesAcceptedOnTie);
                        if (report.movesAccepted > 0)
                        {
                            EXPECT_TRUE(after.suppression.suppressed() < before.suppression.suppressed() ||
                                        entropyAfter < entropyBefore)
                                << "a kept move must lower the withheld records, or keep them and lower the "
                                   "entropy";
                        }
                        improved += after.suppression.suppressed() < before.suppression.suppressed();
                        ++runs;
                    }
    }
    EXPECT_GT(improved, runs / 2) << "the scenes should give the refinement work";
    EXPECT_GT(entropyOnly, 0) << "some moves should be kept on the entropy tie-break";
}

// With l-diversity on, the objective is every withheld record (below k or failing l), as the release
// recounts it from the rows (Criteria::failing), never from the ledger.
TEST(SuppressionRefiner, CountsLDiversityWithholdingInItsObjective)
{
    int improved = 0, runs = 0;
    for (std::uint64_t seed = 1; seed <= 8; ++seed)
    {
        std::mt19937_64 generator(seed);
        std::discrete_distribution<std::uint32_t> age({5, 4, 3, 2, 1});
        // Diagnosis skewed (most records one value), a second field with three values.
        std::discrete_distribution<std::uint32_t> diagnosis({8, 1, 1});
        DatasetBuilder builder({qi("age"), qi("sex")});
        builder.sensitiveFields(2);
        for (std::size_t r = 0; r < 120; ++r)
        {
            const std::string id = std::to_string(r);
            builder.region(id, double(generator() % 1000), double(generator() % 1000));
            for (std::size_t i = 0, records = 5 + generator() % 36; i < records; ++i)
                builder.records(id, {age(generator), std::uint32_t(generator() % 2)}, 1,
                                {diagnosis(generator), std::uint32_t(generator() % 3)});
        }
        const Dataset dataset = builder.build();
        for (const DiversityRule::Measure measure :
             {DiversityRule::Measure::Distinct, DiversityRule::Measure::Entropy})
            for (const std::size_t sites : {std::size_t(6), std::size_t(20)})
            {
                SCOPED_TRACE("seed " + std::to_string(seed) + " sites " + std::to_string(sites) +
                             (measure == DiversityRule::Measure::Distinct ? " distinct" : " entropy"));
                PipelineConfig plainConfig = configFor(4, "sitelocation.balanced_density", "");
                test::withDiversity(plainConfig.options, {2, measure});
                PipelineConfig refinedConfig =
                    configFor(4, "sitelocation.balanced_density", "refinement.suppression");
                test::withDiversity(refinedConfig.options, {2, measure});
                const Refined run = refineOnce(plainConfig, refinedConfig, dataset, sites);
                const PipelineResult& before = run.before;
                const PipelineResult& after = run.after;
                const RefinementReport& report = run.report;
                EXPECT_EQ(report.objectiveBefore, double(before.suppression.locallySuppressed +
                                                         before.suppression.diversitySuppressed));
                EXPECT_EQ(report.objectiveAfter, double(after.suppression.locallySuppressed +
                                                        after.suppression.diversitySuppressed));
                EXPECT_LE(after.suppression.suppressed(), before.suppression.suppressed());
                EXPECT_GE(after.aggregation.size(), before.aggregation.size()) << "an aggregate was emptied";
                if (report.movesAccepted > 0)
                {
                    EXPECT_LT(after.suppression.suppressed(), before.suppression.suppressed());
                }
                improved += after.suppression.diversitySuppressed < before.suppression.diversitySuppressed;
                ++runs;
            }
    }
    EXPECT_GT(improved, runs / 4) << "the scenes should give l-diversity withholding to lower";
}

TEST(SuppressionRefiner, IsDeterministic)
{
    const Dataset dataset = randomScene(77, 200).build();
    const Pipeline pipeline(configFor(4, "sitelocation.balanced_density", "refinement.suppression"));
    Feedback feedback;
    const PreparedData data = pipeline.prepare(dataset, feedback);
    const std::vector<Point> seeds = pipeline.locateSites(data, 50, feedback);
    std::optional<RefinementReport> first, second;
    const Sites a = pipeline.refineSites(data, seeds, first, feedback);
    const Sites b = pipeline.refineSites(data, seeds, second, feedback);
    ASSERT_EQ(a.points.size(), b.points.size());
    for (std::size_t i = 0; i < a.points.size(); ++i)
        EXPECT_TRUE(a.points[i] == b.points[i]) << "site " << i;
    EXPECT_EQ(a.weights, b.weights);
    EXPECT_GT(first->movesAccepted, 0u) << "the scene should give the refinement work";
    EXPECT_EQ(first->movesTried, second->movesTried);
    EXPECT_EQ(first->movesAccepted, second->movesAccepted);
}

TEST(SuppressionRefiner, KeepsTheReleasesEntropyWithinItsSlack)
{
    // Without a limit the refinement withholds fewer records by growing some aggregates and
    // shrinking others; the slack caps the release's NUE (recounted by the release's metric).
    int capBinds = 0, runs = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed)
    {
        const Dataset dataset = randomScene(seed, 150).build();
        for (const std::size_t sites : {std::size_t(10), std::size_t(30)})
            for (const double slack : {0.0, 2.0, 10.0})
            {
                SCOPED_TRACE("seed " + std::to_string(seed) + " s " + std::to_string(sites) + " slack " +
                             std::to_string(slack));
                PipelineConfig capped =
                    configFor(5, "sitelocation.balanced_density", "refinement.suppression");
                capped.options.set("suppression_entropy_slack", slack);
                PipelineConfig unlimited = capped;
                unlimited.options.set("suppression_entropy_slack", std::numeric_limits<double>::infinity());
                const PipelineConfig plain = configFor(5, "sitelocation.balanced_density", "");
                const Refined cappedRun = refineOnce(plain, capped, dataset, sites);
                const Refined freeRun = refineOnce(plain, unlimited, dataset, sites);
                const double before = cappedRun.before.metric("quality.non_uniform_entropy");
                const double cappedAfter = cappedRun.after.metric("quality.non_uniform_entropy");
                const double freeAfter = freeRun.after.metric("quality.non_uniform_entropy");
                EXPECT_LE(cappedAfter, before * (1.0 + slack / 100.0) * (1.0 + 1e-12));
                EXPECT_LE(cappedRun.after.suppression.suppressed(),
                          cappedRun.before.suppression.suppressed());
                capBinds += freeAfter > before * (1.0 + slack / 100.0) * (1.0 + 1e-12);
                ++runs;
            }
    }
    EXPECT_GT(capBinds, runs / 4) << "the scenes should make the slack matter";
}

TEST(SuppressionRefiner, JoinsTwoSmallClassesThatOneBoundaryMoveBringsTogether)
{
    // Four areas on a line, two sites; k = 2. Each aggregate holds three a-records and one
    // b-record (in areas 1 and 2), so 2 records are withheld. Moving the boundary so that areas 1
    // and 2 share an aggregate releases both b-records, and each aggregate keeps an area: 0.
    DatasetBuilder builder({qi("class", 2)});
    builder.region("0", 0.0, 0.0).region("1", 10.0, 1.0).region("2", 20.0, 0.0).region("3", 30.0, 1.0);
    builder.records("0", {0}, 3).records("1", {1}).records("2", {1}).records("3", {0}, 3);
    const Dataset dataset = builder.build();
    PipelineConfig config = configFor(2, "sitelocation.balanced_density", "refinement.suppression");
    // Before the move every released record shares its aggregate with its own area only (NUE 0), so
    // any finite slack forbids the join; here releasing the two records is worth it.
    config.options.set("suppression_entropy_slack", std::numeric_limits<double>::infinity());
    const Pipeline pipeline(config);
    Feedback feedback;
    const PreparedData data = pipeline.prepare(dataset, feedback);
    const std::vector<Point> seeds{{5.0, 0.5}, {25.0, 0.5}};
    EXPECT_EQ(pipeline.finish(data, seeds, feedback).suppression.suppressed(), 2u);

    std::optional<RefinementReport> report;
    const Sites sites = pipeline.refineSites(data, seeds, report, feedback);
    const PipelineResult result = pipeline.finish(data, sites, feedback);
    EXPECT_EQ(result.suppression.suppressed(), 0u);
    EXPECT_EQ(result.aggregation.size(), 2u);
    EXPECT_EQ(result.aggregation.regionAggregate[1], result.aggregation.regionAggregate[2]);
    EXPECT_EQ(report->objectiveBefore, 2.0);
    EXPECT_EQ(report->objectiveAfter, 0.0);
    EXPECT_EQ(report->stopReason, "no records withheld");
}

TEST(SuppressionRefiner, KeepsToItsMoveLimit)
{
    const Dataset dataset = randomScene(5, 150).build();
    PipelineConfig config = configFor(5, "sitelocation.balanced_density", "refinement.suppression");
    config.options.set("suppression_max_moves", 3.0);
    const Pipeline pipeline(config);
    Feedback feedback;
    const PreparedData data = pipeline.prepare(dataset, feedback);
    std::optional<RefinementReport> report;
    pipeline.refineSites(data, pipeline.locateSites(data, 60, feedback), report, feedback);
    EXPECT_EQ(report->movesTried, 3u);
    EXPECT_EQ(report->stopReason, "move limit");
}

TEST(SuppressionRefiner, StopsOnCancel)
{
    const Dataset dataset = randomScene(6, 100).build();
    Feedback feedback;
    const Pipeline pipeline(configFor(5, "sitelocation.balanced_density", ""));
    const PreparedData data = pipeline.prepare(dataset, feedback);
    const std::vector<Point> seeds = pipeline.locateSites(data, 10, feedback);
    RefinementReport report;
    CancelAtOnce canceled;
    EXPECT_THROW(SuppressionRefiner(0, 0).refine(data.regions, data.partitionInput(), 5, VoronoiPartitioner(),
                                                 seeds, report, canceled),
                 Canceled);
}

TEST(SuppressionRefiner, ReportsProgressWithinAPassAndStopsThereOnCancel)
{
    // Canceled at the first report inside the first step size's fifth of the progress: only a pass that
    // reports as it goes gets there (the step sizes end at 0.2, 0.4, ...).
    struct CancelWithinAPass : Feedback
    {
        std::vector<double> seen;
        bool isCanceled() const override { return !seen.empty() && seen.back() > 0.0 && seen.back() < 0.2; }

    protected:
        void onProgress(double overall) override { seen.push_back(overall); }
    };
    const Dataset dataset = randomScene(8, 400).build();
    Feedback feedback;
    const Pipeline pipeline(configFor(5, "sitelocation.balanced_density", ""));
    const PreparedData data = pipeline.prepare(dataset, feedback);
    const std::vector<Point> seeds = pipeline.locateSites(data, 120, feedback);
    RefinementReport report;
    CancelWithinAPass canceling;
    EXPECT_THROW(SuppressionRefiner(0, 0).refine(data.regions, data.partitionInput(), 5, VoronoiPartitioner(),
                                                 seeds, report, canceling),
                 Canceled);
    EXPECT_TRUE(std::is_sorted(canceling.seen.begin(), canceling.seen.end()));
}

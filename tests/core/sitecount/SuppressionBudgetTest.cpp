// sitecount.suppression_budget: its search against a probe with known withholding, and in a
// pipeline against releases recounted from scratch (Pipeline::finish) at the chosen count and the
// counts just above it.

#include "Pipeline.h"
#include "SceneSupport.h"
#include "Sweep.h"
#include "TestSupport.h"
#include "sitecount/SuppressionBudgetCount.h"
#include "sitelocation/BalancedDensitySites.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <iterator>
#include <limits>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <tuple>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::qi;

namespace
{
/** Withholding given as a function of the site count; remembers what was asked, and in which order. */
class FunctionProbe : public ReleaseProbe
{
public:
    FunctionProbe(Count records, std::function<Count(std::uint64_t, bool)> withheld)
        : mRecords(records)
        , mWithheld(std::move(withheld))
    {
    }
    Count records() const override { return mRecords; }
    double budgetPercent() const override { return percent; }
    Count withheld(std::uint64_t sites, bool refined, Feedback&) override
    {
        (refined ? refinedAsked : locatedAsked).insert(sites);
        trials.push_back({sites, refined, mWithheld(sites, refined)});
        return trials.back().withheld;
    }
    std::set<std::uint64_t> refinedAsked, locatedAsked;
    std::vector<SiteCountTrial> trials;
    double percent = 1.0;

private:
    Count mRecords;
    std::function<Count(std::uint64_t, bool)> mWithheld;
};

/** A region set of `regions` regions holding records (the counter only reads the count). */
Dataset regionsOnly(std::size_t regions)
{
    DatasetBuilder builder({qi("a", 1)});
    for (std::size_t r = 0; r < regions; ++r)
        builder.region(std::to_string(r), double(r), 0.0).records(std::to_string(r), {0});
    return builder.build();
}

std::uint64_t search(double percent, FunctionProbe& probe, std::size_t regions = 1000)
{
    const Dataset dataset = regionsOnly(regions);
    const RegionSet set(dataset, dataset.regionHistograms());
    Feedback feedback;
    probe.percent = percent;
    return SuppressionBudgetCount().estimate(set, 5, probe, feedback);
}
} // namespace

TEST(SuppressionBudget, FindsTheLastCountWithinTheBudgetByHand)
{
    // 100,000 records, budget 1 % = 1,000. Unrefined: 10 per site; refined: 7 per site.
    // Refined boundary: 7 s <= 1,000 up to s = 142 (994), 143 gives 1,001.
    FunctionProbe probe(100000, [](std::uint64_t s, bool refined) { return Count(s * (refined ? 7 : 10)); });
    EXPECT_EQ(search(1.0, probe), 142u);
    EXPECT_TRUE(probe.refinedAsked.count(143)) << "the count above must have been tried";
    EXPECT_LT(probe.refinedAsked.size(), 14u) << "interpolation should need few refined releases";
    // Half a percent: 500 / 7 = 71.4.
    FunctionProbe half(100000, [](std::uint64_t s, bool refined) { return Count(s * (refined ? 7 : 10)); });
    EXPECT_EQ(search(0.5, half), 71u);
    // The refinement saving more than the first guess (a share of 1.5): refined 4 per site, 1,000 / 4 = 250,
    // so the first guess at a bracket (about 150) lies within the budget and the search goes on from there.
    FunctionProbe more(100000, [](std::uint64_t s, bool refined) { return Count(s * (refined ? 4 : 10)); });
    EXPECT_EQ(search(1.0, more), 250u);
    EXPECT_TRUE(more.refinedAsked.count(251)) << "the count above must have been tried";
}

TEST(SuppressionBudget, ConfirmsAboveTheBoundaryAndContinuesPastADip)
{
    // Withholding 8 s, budget 1,000, except a bump at 125 (1,200) and a dip at 126-130 (990):
    // 124 is the first boundary, 126 lies within the two counts confirmed above it, and from
    // there the boundary is 130 (131 gives 1,048).
    const auto withheld = [](std::uint64_t s, bool) -> Count
    {
        if (s == 125)
            return 1200;
        if (s >= 126 && s <= 130)
            return 990;
        return Count(s * 8);
    };
    FunctionProbe probe(100000, withheld);
    EXPECT_EQ(search(1.0, probe), 130u);
}

TEST(SuppressionBudget, AllRegionsOrOneAtTheEnds)
{
    FunctionProbe none(1000, [](std::uint64_t, bool) { return Count(0); });
    EXPECT_EQ(search(1.0, none, 50), 50u) << "nothing withheld: every region its own";
    FunctionProbe tooMuch(1000, [](std::uint64_t, bool) { return Count(11); });
    EXPECT_EQ(search(1.0, tooMuch, 50), 1u) << "over the budget even as one region";
    for (const double percent : {0.0, 101.0})
    {
        PipelineConfig config;
        config.suppressionBudget = percent;
        EXPECT_THROW(Pipeline{config}, Error) << percent;
    }
}

namespace
{
/** The search over 100,000 regions holding 10 M records, its log line in `line`. */
std::uint64_t searchLarge(FunctionProbe& probe, std::string& line)
{
    const Dataset dataset = regionsOnly(100000);
    const RegionSet set(dataset, dataset.regionHistograms());
    test::RecordingFeedback log;
    const std::uint64_t chosen = SuppressionBudgetCount().estimate(set, 5, probe, log);
    for (const std::string& info : log.infos)
        if (info.rfind("suppression budget:", 0) == 0)
            line = info;
    return chosen;
}

/** The largest count in [1, most] whose refined release withholds at most `budget`, by trying every one. */
std::uint64_t exhaustive(const std::function<Count(std::uint64_t, bool)>& withheld, Count budget,
                         std::uint64_t most)
{
    std::uint64_t best = 1;
    for (std::uint64_t s = 1; s <= most; ++s)
        if (withheld(s, true) <= budget)
            best = s;
    return best;
}
} // namespace

// Beyond 800 regions the search stops narrowing at a 400th of the count (SuppressionBudgetCount.cpp): the
// count it chooses is within the budget, a count at most that far above it withholds more (both in the log),
// and a few refined releases find it. Budget: 100,000 of 10 M records.
TEST(SuppressionBudget, LargeDataStopsWithinATolerancePerFourHundredCounts)
{
    const Count budget = 100000;
    // Convex withholding, the refinement saving a share that falls with the count (as measured: 1.56 to
    // 1.48 around the boundary), and the same with noise of up to 0.5 % of the budget from count to count.
    const auto smooth = [](std::uint64_t s, bool refined)
    {
        const double located = double(s) * double(s) / 2000.0;
        return Count(refined ? located / (1.75 - double(s) / 80000.0) : located);
    };
    const auto noisy = [&](std::uint64_t s, bool refined)
    {
        const std::int64_t noise = std::int64_t((s * 2654435761u) % 1001) - 500;
        return refined ? Count(std::max<std::int64_t>(0, std::int64_t(smooth(s, true)) + noise))
                       : smooth(s, false);
    };
    // A refinement saving less than the first guesses take (a share of 1.3): both are over the budget.
    const auto savingLess = [](std::uint64_t s, bool refined)
    {
        const double located = double(s) * double(s) / 2000.0;
        return Count(refined ? located / 1.3 : located);
    };
    for (const int variant : {0, 1, 2})
    {
        const bool withNoise = variant == 1;
        const std::function<Count(std::uint64_t, bool)> withheld =
            variant == 0 ? std::function<Count(std::uint64_t, bool)>(smooth)
            : withNoise  ? std::function<Count(std::uint64_t, bool)>(noisy)
                         : savingLess;
        FunctionProbe probe(10000000, withheld);
        std::string line;
        const std::uint64_t chosen = searchLarge(probe, line);
        const std::uint64_t tolerance = chosen / 400;
        ASSERT_GT(tolerance, 1u) << "the data should be large enough for a tolerance: " << line;
        EXPECT_LE(withheld(chosen, true), budget);
        // A count tried above the chosen one, at most the tolerance and one further, withholds more.
        std::uint64_t over = 0;
        for (const SiteCountTrial& trial : probe.trials)
            if (trial.refined && trial.sites > chosen && trial.withheld > budget &&
                (over == 0 || trial.sites < over))
                over = trial.sites;
        ASSERT_GT(over, 0u);
        EXPECT_LE(over - chosen, tolerance + 1) << "variant " << variant;
        EXPECT_NE(line.find(std::to_string(chosen) + " sites are the most within it to within " +
                            std::to_string(over - chosen - 1) + " sites (" + std::to_string(over) +
                            " withhold more"),
                  std::string::npos)
            << line;
        EXPECT_LE(probe.refinedAsked.size(), 8u) << "a few refined releases";
        if (!withNoise) // monotone: the most within the budget lies below the count over it
            EXPECT_LE(exhaustive(withheld, budget, 100000) - chosen, tolerance);
        else // every count over the budget lies past where the curve less the noise reaches it
        {
            std::uint64_t surelyWithin = 1;
            while (smooth(surelyWithin + 1, true) + 500 <= budget)
                ++surelyWithin;
            EXPECT_GE(chosen + tolerance + 1, surelyWithin + 1);
        }
    }
}

// A pipeline that refines nothing (the generalization search's trial releases) gets the boundary of the
// located releases, exact, without releasing any count twice.
TEST(SuppressionBudget, LargeDataWithoutRefinementTakesTheLocatedBoundary)
{
    class Unrefined : public FunctionProbe
    {
    public:
        using FunctionProbe::FunctionProbe;
        bool refines() const override { return false; }
    };
    const auto withheld = [](std::uint64_t s, bool)
    {
        return Count(double(s) * double(s) / 2000.0);
    };
    Unrefined probe(10000000, withheld);
    std::string line;
    const std::uint64_t chosen = searchLarge(probe, line);
    // s^2 / 2000 <= 100,000 up to s = 14,142 (99,998); 14,143 withholds 100,012.
    EXPECT_EQ(chosen, 14142u);
    EXPECT_TRUE(probe.refinedAsked.empty());
    EXPECT_NE(line.find("14142 sites are the most within it (99998 withheld;"), std::string::npos) << line;
}

namespace
{
/** The three counts after `chosen`, each released from scratch (located, refined, partitioned), exceed
 * `budget`. */
void expectNextCountsExceed(const Pipeline& pipeline, const PreparedData& data, std::uint64_t chosen,
                            Count budget)
{
    Feedback feedback;
    for (std::uint64_t s = chosen + 1; s <= chosen + 3 && s <= data.regions.nonEmptyCount(); ++s)
    {
        std::optional<RefinementReport> report;
        const Sites sites =
            pipeline.refineSites(data, pipeline.locateSites(data, s, feedback), report, feedback);
        EXPECT_GT(pipeline.finish(data, sites, feedback).suppression.suppressed(), budget) << s << " sites";
    }
}
} // namespace

TEST(SuppressionBudget, ChosenReleaseIsWithinTheBudgetAndTheNextCountsAreNot)
{
    std::mt19937_64 generator(21);
    std::discrete_distribution<std::uint32_t> age({6, 5, 4, 3, 2, 1});
    DatasetBuilder builder({qi("age"), qi("sex")});
    for (std::size_t r = 0; r < 300; ++r)
    {
        const std::string id = std::to_string(r);
        builder.region(id, double(generator() % 1000), double(generator() % 1000));
        const std::size_t records = 5 + generator() % 40;
        for (std::size_t i = 0; i < records; ++i)
            builder.records(id, {age(generator), std::uint32_t(generator() % 2)});
    }
    const Dataset dataset = builder.build();
    for (const double percent : {1.0, 3.0})
    {
        PipelineConfig config;
        config.k = 5;
        config.siteCounter = "sitecount.suppression_budget";
        config.siteRefiner = "refinement.suppression";
        config.suppressionBudget = percent;
        const Pipeline pipeline(config);
        Feedback feedback;
        const PipelineResult result = pipeline.run(dataset, feedback);
        const std::uint64_t chosen = result.requestedSites;
        const Count budget = Count(double(dataset.totalRecords()) * percent / 100.0);
        SCOPED_TRACE("budget " + std::to_string(percent) + " %: " + std::to_string(chosen) + " sites");
        EXPECT_LE(result.suppression.suppressed(), budget);
        EXPECT_EQ(result.suppression.released + result.suppression.suppressed(), dataset.totalRecords());
        // The counts just above, released from scratch, exceed the budget.
        expectNextCountsExceed(pipeline, pipeline.prepare(dataset, feedback), chosen, budget);
        EXPECT_GT(chosen, 5u) << "the scene should allow several regions";
    }
}

namespace
{
/**
 * Refinements run so far by CountingRefiner (a registry's factory is a plain function, hence global; atomic
 * as the search may refine two counts side by side).
 */
std::atomic<int> gRefinements{0};

/** Moves nothing; counts its runs. */
class CountingRefiner : public SiteRefiner
{
public:
    Sites refine(const RegionSet&, const PartitionInput&, const ReleaseRule&, const Partitioner&,
                 std::vector<Point> seeds, RefinementReport& report, Feedback&) const override
    {
        ++gRefinements;
        report.stopReason = "counted";
        return distinctSites(seeds);
    }
};

/** 5 to 44 records in every area of `grid`, young ages more frequent, either sex. */
Dataset gridRecords(const test::GridScene& grid, std::uint64_t seed)
{
    std::mt19937_64 generator(seed);
    std::discrete_distribution<std::uint32_t> age({6, 5, 4, 3, 2, 1});
    DatasetBuilder builder({qi("age"), qi("sex")});
    for (std::size_t r = 0; r < grid.points.size(); ++r)
    {
        const std::string id = std::to_string(r);
        builder.region(id, grid.points[r].x, grid.points[r].y);
        for (std::size_t i = 0, records = 5 + generator() % 40; i < records; ++i)
            builder.records(id, {age(generator), std::uint32_t(generator() % 2)});
    }
    return builder.build();
}

/** The recommended release at a 2 % budget over gridRecords(seed) on a grid of areas, 16 x 12 by default. */
struct GridRelease
{
    explicit GridRelease(std::uint64_t seed, bool sideBySide = true, std::size_t columns = 16,
                         std::size_t rows = 12)
        : grid(columns, rows, 10.0, 8)
        , dataset(gridRecords(grid, seed))
        , job(dataset)
        , pipeline(config(sideBySide))
    {
        job.spatial = grid.spatial;
    }
    static PipelineConfig config(bool sideBySide = true)
    {
        PipelineConfig config = recommendedConfig();
        config.suppressionBudget = 2.0;
        config.releasesSideBySide = sideBySide;
        return config;
    }
    const test::GridScene grid;
    const Dataset dataset;
    Job job;
    const Pipeline pipeline;
};

/** The releases a search tried as (sites, refined, withheld), to compare two searches. */
std::vector<std::tuple<std::uint64_t, bool, Count>> tried(const std::vector<SiteCountTrial>& trials)
{
    std::vector<std::tuple<std::uint64_t, bool, Count>> tuples;
    for (const SiteCountTrial& trial : trials)
        tuples.emplace_back(trial.sites, trial.refined, trial.withheld);
    return tuples;
}

/** The records the budget search of `result` found withheld by `sites` refined, or -1. */
long long triedRefined(const PipelineResult& result, std::uint64_t sites)
{
    if (!result.siteCountSearch)
        return -1;
    for (const SiteCountTrial& trial : result.siteCountSearch->trials)
        if (trial.sites == sites && trial.refined)
            return (long long)trial.withheld;
    return -1;
}
} // namespace

// The release at the chosen count is the refined release the search measured, not a second refinement (which
// costs a refinement's time, and which a time limit could end elsewhere).
TEST(SuppressionBudget, TheReleaseIsTheOneTheSearchMeasured)
{
    std::mt19937_64 generator(5);
    std::discrete_distribution<std::uint32_t> age({6, 5, 4, 3, 2, 1});
    DatasetBuilder builder({qi("age"), qi("sex")});
    for (std::size_t r = 0; r < 200; ++r)
    {
        const std::string id = std::to_string(r);
        builder.region(id, double(generator() % 1000), double(generator() % 1000));
        for (std::size_t i = 0, records = 5 + generator() % 30; i < records; ++i)
            builder.records(id, {age(generator), std::uint32_t(generator() % 2)});
    }
    const Dataset dataset = builder.build();
    PipelineConfig config;
    config.siteCounter = "sitecount.suppression_budget";
    config.suppressionBudget = 2.0;

    Registry counting = Registry::builtIn();
    counting.siteRefiners.emplace_back(
        "refinement.counting", "Counting", "Counts its runs.",
        [](const StrategyOptions&) -> std::unique_ptr<SiteRefiner>
        { return std::make_unique<CountingRefiner>(); },
        std::vector<OptionSpec>{}, Needs{}, "counting");
    config.siteRefiner = "refinement.counting";
    Feedback quiet;
    gRefinements = 0;
    const PipelineResult counted = Pipeline(config, counting).run(dataset, quiet);
    ASSERT_TRUE(counted.siteCountSearch);
    const std::vector<SiteCountTrial>& trials = counted.siteCountSearch->trials;
    const auto refinedTrials = std::count_if(trials.begin(), trials.end(),
                                             [](const SiteCountTrial& trial) { return trial.refined; });
    EXPECT_GT(refinedTrials, 1);
    EXPECT_EQ(gRefinements, refinedTrials) << "one refinement per count tried, none more for the release";
    EXPECT_EQ(triedRefined(counted, counted.requestedSites), (long long)counted.suppression.suppressed());

    config.siteRefiner = "refinement.suppression";
    const PipelineResult refined = Pipeline(config).run(dataset, quiet);
    EXPECT_EQ(triedRefined(refined, refined.requestedSites), (long long)refined.suppression.suppressed());
    ASSERT_TRUE(refined.refinement);
}

/** Site locations made so far by CountingLocator (atomic: the search may locate two counts side by side). */
std::atomic<int> gLocations{0};

/** Balanced density; counts its runs. */
class CountingLocator : public SiteLocator
{
public:
    std::vector<Point> locate(const RegionSet& regions, std::size_t count, Feedback& feedback) const override
    {
        ++gLocations;
        return mLocator->locate(regions, count, feedback);
    }

private:
    std::unique_ptr<SiteLocator> mLocator = BalancedDensitySites::create({});
};

// A run given the releases without refinement made already of its records (the generalization search's of
// the chosen node) takes them instead of making them again, and releases what it releases without them.
TEST(SuppressionBudget, ARunTakesTheLocatedReleasesItIsGiven)
{
    const GridRelease scene(17);
    Registry counting = Registry::builtIn();
    counting.siteLocators.emplace_back(
        "sitelocation.counting", "Counting", "Counts its runs.",
        [](const StrategyOptions&) -> std::unique_ptr<SiteLocator>
        { return std::make_unique<CountingLocator>(); },
        std::vector<OptionSpec>{}, Needs{}, "counting");
    PipelineConfig config = GridRelease::config();
    config.siteLocator = "sitelocation.counting";
    const Pipeline pipeline(config, counting);
    Feedback quiet;
    gLocations = 0;
    const PipelineResult alone = pipeline.run(scene.job, quiet);
    const int locationsAlone = gLocations;
    ASSERT_TRUE(alone.siteCountSearch);
    std::vector<SiteCountTrial> located;
    for (const SiteCountTrial& trial : alone.siteCountSearch->trials)
        if (!trial.refined)
            located.push_back(trial);
    ASSERT_GT(located.size(), 5u);

    gLocations = 0;
    const PipelineResult given = pipeline.run(scene.job, quiet, located);
    EXPECT_EQ(gLocations, locationsAlone - int(located.size()));
    ASSERT_TRUE(given.siteCountSearch);
    EXPECT_EQ(tried(given.siteCountSearch->trials), tried(alone.siteCountSearch->trials));
    EXPECT_EQ(given.requestedSites, alone.requestedSites);
    EXPECT_EQ(given.partition.regionSite, alone.partition.regionSite);
    EXPECT_EQ(given.suppression.suppressed(), alone.suppression.suppressed());
}

// With the region moves (the recommended release) the search measures the release with them: the chosen
// count's logged withholding is the release's, within the budget, and the next counts released with the
// moves from scratch exceed it.
TEST(SuppressionBudget, MeasuresTheReleaseWithTheRegionMoves)
{
    const GridRelease scene(8);
    const Dataset& dataset = scene.dataset;
    const Job& job = scene.job;
    const Pipeline& pipeline = scene.pipeline;
    ASSERT_FALSE(GridRelease::config().boundaryRefiner.empty());
    Feedback feedback;
    const PipelineResult result = pipeline.run(job, feedback);
    ASSERT_TRUE(result.boundary);
    EXPECT_GT(result.boundary->movesAccepted, 0u) << "the scene should give the region moves work";
    const Count budget = Count(double(dataset.totalRecords()) * 2.0 / 100.0);
    EXPECT_LE(result.suppression.suppressed(), budget);
    ASSERT_TRUE(result.siteCountSearch);
    EXPECT_EQ(result.siteCountSearch->budget, budget);
    EXPECT_EQ(result.siteCountSearch->records, dataset.totalRecords());
    EXPECT_EQ(triedRefined(result, result.requestedSites), (long long)result.suppression.suppressed());
    expectNextCountsExceed(pipeline, pipeline.prepare(job, feedback), result.requestedSites, budget);
    EXPECT_GT(result.requestedSites, 5u) << "the scene should allow several regions";
}

// Issue 31: a quiet log. The search is one line, with the count chosen, what its release withholds and how
// many releases were tried; every count tried goes to the result, for the report.
TEST(SuppressionBudget, SaysItsSearchInOneLineAndKeepsEveryCountTried)
{
    const GridRelease scene(8);
    test::RecordingFeedback log;
    const PipelineResult result = scene.pipeline.run(scene.job, log);
    ASSERT_TRUE(result.siteCountSearch);
    const std::vector<SiteCountTrial>& trials = result.siteCountSearch->trials;
    EXPECT_GT(trials.size(), 5u) << "the scene should take a search of several releases";
    std::vector<std::string> searchLines;
    std::copy_if(log.infos.begin(), log.infos.end(), std::back_inserter(searchLines),
                 [](const std::string& line) { return line.rfind("suppression budget:", 0) == 0; });
    ASSERT_EQ(searchLines.size(), 1u);
    const std::string said = std::to_string(result.requestedSites) + " sites are the most within it (" +
                             std::to_string(result.suppression.suppressed()) + " withheld; " +
                             std::to_string(trials.size()) + " releases tried)";
    EXPECT_NE(searchLines[0].find(said), std::string::npos) << searchLines[0] << "\nexpected: " << said;
    EXPECT_LE(log.infos.size(), 2u) << "the search line and at most one on regions without records";
}

// The search's refined releases are its long waits: each shows its own progress (the refinement's passes),
// not a single step once it is done, and the search's progress never goes back.
TEST(SuppressionBudget, ProgressMovesWithinEachRefinedRelease)
{
    const GridRelease scene(8);
    test::RecordingFeedback log;
    Feedback::Stage whole(log, 0.0, 1.0);
    const PipelineResult result = scene.pipeline.run(scene.job, log);
    ASSERT_TRUE(result.siteCountSearch);
    std::size_t refined = 0;
    for (const SiteCountTrial& trial : result.siteCountSearch->trials)
        refined += trial.refined;
    ASSERT_GT(refined, 3u);
    // Between two releases a search without progress inside them reports once; the refinement reports
    // within its passes.
    EXPECT_GT(log.progress.size(), 10 * result.siteCountSearch->trials.size());
    for (std::size_t i = 1; i < log.progress.size(); ++i)
        ASSERT_GE(log.progress[i], log.progress[i - 1] - 1e-12) << "report " << i;
}

// The pipeline's probe releases two counts side by side on a machine with two cores: every count the search
// tries must withhold what a release at that count alone withholds (Pipeline::finish, one after the other),
// so the search tries the same counts in the same order, finds the same figures and chooses the same count.
TEST(SuppressionBudget, ReleasesSideBySideAsOneByOne)
{
    const GridRelease scene(13);
    const Pipeline& pipeline = scene.pipeline;
    Feedback quiet;
    const PreparedData data = pipeline.prepare(scene.job, quiet);

    const PipelineResult sideBySide = pipeline.run(scene.job, quiet);
    ASSERT_TRUE(sideBySide.siteCountSearch);
    FunctionProbe oneByOne(data.regions.totalRecords() + data.globallySuppressed,
                           [&](std::uint64_t sites, bool refined)
                           {
                               Feedback feedback;
                               std::vector<Point> located = pipeline.locateSites(data, sites, feedback);
                               if (!refined)
                                   return pipeline.withheld(data, Sites(std::move(located)), feedback, false);
                               std::optional<RefinementReport> report;
                               const Sites refinedSites =
                                   pipeline.refineSites(data, std::move(located), report, feedback);
                               return pipeline.finish(data, refinedSites, feedback).suppression.suppressed();
                           });
    oneByOne.percent = 2.0;
    EXPECT_EQ(SuppressionBudgetCount().estimate(data.regions, data.k, oneByOne, quiet),
              sideBySide.requestedSites);
    EXPECT_EQ(tried(sideBySide.siteCountSearch->trials), tried(oneByOne.trials));
    EXPECT_GT(oneByOne.refinedAsked.size(), 4u) << "the search should try several refined counts";
}

// A cancel reaches both releases of a pair: the search stops with Canceled, whichever release saw it first.
TEST(SuppressionBudget, CancelStopsTheReleasesSideBySide)
{
    const GridRelease scene(17);
    const Pipeline& pipeline = scene.pipeline;
    Feedback quiet;
    const PreparedData data = pipeline.prepare(scene.job, quiet);
    // Counts the questions (from both threads) and cancels from the given one on.
    struct CancelLater : Feedback
    {
        explicit CancelLater(int cancelAfter)
            : after(cancelAfter)
        {
        }
        bool isCanceled() const override { return ++asked > after; }
        int after;
        mutable std::atomic<int> asked{0};
    };
    CancelLater never(std::numeric_limits<int>::max());
    pipeline.estimateSiteCount(data, never);
    ASSERT_GT(never.asked.load(), 20) << "the search should ask often enough to be stopped midway";
    for (const int after : {0, never.asked.load() / 3, never.asked.load() * 2 / 3})
    {
        CancelLater canceling(after);
        EXPECT_THROW(pipeline.estimateSiteCount(data, canceling), Canceled) << "canceled after " << after;
    }
}

// PipelineConfig::releasesSideBySide off (QGIS set to one core): every release runs on the calling thread,
// and the search tries the same counts as side by side.
TEST(SuppressionBudget, ReleasesOneAfterTheOtherWhenAskedTo)
{
    if (std::thread::hardware_concurrency() < 2)
        GTEST_SKIP() << "one core: releases never run side by side";
    // Notes the threads the releases ask from.
    struct Threads : Feedback
    {
        bool isCanceled() const override
        {
            const std::lock_guard<std::mutex> lock(mutex);
            asking.insert(std::this_thread::get_id());
            return false;
        }
        mutable std::mutex mutex;
        mutable std::set<std::thread::id> asking;
    };
    std::vector<std::tuple<std::uint64_t, bool, Count>> searched[2];
    for (const bool sideBySide : {true, false})
    {
        const GridRelease scene(13, sideBySide);
        Threads threads;
        const PipelineResult result = scene.pipeline.run(scene.job, threads);
        EXPECT_EQ(threads.asking.size(), sideBySide ? 2u : 1u)
            << (sideBySide ? "side by side" : "one by one");
        ASSERT_TRUE(result.siteCountSearch);
        searched[sideBySide] = tried(result.siteCountSearch->trials);
    }
    EXPECT_FALSE(searched[0].empty());
    EXPECT_EQ(searched[0], searched[1]);
}

// Past 800 counts the refined releases after the first round continue from the refined sites of the nearest
// count tried (SiteRefiner::resume). The search's bound still holds of the releases it measured: the chosen
// release is the one measured, within the budget, and a count at most a 400th above it was tried and is over.
TEST(SuppressionBudget, LargeDataContinuesRefinementsWithinTheStatedBound)
{
    const GridRelease scene(29, true, 100, 70);
    Feedback quiet;
    const PipelineResult result = scene.pipeline.run(scene.job, quiet);
    ASSERT_TRUE(result.siteCountSearch);
    const std::uint64_t chosen = result.requestedSites;
    ASSERT_GT(chosen, 800u) << "the scene should take the search past 800 counts";
    const Count budget = result.siteCountSearch->budget;
    EXPECT_EQ(triedRefined(result, chosen), (long long)result.suppression.suppressed());
    EXPECT_LE(result.suppression.suppressed(), budget);
    const std::uint64_t tolerance = chosen / 400;
    bool overWithin = false;
    for (const SiteCountTrial& trial : result.siteCountSearch->trials)
        overWithin |= trial.refined && trial.sites > chosen && trial.sites <= chosen + tolerance + 1 &&
                      trial.withheld > budget;
    EXPECT_TRUE(overWithin) << "no count within a tolerance above " << chosen << " was tried and over";
    ASSERT_TRUE(result.refinement);
    EXPECT_GT(result.refinement->continuedFrom, 0u)
        << "the chosen release should have continued a refinement";
    EXPECT_LE(result.refinement->entropyRise, 1.05 * (1.0 + 1e-9));
    // The release reuses the partition the search made of its sites: the same as partitioning them again.
    const PreparedData data = scene.pipeline.prepare(scene.job, quiet);
    const PipelineResult again =
        scene.pipeline.finish(data, Sites(result.partition.sites, result.partition.weights), quiet);
    EXPECT_EQ(again.partition.regionSite, result.partition.regionSite);
    EXPECT_EQ(again.suppression.suppressed(), result.suppression.suppressed());
    ASSERT_TRUE(again.boundary && result.boundary);
    EXPECT_EQ(again.boundary->movesAccepted, result.boundary->movesAccepted);
    // A comparison's row at the chosen count is the same release, not a refinement from located sites.
    const std::vector<SweepRow> rows = sweep(scene.pipeline, data, SweepOptions{0, 0.0}, quiet);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].siteCount, chosen);
    EXPECT_EQ(rows[0].result.partition.regionSite, result.partition.regionSite);
    EXPECT_EQ(rows[0].result.suppression.suppressed(), result.suppression.suppressed());
}

// Continuing a refinement at another count (SiteRefiner::resume, resizedSites): what resizing removes and
// adds checked against a brute-force power assignment and the records per aggregate counted here; the
// continued release recounted by a full partition and SuppressionOutcome::apply (Pipeline::finish).

#include "Pipeline.h"
#include "TestSupport.h"
#include "partition/VoronoiPartitioner.h"
#include "sitelocation/SuppressionRefiner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <set>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::qi;

namespace
{
/** Regions in clusters of different density, 3-60 records over two quasi-identifiers (skewed). */
Dataset clusteredScene(std::uint64_t seed, std::size_t regions)
{
    std::mt19937_64 generator(seed);
    std::discrete_distribution<std::uint32_t> age({6, 4, 3, 2, 1, 1});
    std::normal_distribution<double> spread(0.0, 1.0);
    const Point centres[] = {{200, 200}, {700, 300}, {450, 800}};
    const double widths[] = {40.0, 120.0, 250.0};
    DatasetBuilder builder({qi("age"), qi("sex")});
    for (std::size_t r = 0; r < regions; ++r)
    {
        const std::string id = std::to_string(r);
        const std::size_t cluster = r % 3;
        builder.region(id, centres[cluster].x + widths[cluster] * spread(generator),
                       centres[cluster].y + widths[cluster] * spread(generator));
        const std::size_t records = 3 + generator() % 58;
        for (std::size_t i = 0; i < records; ++i)
            builder.records(id, {age(generator), std::uint32_t(generator() % 2)});
    }
    return builder.build();
}

PipelineConfig refinedConfig(Count k)
{
    PipelineConfig config;
    config.k = k;
    config.siteCounter = "sitecount.fixed";
    config.siteLocator = "sitelocation.balanced_density";
    config.siteRefiner = "refinement.suppression";
    config.options.set("site_count", 1.0);
    return config;
}

/** The site of each region (partition.voronoi, checked against an exact brute force in PowerDiagramTest). */
std::vector<SiteIndex> owners(const PreparedData& data, const Sites& sites)
{
    Feedback feedback;
    return VoronoiPartitioner().partition(data.partitionInput(), sites, feedback).regionSite;
}

/** Regions with the sites a refinement gave at one count. */
struct Scene
{
    Scene(std::uint64_t seed, std::size_t regions, std::size_t sites, Count k)
        : dataset(clusteredScene(seed, regions))
        , pipeline(refinedConfig(k))
        , data(pipeline.prepare(dataset, feedback))
    {
        std::optional<RefinementReport> refinement;
        refined =
            pipeline.refineSites(data, pipeline.locateSites(data, sites, feedback), refinement, feedback);
        report = *refinement;
    }
    Feedback feedback;
    Dataset dataset;
    Pipeline pipeline;
    PreparedData data;
    Sites refined;
    RefinementReport report;
};

std::unique_ptr<Scene> refinedScene(std::uint64_t seed, std::size_t regions, std::size_t sites, Count k)
{
    return std::make_unique<Scene>(seed, regions, sites, k);
}

} // namespace

/** The location of each site, to follow sites across a resize. */
std::set<std::pair<double, double>> locations(const Sites& sites)
{
    std::set<std::pair<double, double>> at;
    for (const Point& p : sites.points)
        at.emplace(p.x, p.y);
    return at;
}

/** The regions whose site (by location) differs between the two partitions. */
std::vector<RegionIndex> regionsThatChangedSite(const std::vector<SiteIndex>& before,
                                                const Sites& sitesBefore, const std::vector<SiteIndex>& after,
                                                const Sites& sitesAfter)
{
    std::vector<RegionIndex> changed;
    for (RegionIndex r = 0; r < before.size(); ++r)
        if (!(sitesBefore.points[before[r]] == sitesAfter.points[after[r]]))
            changed.push_back(r);
    return changed;
}

TEST(ResizedSites, RemovesTheSmallestNonEmptyAggregatesAndKeepsEveryOtherSite)
{
    const auto scene = refinedScene(7, 600, 90, 5);
    const RegionSet& regions = scene->data.regions;
    const std::vector<SiteIndex> before = owners(scene->data, scene->refined);
    std::vector<Count> records(scene->refined.points.size(), 0);
    for (RegionIndex r = 0; r < before.size(); ++r)
        records[before[r]] += regions.records(r);

    const std::optional<ResizedSites> resized = resizedSites(
        regions, scene->data.partitionInput(), VoronoiPartitioner(), scene->refined, 82, scene->feedback);
    ASSERT_TRUE(resized);
    ASSERT_EQ(resized->sites.points.size(), 82u);
    // The removed ones, found by their locations, are the 8 least populated non-empty aggregates.
    const std::set<std::pair<double, double>> kept = locations(resized->sites);
    std::vector<SiteIndex> removed, candidates;
    for (SiteIndex s = 0; s < scene->refined.points.size(); ++s)
    {
        if (!kept.count({scene->refined.points[s].x, scene->refined.points[s].y}))
            removed.push_back(s);
        if (records[s] > 0)
            candidates.push_back(s);
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](SiteIndex a, SiteIndex b) { return records[a] < records[b]; });
    candidates.resize(8);
    std::sort(candidates.begin(), candidates.end());
    EXPECT_EQ(removed, candidates);
    // The others keep their order and weights.
    for (SiteIndex s = 0, next = 0; s < scene->refined.points.size(); ++s)
        if (!std::binary_search(removed.begin(), removed.end(), s))
        {
            EXPECT_EQ(resized->sites.points[next], scene->refined.points[s]);
            EXPECT_EQ(resized->sites.weights[next],
                      scene->refined.weights.empty() ? 0.0 : scene->refined.weights[s]);
            ++next;
        }
    // The changed regions: those whose site changed, which include every region of a removed aggregate.
    const std::vector<RegionIndex> changed =
        regionsThatChangedSite(before, scene->refined, owners(scene->data, resized->sites), resized->sites);
    EXPECT_EQ(resized->changedRegions, changed);
    for (RegionIndex r = 0; r < before.size(); ++r)
        if (std::binary_search(removed.begin(), removed.end(), before[r]))
        {
            EXPECT_TRUE(std::binary_search(changed.begin(), changed.end(), r));
        }
}

TEST(ResizedSites, EachAddedSiteSplitsALargeAggregateWithoutEmptyingAnother)
{
    for (const std::uint64_t seed : {3u, 7u, 11u})
    {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const auto scene = refinedScene(seed, 600, 90, 5);
        const RegionSet& regions = scene->data.regions;
        const std::vector<SiteIndex> before = owners(scene->data, scene->refined);
        const std::optional<ResizedSites> resized = resizedSites(
            regions, scene->data.partitionInput(), VoronoiPartitioner(), scene->refined, 99, scene->feedback);
        ASSERT_TRUE(resized);
        ASSERT_EQ(resized->sites.points.size(), 99u);
        EXPECT_EQ(locations(resized->sites).size(), 99u) << "sites at one location";
        for (SiteIndex s = 0; s < 90; ++s)
            EXPECT_EQ(resized->sites.points[s], scene->refined.points[s]);
        const std::vector<SiteIndex> after = owners(scene->data, resized->sites);
        std::vector<char> ownedBefore(90, 0), ownedAfter(99, 0);
        for (RegionIndex r = 0; r < before.size(); ++r)
            ownedBefore[before[r]] = 1, ownedAfter[after[r]] = 1;
        for (SiteIndex s = 0; s < 99; ++s)
        {
            EXPECT_TRUE(ownedAfter[s] || (s < 90 && !ownedBefore[s]))
                << (s < 90 ? "aggregate " : "added site ") << s << " owns no region";
        }
        EXPECT_EQ(resized->changedRegions,
                  regionsThatChangedSite(before, scene->refined, after, resized->sites));
    }
}

TEST(ResizedSites, RefusesCountsMoreThanATenthAway)
{
    EXPECT_TRUE(resizable(100, 110));
    EXPECT_TRUE(resizable(100, 90));
    EXPECT_FALSE(resizable(100, 111));
    EXPECT_FALSE(resizable(100, 89));
    EXPECT_FALSE(resizable(0, 1));
    const auto scene = refinedScene(3, 300, 40, 5);
    const PartitionInput input = scene->data.partitionInput();
    EXPECT_FALSE(
        resizedSites(scene->data.regions, input, VoronoiPartitioner(), scene->refined, 45, scene->feedback));
    EXPECT_TRUE(
        resizedSites(scene->data.regions, input, VoronoiPartitioner(), scene->refined, 44, scene->feedback));
}

TEST(ResumedRefinement, AtTheSameCountChangesNothing)
{
    const auto scene = refinedScene(5, 500, 70, 5);
    RefinementReport report;
    Feedback feedback;
    std::optional<RefinementReport> resumedReport;
    const std::optional<Sites> resumed = scene->pipeline.resumeRefinement(
        scene->data, scene->refined, scene->report, 70, resumedReport, feedback);
    ASSERT_TRUE(resumed);
    EXPECT_EQ(resumed->points, scene->refined.points);
    EXPECT_EQ(resumed->weights, scene->refined.weights);
    ASSERT_TRUE(resumedReport);
    EXPECT_EQ(resumedReport->movesTried, 0u) << "a converged refinement has nothing left to try";
    EXPECT_EQ(resumedReport->continuedFrom, 70u);
}

TEST(ResumedRefinement, NeverWithholdsMoreThanItsStartAndKeepsTheSlackOfTheChain)
{
    for (const std::uint64_t seed : {2u, 5u, 9u})
        for (const std::size_t count : {std::size_t(74), std::size_t(66)})
        {
            SCOPED_TRACE("seed " + std::to_string(seed) + " to " + std::to_string(count));
            const auto scene = refinedScene(seed, 500, 70, 5);
            Feedback feedback;
            std::optional<RefinementReport> report;
            const std::optional<Sites> resumed = scene->pipeline.resumeRefinement(
                scene->data, scene->refined, scene->report, count, report, feedback);
            ASSERT_TRUE(resumed);
            ASSERT_EQ(resumed->points.size(), count);
            // Its start, recounted.
            const std::optional<ResizedSites> start =
                resizedSites(scene->data.regions, scene->data.partitionInput(), VoronoiPartitioner(),
                             scene->refined, count, feedback);
            ASSERT_TRUE(start);
            const PipelineResult before = scene->pipeline.finish(scene->data, start->sites, feedback);
            const PipelineResult after = scene->pipeline.finish(scene->data, *resumed, feedback);
            EXPECT_LE(after.suppression.suppressed(), before.suppression.suppressed());
            EXPECT_GE(after.aggregation.size(), before.aggregation.size()) << "an aggregate was emptied";
            EXPECT_EQ(report->objectiveBefore, double(before.suppression.locallySuppressed));
            EXPECT_EQ(report->objectiveAfter, double(after.suppression.locallySuppressed));
            // The chain's rise over the located sites of the first run stays within the 5 % slack.
            const PipelineResult located = scene->pipeline.finish(
                scene->data, scene->pipeline.locateSites(scene->data, 70, feedback), feedback);
            EXPECT_LE(scene->report.entropyRise, 1.05 * (1.0 + 1e-9));
            EXPECT_LE(report->entropyRise, 1.05 * (1.0 + 1e-9));
            EXPECT_NEAR(scene->report.entropyRise,
                        scene->pipeline.finish(scene->data, scene->refined, feedback)
                                .metric("quality.non_uniform_entropy") /
                            located.metric("quality.non_uniform_entropy"),
                        1e-9);
        }
}

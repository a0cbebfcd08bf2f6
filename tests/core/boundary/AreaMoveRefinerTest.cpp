// boundary.suppression against independent recounts: withheld records and NUE come from the release
// (SuppressionOutcome::apply and the metric) of the same sites with and without the stage; the pieces of
// every aggregate are counted here from the grid's own neighbours, never from the stage's bookkeeping.

#include "boundary/AreaMoveRefiner.h"
#include "Pipeline.h"
#include "SceneSupport.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::GridScene;
using vbas::test::qi;

namespace
{
/** A grid scene with 3-30 records per square over two skewed quasi-identifiers (5 x 2 classes). */
struct Scene
{
    std::unique_ptr<GridScene> grid;
    Dataset dataset;
};

Scene randomScene(std::uint64_t seed, std::size_t columns, std::size_t rows)
{
    auto grid = std::make_unique<GridScene>(columns, rows, 10.0, seed);
    std::mt19937_64 generator(seed);
    std::discrete_distribution<std::uint32_t> age({6, 4, 3, 2, 1});
    DatasetBuilder builder({qi("age"), qi("sex")});
    for (std::size_t r = 0; r < grid->points.size(); ++r)
    {
        const std::string id = std::to_string(r);
        builder.region(id, grid->points[r].x, grid->points[r].y);
        for (std::size_t i = 0, records = 3 + generator() % 28; i < records; ++i)
            builder.records(id, {age(generator), std::uint32_t(generator() % 2)});
    }
    return {std::move(grid), builder.build()};
}

PipelineConfig configFor(Count k, std::size_t sites, const std::string& boundary, double slack = 0.0,
                         double borderShare = 0.0)
{
    PipelineConfig config;
    config.k = k;
    config.siteCounter = "sitecount.fixed";
    config.siteLocator = "sitelocation.balanced_density";
    config.boundaryRefiner = boundary;
    config.options.set("site_count", double(sites))
        .set("boundary_entropy_slack", slack)
        .set("boundary_border_share", borderShare);
    return config;
}

/** The squares sharing a side with square r: the grid's own neighbours, not the engine's adjacency. */
std::vector<RegionIndex> gridNeighbours(const GridScene& grid, RegionIndex r)
{
    const std::size_t c = r % grid.columns, row = r / grid.columns;
    std::vector<RegionIndex> next;
    if (c > 0)
        next.push_back(grid.index(c - 1, row));
    if (c + 1 < grid.columns)
        next.push_back(grid.index(c + 1, row));
    if (row > 0)
        next.push_back(grid.index(c, row - 1));
    if (row + 1 < grid.rows)
        next.push_back(grid.index(c, row + 1));
    return next;
}

/** Pieces of every aggregate: its regions linked by shared borders (the grid's four neighbours). */
std::vector<std::size_t> piecesOf(const GridScene& grid, const Aggregation& aggregation)
{
    std::vector<std::size_t> pieces(aggregation.size(), 0);
    std::vector<char> seen(grid.points.size(), 0);
    for (RegionIndex start = 0; start < grid.points.size(); ++start)
    {
        const std::uint32_t a = aggregation.regionAggregate[start];
        if (seen[start] || a == Aggregation::kNoAggregate)
            continue;
        ++pieces[a];
        std::vector<RegionIndex> stack{start};
        seen[start] = 1;
        while (!stack.empty())
        {
            const RegionIndex r = stack.back();
            stack.pop_back();
            for (RegionIndex n : gridNeighbours(grid, r))
                if (!seen[n] && aggregation.regionAggregate[n] == a)
                {
                    seen[n] = 1;
                    stack.push_back(n);
                }
        }
    }
    return pieces;
}

std::size_t releasingAggregates(const PipelineResult& result)
{
    std::size_t count = 0;
    for (const Count released : result.suppression.aggregateReleased)
        count += released > 0;
    return count;
}

PipelineResult runOn(const Scene& scene, const PipelineConfig& config,
                     const std::vector<std::uint32_t>& parents = {})
{
    Job job(scene.dataset);
    job.spatial = scene.grid->spatial;
    job.regionParent = parents;
    Feedback feedback;
    return Pipeline(config).run(job, feedback);
}

struct CancelAtOnce : Feedback
{
    bool isCanceled() const override { return true; }
};

/**
 * Four areas in a row, 0-1-2-3, neighbours along it; k = 2. Areas 0 and 3 hold three a-records, 1 and 2
 * one b-record each; sites at x = 5 and 25 give aggregates {0, 1} and {2, 3}, which withhold the two
 * b-records. Moving area 1 (the first with a bordering aggregate) to {2, 3} releases both. Areas 0 and 1,
 * and 2 and 3, share a border of `outerBorder`; areas 1 and 2 one of 1.
 */
struct Row
{
    Dataset dataset;
    std::shared_ptr<const RegionAdjacency> adjacency;

    explicit Row(double outerBorder = 1.0)
        : dataset(DatasetBuilder({qi("class", 2)})
                      .region("0", 0.0, 0.0)
                      .region("1", 10.0, 1.0)
                      .region("2", 20.0, 0.0)
                      .region("3", 30.0, 1.0)
                      .records("0", {0}, 3)
                      .records("1", {1})
                      .records("2", {1})
                      .records("3", {0}, 3)
                      .build())
        , adjacency(std::make_shared<const RegionAdjacency>(RegionAdjacency::fromPairs(
              4,
              {{0, 1, outerBorder, {5.0, 0.5}}, {1, 2, 1.0, {15.0, 0.5}}, {2, 3, outerBorder, {25.0, 0.5}}})))
    {
    }

    PipelineResult release(double slack, std::shared_ptr<const Obstacles> obstacles = nullptr,
                           std::vector<std::uint32_t> parents = {}, double borderShare = 50.0) const
    {
        PipelineConfig config = configFor(2, 2, "boundary.suppression", slack, borderShare);
        if (obstacles)
            config.partitioner = "partition.barrier";
        Job job(dataset);
        job.spatial.adjacency = adjacency;
        job.spatial.obstacles = std::move(obstacles);
        job.regionParent = std::move(parents);
        Feedback feedback;
        const Pipeline pipeline(config);
        const PreparedData data = pipeline.prepare(job, feedback);
        return pipeline.finish(data, Sites({{5.0, 0.5}, {25.0, 0.5}}), feedback);
    }
};
} // namespace

TEST(AreaMoveRefiner, NeverWithholdsMoreNorLosesOrSplitsARegionOnRandomScenes)
{
    int improved = 0, runs = 0;
    for (std::uint64_t seed = 1; seed <= 10; ++seed)
    {
        const Scene scene = randomScene(seed, 9, 7);
        for (const Count k : {Count(3), Count(5)})
            for (const std::size_t sites : {std::size_t(3), std::size_t(8), std::size_t(20)})
                for (const double slack : {0.0, 5.0})
                    for (const double borderShare : {0.0, 50.0})
                    {
                        SCOPED_TRACE("seed " + std::to_string(seed) + " k " + std::to_string(k) + " s " +
                                     std::to_string(sites) + " slack " + std::to_string(slack) +
                                     " border share " + std::to_string(borderShare));
                        const PipelineResult before = runOn(scene, configFor(k, sites, ""));
                        const PipelineResult after =
                            runOn(scene, configFor(k, sites, "boundary.suppression", slack, borderShare));
                        ASSERT_TRUE(after.boundary);
                        EXPECT_LE(after.suppression.suppressed(), before.suppression.suppressed());
                        EXPECT_EQ(after.aggregation.size(), before.aggregation.size())
                            << "an aggregate was emptied";
                        EXPECT_GE(releasingAggregates(after), releasingAggregates(before));
                        EXPECT_EQ(after.boundary->objectiveBefore,
                                  double(before.suppression.locallySuppressed));
                        EXPECT_EQ(after.boundary->objectiveAfter,
                                  double(after.suppression.locallySuppressed));
                        const double entropyBefore = before.metric("quality.non_uniform_entropy");
                        const double entropyAfter = after.metric("quality.non_uniform_entropy");
                        EXPECT_LE(entropyAfter, entropyBefore * (1.0 + slack / 100.0) + 1e-9);
                        // The same sites: aggregate a of both releases is the aggregate of the same site.
                        ASSERT_EQ(after.aggregation.aggregateSite, before.aggregation.aggregateSite);
                        const std::vector<std::size_t> piecesBefore =
                            piecesOf(*scene.grid, before.aggregation);
                        const std::vector<std::size_t> piecesAfter = piecesOf(*scene.grid, after.aggregation);
                        for (std::size_t a = 0; a < piecesAfter.size(); ++a)
                            EXPECT_LE(piecesAfter[a], piecesBefore[a]) << "aggregate " << a << " was split";
                        // A moved area borders the rest of its new aggregate when that was in one piece (a
                        // later move may leave it alone in a piece of its own when the aggregate had
                        // several).
                        for (RegionIndex r = 0; r < scene.grid->points.size(); ++r)
                        {
                            const std::uint32_t a = after.aggregation.regionAggregate[r];
                            if (a == before.aggregation.regionAggregate[r] || piecesBefore[a] > 1 ||
                                after.aggregation.memberCount(a) == 1)
                                continue;
                            const std::vector<RegionIndex> next = gridNeighbours(*scene.grid, r);
                            const bool borders = std::any_of(
                                next.begin(), next.end(),
                                [&](RegionIndex n) { return after.aggregation.regionAggregate[n] == a; });
                            EXPECT_TRUE(borders) << "area " << r << " joined an aggregate it does not border";
                        }
                        improved += after.suppression.suppressed() < before.suppression.suppressed();
                        ++runs;
                    }
    }
    EXPECT_GT(improved, runs / 2) << "the scenes should give the boundary moves work";
}

TEST(AreaMoveRefiner, KeepsEveryAggregateWithinItsParent)
{
    const Scene scene = randomScene(11, 8, 6);
    std::vector<std::uint32_t> parents;
    for (std::size_t r = 0; r < scene.grid->points.size(); ++r)
        parents.push_back(std::uint32_t((r % scene.grid->columns) * 2 / scene.grid->columns));
    const PipelineResult before = runOn(scene, configFor(5, 12, ""), parents);
    const PipelineResult after = runOn(scene, configFor(5, 12, "boundary.suppression", 5.0), parents);
    ASSERT_TRUE(after.boundary);
    EXPECT_GT(after.boundary->movesAccepted, 0u) << "the scene should give the boundary moves work";
    EXPECT_LT(after.suppression.suppressed(), before.suppression.suppressed());
    std::vector<std::uint32_t> parentOf(after.aggregation.size(), Aggregation::kNoAggregate);
    for (RegionIndex r = 0; r < parents.size(); ++r)
    {
        std::uint32_t& parent = parentOf[after.aggregation.regionAggregate[r]];
        if (parent == Aggregation::kNoAggregate)
            parent = parents[r];
        EXPECT_EQ(parent, parents[r]) << "region " << r << " joined an aggregate of another parent";
    }
}

TEST(AreaMoveRefiner, MovesTheAreaThatReleasesTwoRecordsByHand)
{
    const Row row;
    // With no entropy allowance the move is refused: before it, every released record shares its
    // aggregate with its own area only (NUE 0).
    const PipelineResult capped = row.release(0.0);
    EXPECT_EQ(capped.suppression.suppressed(), 2u);
    EXPECT_EQ(capped.boundary->movesAccepted, 0u);

    const PipelineResult result = row.release(std::numeric_limits<double>::infinity());
    EXPECT_EQ(result.suppression.suppressed(), 0u);
    const std::vector<std::uint32_t>& aggregate = result.aggregation.regionAggregate;
    EXPECT_NE(aggregate[0], aggregate[1]);
    EXPECT_EQ(aggregate[1], aggregate[2]);
    EXPECT_EQ(aggregate[2], aggregate[3]);
    // {1, 2, 3} releases 1 + 1 + 3 records: NUE = 2 log2(5) + 3 log2(5 / 3); {0} adds 0.
    EXPECT_NEAR(result.metric("quality.non_uniform_entropy"), 2 * std::log2(5.0) + 3 * std::log2(5.0 / 3.0),
                1e-9);
    EXPECT_EQ(result.boundary->objectiveBefore, 2.0);
    EXPECT_EQ(result.boundary->objectiveAfter, 0.0);
    EXPECT_EQ(result.boundary->stopReason, "no records withheld");
}

TEST(AreaMoveRefiner, DoesNotCrossObstaclesOrParents)
{
    const Row row;
    const double unlimited = std::numeric_limits<double>::infinity();
    // A river between areas 1 and 2 (across the border crossing at x = 15, y = 0.5 to area 2).
    auto river = std::make_shared<const Obstacles>(std::vector<Segment>{{{17.0, -5.0}, {17.0, 5.0}}});
    const PipelineResult blocked = row.release(unlimited, river);
    EXPECT_EQ(blocked.suppression.suppressed(), 2u);
    EXPECT_EQ(blocked.boundary->movesAccepted, 0u);
    // Areas 0-1 and 2-3 in different parents.
    const PipelineResult parents = row.release(unlimited, nullptr, {0, 0, 1, 1});
    EXPECT_EQ(parents.suppression.suppressed(), 2u);
    EXPECT_EQ(parents.boundary->movesAccepted, 0u);
}

TEST(AreaMoveRefiner, MovesAnAreaOnlyToARegionItSharesEnoughBorderWith)
{
    const double unlimited = std::numeric_limits<double>::infinity();
    // Area 1 shares 3 with area 0 (its region) and 1 with area 2, a third of what it leaves; area 2 the same.
    const Row row(3.0);
    EXPECT_EQ(row.release(unlimited, nullptr, {}, 34.0).boundary->movesAccepted, 0u);
    const PipelineResult moved = row.release(unlimited, nullptr, {}, 33.0);
    EXPECT_EQ(moved.suppression.suppressed(), 0u);
    EXPECT_EQ(moved.aggregation.regionAggregate[1], moved.aggregation.regionAggregate[2]);
    EXPECT_EQ(row.release(unlimited, nullptr, {}, 0.0).suppression.suppressed(), 0u);
}

TEST(AreaMoveRefiner, CountsLDiversityWithholdingInItsObjective)
{
    int improved = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed)
    {
        auto grid = std::make_unique<GridScene>(8, 6, 10.0, seed);
        std::mt19937_64 generator(seed);
        std::discrete_distribution<std::uint32_t> age({5, 4, 3, 2, 1});
        std::discrete_distribution<std::uint32_t> diagnosis({8, 1, 1});
        DatasetBuilder builder({qi("age"), qi("sex")});
        builder.sensitiveFields(1);
        for (std::size_t r = 0; r < grid->points.size(); ++r)
        {
            const std::string id = std::to_string(r);
            builder.region(id, grid->points[r].x, grid->points[r].y);
            for (std::size_t i = 0, records = 5 + generator() % 30; i < records; ++i)
                builder.records(id, {age(generator), std::uint32_t(generator() % 2)}, 1,
                                {diagnosis(generator)});
        }
        const Scene scene{std::move(grid), builder.build()};
        PipelineConfig plain = configFor(4, 10, "");
        test::withDiversity(plain.options, {2, DiversityRule::Measure::Distinct});
        PipelineConfig refined = configFor(4, 10, "boundary.suppression", 5.0);
        test::withDiversity(refined.options, {2, DiversityRule::Measure::Distinct});
        const PipelineResult before = runOn(scene, plain);
        const PipelineResult after = runOn(scene, refined);
        EXPECT_EQ(after.boundary->objectiveBefore,
                  double(before.suppression.locallySuppressed + before.suppression.diversitySuppressed));
        EXPECT_EQ(after.boundary->objectiveAfter,
                  double(after.suppression.locallySuppressed + after.suppression.diversitySuppressed));
        EXPECT_LE(after.suppression.suppressed(), before.suppression.suppressed());
        improved += after.suppression.diversitySuppressed < before.suppression.diversitySuppressed;
    }
    EXPECT_GT(improved, 0) << "the scenes should give l-diversity withholding to lower";
}

TEST(AreaMoveRefiner, IsDeterministicAndStopsOnCancel)
{
    const Scene scene = randomScene(21, 10, 8);
    const PipelineResult first = runOn(scene, configFor(5, 15, "boundary.suppression", 5.0));
    const PipelineResult second = runOn(scene, configFor(5, 15, "boundary.suppression", 5.0));
    EXPECT_GT(first.boundary->movesAccepted, 0u);
    EXPECT_EQ(first.aggregation.regionAggregate, second.aggregation.regionAggregate);
    EXPECT_EQ(first.boundary->movesTried, second.boundary->movesTried);

    Feedback feedback;
    const Pipeline pipeline(configFor(5, 15, ""));
    Job job(scene.dataset);
    job.spatial = scene.grid->spatial;
    const PreparedData data = pipeline.prepare(job, feedback);
    std::vector<SiteIndex> regionSite(data.regions.size(), 0);
    regionSite[0] = 1;
    RefinementReport report;
    CancelAtOnce canceled;
    EXPECT_THROW(
        AreaMoveRefiner(0.0, 0.0, 0.0)
            .refine({data.regions, *job.spatial.adjacency, nullptr, {}}, 5, regionSite, 2, report, canceled),
        Canceled);
}

TEST(AreaMoveRefiner, NeedsTheRegionPolygonsAndSaysSo)
{
    const Scene scene = randomScene(3, 4, 4);
    Feedback feedback;
    try
    {
        Pipeline(configFor(5, 3, "boundary.suppression")).run(Job(scene.dataset), feedback);
        FAIL() << "a job without polygons or adjacency must be refused";
    }
    catch (const Error& error)
    {
        EXPECT_NE(std::string(error.what()).find("boundary.suppression needs the region polygons"),
                  std::string::npos)
            << error.what();
    }
}

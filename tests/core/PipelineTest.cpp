#include "Pipeline.h"
#include "PropertyCheck.h"
#include "Release.h"
#include "SceneSupport.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <map>
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

namespace
{
/** A grid of 10 m squares with random records of two quasi-identifiers, some too rare for k = 4. */
struct GridJob
{
    vbas::test::GridScene scene{8, 6, 10.0, 3};
    DatasetBuilder builder{{qi("age", 3), qi("sex", 2)}};
    Dataset dataset;

    GridJob()
        : dataset(build())
    {
    }

    Dataset build()
    {
        std::mt19937_64 generator(17);
        for (std::size_t r = 0; r < scene.points.size(); ++r)
            builder.region(std::to_string(r), scene.points[r].x, scene.points[r].y);
        for (int row = 0; row < 400; ++row)
        {
            // Skewed ages: age 2 with sex 1 is rare, so global suppression has work.
            const std::uint32_t age = generator() % 10 == 0 ? 2 : std::uint32_t(generator() % 2);
            builder.records(
                std::to_string(generator() % scene.points.size()),
                {age, age == 2 ? std::uint32_t(generator() % 7 == 0) : std::uint32_t(generator() % 2)});
        }
        return builder.build();
    }

    Job job() const
    {
        Job job(dataset);
        job.geometries = &scene.geometries;
        return job;
    }
};

PipelineConfig fixedSites(double sites, const std::string& partitioner = "partition.voronoi")
{
    PipelineConfig config;
    config.k = 4;
    config.siteCounter = "sitecount.fixed";
    config.options.set("site_count", sites);
    config.partitioner = partitioner;
    return config;
}

template <typename Call> Subject errorSubject(Call call)
{
    try
    {
        call();
    }
    catch (const Error& error)
    {
        return error.subject();
    }
    ADD_FAILURE() << "no Error thrown";
    return Subject::General;
}
} // namespace

TEST(Pipeline, ReleaseIsTheStagesWithPolygonsCellsAndFates)
{
    const GridJob grid;
    const Pipeline pipeline(fixedSites(9.0));
    Feedback feedback;
    const ReleaseResult whole = vbas::release(pipeline, grid.job(), ReleaseRequest{true, {}}, feedback);
    const PipelineResult staged = pipeline.run(grid.job(), feedback);
    EXPECT_EQ(whole.result.aggregation.regionAggregate, staged.aggregation.regionAggregate);
    EXPECT_EQ(whole.result.suppression.released, staged.suppression.released);
    ASSERT_NO_FATAL_FAILURE(vbas::test::expectGuarantee(grid.builder.table(), grid.dataset, whole.result, 4));

    // Polygons: the members' squares, 100 m2 each, dissolved.
    const Aggregation& aggregation = whole.result.aggregation;
    ASSERT_EQ(whole.polygons.size(), aggregation.size());
    for (std::size_t a = 0; a < aggregation.size(); ++a)
        EXPECT_NEAR(whole.polygons[a].area, 100.0 * double(aggregation.memberCount(a)), 1e-6) << a;
    ASSERT_EQ(whole.cells.wkb.size(), whole.result.partition.sites.size());
    for (const std::vector<unsigned char>& cell : whole.cells.wkb)
        EXPECT_FALSE(cell.empty());
    EXPECT_TRUE(whole.cells.withoutCell.empty());

    // Fates and the per-aggregate global suppression, recounted from the rows: a class of fewer than k
    // rows in the whole table is withheld globally.
    std::map<ClassId, Count> classRows;
    for (std::size_t row = 0; row < grid.dataset.rows(); ++row)
        ++classRows[grid.dataset.rowClass(row)];
    ASSERT_EQ(whole.fates.size(), grid.dataset.rows());
    std::vector<Count> global(aggregation.size(), 0);
    Count released = 0, globally = 0;
    for (std::size_t row = 0; row < grid.dataset.rows(); ++row)
    {
        const bool rare = classRows[grid.dataset.rowClass(row)] < 4;
        EXPECT_EQ(whole.fates[row] == RecordFate::SuppressedGlobally, rare) << "row " << row;
        released += whole.fates[row] == RecordFate::Released;
        globally += rare;
        if (rare)
            ++global[aggregation.regionAggregate[grid.dataset.rowRegion(row)]];
    }
    EXPECT_GT(globally, 0u) << "the scene should have rare classes";
    EXPECT_EQ(released, whole.result.suppression.released);
    for (std::size_t a = 0; a < aggregation.size(); ++a)
        EXPECT_EQ(whole.result.aggregates[a].recordsGloballySuppressed, global[a]) << "aggregate " << a;
}

TEST(Pipeline, ReleaseWithoutPolygonsHasNoneAndRefusesCells)
{
    const GridJob grid;
    const Pipeline pipeline(fixedSites(9.0));
    Feedback feedback;
    const ReleaseResult whole = vbas::release(pipeline, grid.dataset, ReleaseRequest{}, feedback);
    EXPECT_TRUE(whole.polygons.empty());
    EXPECT_EQ(whole.fates.size(), grid.dataset.rows());
    EXPECT_EQ(errorSubject(
                  [&] {
                      vbas::release(pipeline, grid.dataset, ReleaseRequest{true, {}}, feedback);
                  }),
              Subject::Partition);
}

TEST(Pipeline, BuildsTheAdjacencyAJobLacksFromItsPolygons)
{
    const GridJob grid;
    Feedback feedback;
    for (const bool contiguity : {false, true})
    {
        PipelineConfig config = fixedSites(7.0, contiguity ? "partition.voronoi" : "partition.barrier");
        config.repairContiguity = contiguity;
        const Pipeline pipeline(config);
        Job given(grid.dataset);
        given.spatial = grid.scene.spatial; // the scene's own adjacency, built by the test
        const PipelineResult fromPolygons = pipeline.run(grid.job(), feedback);
        EXPECT_EQ(fromPolygons.aggregation.regionAggregate,
                  pipeline.run(given, feedback).aggregation.regionAggregate)
            << (contiguity ? "contiguity repair" : "barrier partition");
        EXPECT_EQ(pipeline.needs().adjacency, true);
        EXPECT_EQ(errorSubject([&] { pipeline.run(grid.dataset, feedback); }), Subject::Partition);
    }
    EXPECT_FALSE(Pipeline(fixedSites(7.0)).needs().adjacency);
}

TEST(Pipeline, ParentsMustNameEveryRegion)
{
    const GridJob grid;
    Job job = grid.job();
    job.regionParent.assign(grid.dataset.regionCount() - 1, 0);
    Feedback feedback;
    EXPECT_EQ(errorSubject([&] { Pipeline(fixedSites(5.0)).run(job, feedback); }), Subject::Partition);
    job.regionParent.assign(grid.dataset.regionCount(), 0);
    for (std::size_t r = 0; r < grid.dataset.regionCount(); r += 2)
        job.regionParent[r] = 1; // alternate columns: every aggregate within one parent
    const PipelineResult result = Pipeline(fixedSites(5.0)).run(job, feedback);
    for (RegionIndex r = 0; r < grid.dataset.regionCount(); ++r)
        for (RegionIndex s = 0; s < grid.dataset.regionCount(); ++s)
        {
            if (result.aggregation.regionAggregate[r] == result.aggregation.regionAggregate[s])
            {
                ASSERT_EQ(job.regionParent[r], job.regionParent[s]);
            }
        }
}

TEST(Pipeline, SingleStagesAreThoseOfTheRelease)
{
    const GridJob grid;
    PipelineConfig config;
    config.k = 4;
    config.siteCounter = "sitecount.naive_anonymity";
    const Pipeline pipeline(config);
    Feedback feedback;
    const ReleaseResult whole = vbas::release(pipeline, grid.job(), ReleaseRequest{}, feedback);

    const SiteCountEstimate estimate = pipeline.estimateSites(grid.job(), feedback);
    EXPECT_EQ(estimate.sites, whole.result.requestedSites);
    EXPECT_EQ(estimate.unclamped, whole.result.estimatedSites);
    EXPECT_EQ(estimate.releasableRecords,
              grid.dataset.totalRecords() - whole.result.suppression.globallySuppressed);
    EXPECT_EQ(estimate.maxCombs, 6.0L); // 3 ages x 2 sexes
    std::size_t holding = 0;            // regions with a record that global suppression left
    for (RegionIndex r = 0; r < grid.dataset.regionCount(); ++r)
    {
        bool kept = false;
        for (std::size_t row = 0; row < grid.dataset.rows(); ++row)
            kept |= grid.dataset.rowRegion(row) == r && whole.fates[row] != RecordFate::SuppressedGlobally;
        holding += kept;
    }
    EXPECT_EQ(estimate.regionsWithRecords, holding);

    const std::vector<Point> sites = pipeline.selectSites(grid.job(), feedback).points;
    ASSERT_EQ(sites.size(), whole.result.partition.sites.size());
    for (std::size_t s = 0; s < sites.size(); ++s)
    {
        EXPECT_EQ(sites[s].x, whole.result.partition.sites[s].x);
        EXPECT_EQ(sites[s].y, whole.result.partition.sites[s].y);
    }
    const ReleaseResult around = pipeline.releaseAroundSites(grid.job(), sites, ReleaseRequest{}, feedback);
    EXPECT_EQ(around.result.aggregation.regionAggregate, whole.result.aggregation.regionAggregate);
    EXPECT_EQ(around.fates, whole.fates);
    EXPECT_EQ(errorSubject([&] { pipeline.releaseAroundSites(grid.job(), {}, ReleaseRequest{}, feedback); }),
              Subject::SiteLocation);
}

// The release guarantee over at least 1,000 random scenarios for every strategy combination
// (site count x site location x refinement x partition; every other scenario with each boundary
// refinement in turn), with parents, contiguity repair and global suppression drawn per scenario, and random
// sensitive fields with a random l-diversity rule. Checked by recounting the released groups and their
// sensitive values from the raw records and the per-row fates (PropertyCheck.h), never from the engine's own
// counters. With random hierarchies, the recount reads the raw records at the released levels straight from
// the hierarchies (SPEC section 12).
#include "Pipeline.h"
#include "PropertyCheck.h"
#include "Release.h"
#include "SceneSupport.h"
#include "TestSupport.h"
#include "generalization/HierarchySupport.h"

#include <gtest/gtest.h>

#include <random>

using namespace vbas;
using namespace vbas::test;

namespace
{
constexpr int kScenarios = 1000;

/** A small random release on a grid of square regions, with a river and sometimes parents. */
struct Scenario
{
    /** Categories of each quasi-identifier that the records use (declared before `builder`). */
    std::vector<std::uint32_t> observed;
    std::unique_ptr<GridScene> scene;
    DatasetBuilder builder;
    std::unique_ptr<Dataset> dataset;
    Count k;
    std::uint64_t fixedSites;
    std::uint64_t seed;
    bool globalSuppression;
    bool contiguity;
    std::vector<std::uint32_t> parents;
    DiversityRule diversity;

    explicit Scenario(std::mt19937_64& generator)
        : builder(schema(generator))
    {
        const auto pick = [&](std::uint64_t n)
        {
            return generator() % n;
        };
        const std::size_t columns = 1 + pick(7), rows = 1 + pick(5);
        scene = std::make_unique<GridScene>(columns, rows, 10.0, generator(), 0.3 + 0.15 * double(pick(2)));
        const double w = double(columns) * 10.0, h = double(rows) * 10.0;
        if (pick(3) != 0)
            scene->setObstacles({"LINESTRING (-1 " + std::to_string(double(pick(100)) / 100.0 * h) + ", " +
                                 std::to_string(w + 1) + " " + std::to_string(double(pick(100)) / 100.0 * h) +
                                 ")"});
        const bool weighted = pick(3) == 0;
        if (weighted)
            builder.weighted();
        // Few values per sensitive field, so that groups fail l as often as they pass.
        std::vector<std::uint32_t> sensitiveValues(pick(3));
        for (std::uint32_t& values : sensitiveValues)
            values = std::uint32_t(1 + pick(4));
        builder.sensitiveFields(sensitiveValues.size());
        if (!sensitiveValues.empty())
            diversity = {Count(pick(5)),
                         pick(2) == 0 ? DiversityRule::Measure::Distinct : DiversityRule::Measure::Entropy};
        for (std::size_t r = 0; r < scene->points.size(); ++r)
            builder.region(std::to_string(r), scene->points[r].x, scene->points[r].y);
        const std::size_t records = 1 + pick(120);
        Count total = 0;
        for (std::size_t i = 0; i < records; ++i)
        {
            std::vector<std::uint32_t> codes;
            for (std::uint32_t c : observed)
                codes.push_back(std::uint32_t(pick(c)));
            std::vector<std::uint32_t> sensitive;
            for (std::uint32_t values : sensitiveValues)
                sensitive.push_back(std::uint32_t(pick(values)));
            const std::int64_t count = weighted ? std::int64_t(1 + pick(4)) : 1;
            builder.records(std::to_string(pick(scene->points.size())), codes, count, sensitive);
            total += Count(count);
        }
        if (total < 2)
            builder.records("0", std::vector<std::uint32_t>(observed.size(), 0), 1,
                            std::vector<std::uint32_t>(sensitiveValues.size(), 0));
        // A count table with sensitive fields publishes a row per group and values: each held to k.
        if (weighted && !sensitiveValues.empty())
            builder.countRowsBySensitiveValues();
        dataset = std::make_unique<Dataset>(builder.build());
        k = std::min<Count>(2 + pick(4), dataset->totalRecords());
        fixedSites = 1 + pick(scene->points.size() + 3);
        seed = generator();
        globalSuppression = pick(2) == 0;
        contiguity = pick(3) == 0;
        if (pick(3) == 0)
            for (std::size_t r = 0; r < scene->points.size(); ++r)
                parents.push_back(std::uint32_t((r % columns) * 2 / columns));
    }

private:
    std::vector<QuasiIdentifier> schema(std::mt19937_64& generator)
    {
        std::vector<QuasiIdentifier> qis;
        const std::size_t count = generator() % 4;
        const bool huge = generator() % 8 == 0; // declared counts whose product passes 2^64
        for (std::size_t i = 0; i < count; ++i)
        {
            qis.push_back(qi("q" + std::to_string(i), huge ? (std::uint64_t(1) << 40) : 0));
            observed.push_back(std::uint32_t(1 + generator() % (huge ? 30 : 4)));
        }
        return qis;
    }
};
} // namespace

class EveryCombination : public ::testing::TestWithParam<std::string>
{
};

TEST_P(EveryCombination, KeepsTheGuaranteeOverAThousandScenarios)
{
    const Registry& registry = Registry::builtIn();
    std::mt19937_64 generator(std::hash<std::string>{}(GetParam()));
    std::size_t runs = 0;
    // No refinement, then every registered refiner.
    std::vector<std::string> refiners{""};
    for (const auto& refiner : registry.siteRefiners)
        refiners.push_back(refiner.id);
    // Scenario s: none, then each registered boundary refinement, in turn.
    std::vector<std::string> boundaryRefiners{""};
    for (const auto& refiner : registry.boundaryRefiners)
        boundaryRefiners.push_back(refiner.id);
    for (int s = 0; s < kScenarios; ++s)
    {
        const Scenario scenario(generator);
        for (const auto& counter : registry.siteCounters)
            for (const auto& locator : registry.siteLocators)
                for (const std::string& refiner : refiners)
                {
                    PipelineConfig config;
                    config.k = scenario.k;
                    config.globalSuppression = scenario.globalSuppression;
                    config.siteCounter = counter.id;
                    config.siteLocator = locator.id;
                    config.siteRefiner = refiner;
                    config.partitioner = GetParam();
                    config.boundaryRefiner = boundaryRefiners[std::size_t(s) % boundaryRefiners.size()];
                    config.options.set("site_count", double(scenario.fixedSites));
                    config.options.set("seed", double(scenario.seed));
                    config.repairContiguity = scenario.contiguity;
                    test::withDiversity(config.options, scenario.diversity);
                    Job job(*scenario.dataset);
                    job.spatial = scenario.scene->spatial;
                    job.regionParent = scenario.parents;
                    Feedback feedback;
                    const PipelineResult result = Pipeline(config).run(job, feedback);
                    ASSERT_NO_FATAL_FAILURE(expectGuarantee(scenario.builder.table(), *scenario.dataset,
                                                            result, scenario.k, scenario.diversity))
                        << "scenario " << s << ": " << counter.id << " + " << locator.id
                        << (refiner.empty() ? "" : " + " + refiner)
                        << (config.boundaryRefiner.empty() ? "" : " + " + config.boundaryRefiner);
                    ++runs;
                }
    }
    EXPECT_EQ(runs, std::size_t(kScenarios) * registry.siteCounters.size() * registry.siteLocators.size() *
                        refiners.size());
}

// Generalization searched with the geography keeps the guarantee over the generalized values, for every
// partition with a random site count, location and refinement per scenario, within each field's highest
// level.
TEST_P(EveryCombination, KeepsTheGuaranteeOverGeneralizedValues)
{
    const Registry& registry = Registry::builtIn();
    std::mt19937_64 generator(std::hash<std::string>{}(GetParam() + "/generalized"));
    const auto pick = [&](std::size_t n)
    {
        return std::size_t(generator() % n);
    };
    std::size_t runs = 0;
    for (int s = 0; s < kScenarios / 4; ++s)
    {
        const Scenario scenario(generator);
        const Schema& schema = scenario.dataset->schema();
        if (schema.size() == 0 || schema.categories(0) > 64)
            continue; // nothing to generalize, or declared counts too many to list
        Hierarchies hierarchies(schema.size());
        for (std::size_t j = 0; j < schema.size(); ++j)
            if (pick(4) != 0)
            {
                hierarchies[j] = QuasiIdentifierHierarchy{
                    tableHierarchy("q" + std::to_string(j),
                                   randomNestedLevels(generator, schema.categories(j), 2),
                                   schema.categories(j)),
                    0,
                    {},
                    false};
                hierarchies[j]->maxLevel = pick(hierarchies[j]->hierarchy.levels());
            }
        PipelineConfig config;
        config.k = scenario.k;
        config.globalSuppression = scenario.globalSuppression;
        config.siteCounter = registry.siteCounters[pick(registry.siteCounters.size())].id;
        config.siteLocator = registry.siteLocators[pick(registry.siteLocators.size())].id;
        const std::size_t refiner = pick(registry.siteRefiners.size() + 1);
        config.siteRefiner = refiner == 0 ? std::string() : registry.siteRefiners[refiner - 1].id;
        // Scenario s: none, then each boundary refinement in turn (not drawn: the draws stay the scenarios').
        const std::size_t boundary = std::size_t(s) % (registry.boundaryRefiners.size() + 1);
        config.boundaryRefiner = boundary == 0 ? std::string() : registry.boundaryRefiners[boundary - 1].id;
        config.partitioner = GetParam();
        config.options.set("site_count", double(scenario.fixedSites));
        config.options.set("seed", double(scenario.seed));
        config.suppressionBudget = 0.5 + double(pick(10));
        config.repairContiguity = scenario.contiguity;
        test::withDiversity(config.options, scenario.diversity);
        Job job(*scenario.dataset);
        job.spatial = scenario.scene->spatial;
        job.regionParent = scenario.parents;
        ReleaseRequest request;
        request.hierarchies = &hierarchies;
        Feedback feedback;
        const ReleaseResult release = vbas::release(Pipeline(config), job, request, feedback);
        const std::string combination = "scenario " + std::to_string(s) + ": " + config.siteCounter + " + " +
                                        config.siteLocator + " + " + config.siteRefiner + " + " +
                                        config.boundaryRefiner;
        if (!generalizes(hierarchies))
        {
            ASSERT_FALSE(release.generalization) << combination;
            continue;
        }
        ASSERT_TRUE(release.generalization) << combination;
        const std::vector<std::size_t>& levels = release.generalization->levels;
        for (std::size_t j = 0; j < schema.size(); ++j)
            ASSERT_LE(levels[j], hierarchies[j] ? hierarchies[j]->maxLevel : 0) << combination;
        EXPECT_EQ(checkRelease(generalizedTable(scenario.builder.table(), hierarchies, levels),
                               *scenario.dataset, release.fates, release.result, scenario.k,
                               scenario.diversity),
                  "")
            << combination;
        ++runs;
    }
    EXPECT_GE(runs, std::size_t(kScenarios / 8)) << "most scenarios generalize something";
}

INSTANTIATE_TEST_SUITE_P(EveryPartition, EveryCombination,
                         ::testing::ValuesIn(idsOf(Registry::builtIn().partitioners)),
                         [](const auto& testInfo) { return testName(testInfo.param); });

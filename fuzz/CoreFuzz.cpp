// libFuzzer target: random schemas, records, sensitive fields, region layouts and options (l-diversity
// included) into the core engine.
// A vbas::Error is a valid rejection of bad input; any other exception, a crash, a sanitizer report
// or a release that breaks the guarantee (recounted from the raw records) is a finding.
// Run: scripts/fuzz.sh [seconds]
#include "Pipeline.h"
#include "ReleaseCheck.h"
#include "SceneSupport.h"
#include "TestSupport.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstdlib>
#include <limits>

namespace
{
using namespace vbas;

std::vector<RegionInput> regionsFrom(FuzzedDataProvider& in, const test::GridScene* grid)
{
    std::vector<RegionInput> regions;
    if (grid != nullptr)
    {
        for (std::size_t r = 0; r < grid->points.size(); ++r)
            regions.push_back({std::to_string(r), grid->points[r]});
        return regions;
    }
    const std::size_t count = in.ConsumeIntegralInRange<std::size_t>(0, 40);
    for (std::size_t r = 0; r < count; ++r)
    {
        Point p;
        if (in.ConsumeBool()) // small integers: ties and repeated points
            p = {double(in.ConsumeIntegralInRange<int>(-3, 3)),
                 double(in.ConsumeIntegralInRange<int>(-3, 3))};
        else
            p = {in.ConsumeFloatingPoint<double>(), in.ConsumeFloatingPoint<double>()};
        // Now and then a repeated id.
        regions.push_back({in.ConsumeIntegralInRange<int>(0, 30) == 0 && r > 0 ? "0" : std::to_string(r), p});
    }
    return regions;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    FuzzedDataProvider in(data, size);
    const Registry& registry = Registry::builtIn();
    std::unique_ptr<test::GridScene> grid;
    if (in.ConsumeBool())
    {
        grid = std::make_unique<test::GridScene>(in.ConsumeIntegralInRange<std::size_t>(1, 6),
                                                 in.ConsumeIntegralInRange<std::size_t>(1, 5), 10.0,
                                                 in.ConsumeIntegral<std::uint64_t>());
        if (in.ConsumeBool())
            grid->setObstacles({"LINESTRING (-1 " + std::to_string(in.ConsumeIntegralInRange<int>(0, 50)) +
                                ", 61 " + std::to_string(in.ConsumeIntegralInRange<int>(0, 50)) + ")"});
    }
    std::vector<RegionInput> regions = regionsFrom(in, grid.get());

    std::vector<QuasiIdentifier> qis;
    std::vector<std::uint32_t> codeLimit;
    const std::size_t qiCount = in.ConsumeIntegralInRange<std::size_t>(0, 4);
    for (std::size_t i = 0; i < qiCount; ++i)
    {
        const std::uint64_t declared =
            in.ConsumeBool() ? 0 : in.ConsumeIntegralInRange<std::uint64_t>(1, std::uint64_t(1) << 40);
        qis.push_back({"q" + std::to_string(i), declared});
        codeLimit.push_back(in.ConsumeIntegralInRange<std::uint32_t>(0, in.ConsumeBool() ? 5 : 5000));
    }
    RecordTable table;
    table.quasiIdentifierCount = qiCount;
    for (std::size_t r = 0; r < regions.size() + 2; ++r) // two keys name no region
        table.regionKeys.push_back(r < regions.size() ? std::to_string(r) : "unknown" + std::to_string(r));
    const bool weighted = in.ConsumeBool();
    const std::size_t rows = in.ConsumeIntegralInRange<std::size_t>(0, 200);
    for (std::size_t row = 0; row < rows; ++row)
    {
        table.regionKey.push_back(
            in.ConsumeIntegralInRange<std::uint32_t>(0, std::uint32_t(table.regionKeys.size() - 1)));
        for (std::size_t i = 0; i < qiCount; ++i)
            table.codes.push_back(in.ConsumeIntegralInRange<std::uint32_t>(0, codeLimit[i]));
        if (weighted)
            table.counts.push_back(in.ConsumeIntegralInRange<std::int64_t>(-1, 6));
    }

    PipelineConfig config;
    config.k = in.ConsumeIntegralInRange<Count>(0, 8);
    config.globalSuppression = in.ConsumeBool();
    config.siteCounter =
        registry.siteCounters[in.ConsumeIntegralInRange<std::size_t>(0, registry.siteCounters.size() - 1)].id;
    config.siteLocator =
        registry.siteLocators[in.ConsumeIntegralInRange<std::size_t>(0, registry.siteLocators.size() - 1)].id;
    config.siteRefiner =
        in.ConsumeBool()
            ? registry
                  .siteRefiners[in.ConsumeIntegralInRange<std::size_t>(0, registry.siteRefiners.size() - 1)]
                  .id
            : "";
    config.partitioner =
        registry.partitioners[in.ConsumeIntegralInRange<std::size_t>(0, registry.partitioners.size() - 1)].id;
    config.options.set("site_count", double(in.ConsumeIntegralInRange<std::uint64_t>(0, 60)));
    if (in.ConsumeBool())
        config.options.set("site_count_offset", in.ConsumeFloatingPoint<double>());
    const char* const models[] = {"western", "central", "eastern", "canada", "custom", "unknown"};
    config.options.set("gaps_model", models[in.ConsumeIntegralInRange<int>(0, 5)]);
    config.options.set("gaps_c", in.ConsumeFloatingPoint<double>());
    config.options.set("gaps_b", in.ConsumeFloatingPoint<double>());
    const char* const centres[] = {"mean", "weighted_mean", "median"};
    config.options.set("cell_centre", centres[in.ConsumeIntegralInRange<int>(0, 2)]);
    config.options.set("seed", double(in.ConsumeIntegral<std::uint64_t>() >> 11)); // exact as a double
    config.options.set("adc_max_moves", 200);                                      // keep every input fast
    std::vector<std::uint32_t> regionParent;
    if (grid)
    {
        config.repairContiguity = in.ConsumeBool();
        if (in.ConsumeBool())
            for (std::size_t r = 0; r < regions.size(); ++r)
                regionParent.push_back(in.ConsumeIntegralInRange<std::uint32_t>(0, 2));
    }
    const DatasetOptions options{in.ConsumeBool() ? UnknownRegionPolicy::Drop : UnknownRegionPolicy::Fail};
    // Sensitive fields and l come last, so that older corpus inputs keep their meaning above.
    table.sensitiveCount = in.ConsumeIntegralInRange<std::size_t>(0, 2);
    for (std::size_t code = 0; code < rows * table.sensitiveCount; ++code)
        table.sensitiveCodes.push_back(in.ConsumeIntegralInRange<std::uint32_t>(0, 3));
    DiversityRule diversity;
    diversity.l = in.ConsumeIntegralInRange<Count>(0, 4);
    diversity.l = diversity.l == 1 ? 0 : diversity.l; // l = 1 is refused: no diversity
    diversity.measure = in.ConsumeBool() ? DiversityRule::Measure::Entropy : DiversityRule::Measure::Distinct;
    test::withDiversity(config.options, diversity);
    // Region moves after the partition (they need the grid's adjacency; without it the run is refused).
    if (in.ConsumeBool())
    {
        config.boundaryRefiner = registry
                                     .boundaryRefiners[in.ConsumeIntegralInRange<std::size_t>(
                                         0, registry.boundaryRefiners.size() - 1)]
                                     .id;
        config.options.set("boundary_border_share", double(in.ConsumeIntegralInRange<int>(0, 100)));
    }

    try
    {
        Feedback feedback;
        const Dataset dataset = Dataset::build(regions, Schema(qis), table, options, feedback);
        Job job(dataset);
        if (grid)
            job.spatial = grid->spatial;
        job.regionParent = std::move(regionParent);
        const PipelineResult result = Pipeline(config).run(job, feedback);
        const std::string problem = test::checkRelease(table, dataset, result, config.k, diversity);
        if (!problem.empty())
        {
            std::fprintf(stderr, "guarantee broken: %s\n", problem.c_str());
            std::abort();
        }
    }
    catch (const Error&)
    {
        // Bad input, rejected with a message: what the engine must do.
    }
    return 0;
}

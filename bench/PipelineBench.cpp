// The whole non-ADC pipeline at the thesis's scales (issue: core engine). Prints the time of each
// stage and the peak memory. Records are already in memory as category codes; the clock starts
// at the histograms. Run: build/bench/vbas_bench --benchmark_filter=Pipeline
#include "PeakMemory.h"
#include "Pipeline.h"
#include "Synthetic.h"
#include "partition/VoronoiPartitioner.h"
#include "quality/Metric.h"
#include "sitelocation/BalancedDensitySites.h"
#include "suppression/SmallClassSuppression.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <memory>

namespace
{
using namespace vbas;
using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point from)
{
    return std::chrono::duration<double>(Clock::now() - from).count();
}

const bench::SyntheticRelease& releaseOf(const bench::Scale& scale)
{
    static std::map<std::string, std::unique_ptr<bench::SyntheticRelease>> cache;
    auto& slot = cache[scale.name];
    if (!slot)
        slot = std::make_unique<bench::SyntheticRelease>(bench::makeRelease(scale));
    return *slot;
}

void runPipeline(benchmark::State& state, const bench::Scale& scale)
{
    const bench::SyntheticRelease& release = releaseOf(scale);
    PipelineConfig config; // GAPS MaxCombs (Canada), balanced density, Voronoi, global suppression on
    const Pipeline pipeline(config);
    std::map<std::string, double> stage;
    std::size_t sites = 0, aggregates = 0;
    Count suppressed = 0;
    for (auto _ : state)
    {
        Feedback feedback;
        auto t = Clock::now();
        const Dataset dataset =
            Dataset::build(release.regions, release.schema, release.records, {}, feedback);
        stage["1_histograms"] += seconds(t);
        t = Clock::now();
        const PreparedData data = pipeline.prepare(dataset, feedback);
        stage["2_global_suppression"] += seconds(t);
        t = Clock::now();
        const std::uint64_t count = pipeline.estimateSiteCount(data, feedback);
        stage["3_site_count"] += seconds(t);
        t = Clock::now();
        std::vector<Point> located = pipeline.locateSites(data, count, feedback);
        stage["4_balanced_density"] += seconds(t);
        t = Clock::now();
        Partition partition =
            VoronoiPartitioner().partition(data.partitionInput(), std::move(located), feedback);
        stage["5_voronoi"] += seconds(t);
        t = Clock::now();
        const Aggregation aggregation = Aggregation::build(data.regions, partition);
        const SuppressionOutcome released =
            SuppressionOutcome::apply(data.regions, aggregation, SmallClassSuppression(), data.k, Criteria{},
                                      data.globallySuppressed, feedback);
        stage["6_local_suppression"] += seconds(t);
        t = Clock::now();
        const RatingInput input{data.regions, partition, aggregation, released, data.k};
        double checksum = 0;
        for (const MetricEntry& entry : Registry::builtIn().metrics)
            checksum += entry.create(config.options)->compute(input);
        checksum += double(aggregateFigures(input).size());
        benchmark::DoNotOptimize(checksum);
        stage["7_metrics"] += seconds(t);
        sites = count;
        aggregates = aggregation.size();
        suppressed = released.suppressed();
    }
    double total = 0;
    for (const auto& [name, value] : stage)
    {
        state.counters[name + "_s"] = value / double(state.iterations());
        total += value / double(state.iterations());
    }
    state.counters["total_s"] = total;
    state.counters["peak_MiB"] = bench::peakMemoryMiB();
    state.counters["sites"] = double(sites);
    state.counters["aggregates"] = double(aggregates);
    state.counters["suppressed"] = double(suppressed);
}

void Pipeline_Eastern(benchmark::State& state)
{
    runPipeline(state, bench::eastern());
}
void Pipeline_Western(benchmark::State& state)
{
    runPipeline(state, bench::western());
}
BENCHMARK(Pipeline_Eastern)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(Pipeline_Western)->Unit(benchmark::kMillisecond)->Iterations(3);
} // namespace

BENCHMARK_MAIN();

// l-diversity with a sensitive field of very many values (issue 30, item 5): 114,000 records, half of them
// with a value of their own, through the recommended release (the suppression budget, refinement.suppression
// and the region moves), with l = 2. Prints the engine's time, the process's peak resident memory, the
// longest stretch without a progress report or log line, and what the release withheld and kept (with a
// digest of the partition, so that two builds can be compared for the same result).
//
// Records are whole rows of MEPS 1996 (data/bench/meps1996_persons.csv; QIs age, gender, married,
// ethnicity) drawn onto the Eastern-scale synthetic areas (bench/Synthetic.h: 4,426 areas, log-normal
// populations) scaled to 114,000 records, as in FrontierBench.cpp. The sensitive field: each record draws a
// value of its own with probability 1/2, else one of 100 shared values (Zipf-like: value v with weight
// 1/(v+1)), about 57,000 distinct values in all. The areas border their Delaunay neighbours.
//
// Run alone (the peak covers the whole process):
//   build-core/bench/vbas_bench --benchmark_filter=Diversity_ManyValuesDistinct
// or Diversity_ManyValuesEntropy (entropy l-diversity, the same data).
// Environment overrides: VBAS_FRONTIER_RECORDS (114000), VBAS_FRONTIER_SEED, VBAS_FRONTIER_K (5),
// VBAS_BUDGET_PERCENT (1), VBAS_DIVERSITY_L (2).
#include "Microdata.h"
#include "PeakMemory.h"
#include "Pipeline.h"
#include "privacy/LDiversity.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <set>

namespace
{
using namespace vbas;
using namespace vbas::bench;

/** Shared values the records without a value of their own draw from. */
constexpr std::uint32_t kSharedValues = 100;

/** One sensitive field: a value of its own for about half the records, one of a few shared ones else. */
void addSensitiveField(RecordTable& records, std::mt19937_64& generator)
{
    std::vector<double> weights(kSharedValues);
    for (std::uint32_t v = 0; v < kSharedValues; ++v)
        weights[v] = 1.0 / double(v + 1);
    std::discrete_distribution<std::uint32_t> shared(weights.begin(), weights.end());
    std::bernoulli_distribution own(0.5);
    records.sensitiveCount = 1;
    records.sensitiveCodes.clear();
    std::uint32_t next = kSharedValues;
    for (std::size_t row = 0; row < records.rows(); ++row)
        records.sensitiveCodes.push_back(own(generator) ? next++ : shared(generator));
}

/** Prints the engine's log lines with the time since the start, and times the gaps between reports. */
class Watching : public Feedback
{
public:
    void info(const std::string& message) override
    {
        std::printf("  %7.2f s  %s\n", secondsSince(mStart), message.c_str());
        std::fflush(stdout);
        heard();
    }
    void warning(const std::string& message) override { info("warning: " + message); }
    /** The longest time without a progress report or a log line, seconds. */
    double longestSilence() const { return std::max(mLongest, secondsSince(mLast)); }

protected:
    void onProgress(double) override { heard(); }

private:
    void heard()
    {
        mLongest = std::max(mLongest, secondsSince(mLast));
        mLast = Clock::now();
    }

    Clock::time_point mStart = Clock::now();
    Clock::time_point mLast = mStart;
    double mLongest = 0.0;
};

/** FNV-1a of every region's site: equal digests, equal partitions. */
std::uint64_t digest(const std::vector<SiteIndex>& regionSite)
{
    std::uint64_t hash = 14695981039346656037ULL;
    for (const SiteIndex s : regionSite)
        hash = (hash ^ s) * 1099511628211ULL;
    return hash;
}

void manyValues(benchmark::State& state, DiversityRule::Measure measure)
{
    const std::uint64_t seedValue = seed();
    const Microdata micro = readMicrodata(4);
    std::mt19937_64 generator(seedValue);
    const Areas areas = easternAreas(envNumber("VBAS_FRONTIER_RECORDS", 114000), generator);
    RecordTable records = drawRecords(areas, micro, generator);
    addSensitiveField(records, generator);
    Feedback quiet;
    const Dataset dataset = Dataset::build(areas.regions, Schema(micro.qis), records, {}, quiet);
    const std::size_t distinct =
        std::set<std::uint32_t>(records.sensitiveCodes.begin(), records.sensitiveCodes.end()).size();
    PipelineConfig config = recommendedConfig();
    config.k = envNumber("VBAS_FRONTIER_K", 5);
    const Count l = envNumber("VBAS_DIVERSITY_L", 2);
    config.options.set("l", double(l))
        .set("l_measure", measure == DiversityRule::Measure::Distinct ? "distinct" : "entropy");
    const double percent = double(envNumber("VBAS_BUDGET_PERCENT", 1));
    config.suppressionBudget = percent;
    const Pipeline pipeline(config);
    Job job(dataset);
    job.spatial.adjacency = delaunayAdjacency(areas);
    const double residentBefore = residentMemoryMiB();
    std::printf("\n== Diversity, many values: %s, %llu records, %zu sensitive values, l = %llu (%s), budget "
                "%.3g %%, k = %llu, seed %llu; %.0f MiB resident before the engine\n",
                areas.description.c_str(), static_cast<unsigned long long>(dataset.totalRecords()), distinct,
                static_cast<unsigned long long>(l),
                measure == DiversityRule::Measure::Distinct ? "distinct" : "entropy", percent,
                static_cast<unsigned long long>(config.k), static_cast<unsigned long long>(seedValue),
                residentBefore);
    for (auto _ : state)
    {
        Watching watching;
        const auto start = Clock::now();
        const PipelineResult result = pipeline.run(job, watching);
        const double seconds = secondsSince(start);
        std::printf("chosen: %llu sites, %zu regions, %llu withheld (%llu for l-diversity); refinement kept "
                    "%llu of %llu moves, region moves %llu of %llu; partition digest %016llx; engine %.2f s, "
                    "peak %.0f MiB, longest silence %.2f s\n",
                    static_cast<unsigned long long>(result.requestedSites), result.aggregation.size(),
                    static_cast<unsigned long long>(result.suppression.suppressed()),
                    static_cast<unsigned long long>(result.suppression.diversitySuppressed),
                    static_cast<unsigned long long>(result.refinement ? result.refinement->movesAccepted : 0),
                    static_cast<unsigned long long>(result.refinement ? result.refinement->movesTried : 0),
                    static_cast<unsigned long long>(result.boundary ? result.boundary->movesAccepted : 0),
                    static_cast<unsigned long long>(result.boundary ? result.boundary->movesTried : 0),
                    static_cast<unsigned long long>(digest(result.partition.regionSite)), seconds,
                    peakMemoryMiB(), watching.longestSilence());
        state.counters["engine_s"] = seconds;
        state.counters["withheld"] = double(result.suppression.suppressed());
        state.counters["silence_s"] = watching.longestSilence();
    }
    state.counters["peak_MiB"] = peakMemoryMiB();
    state.counters["resident_before_MiB"] = residentBefore;
}

void Diversity_ManyValuesDistinct(benchmark::State& state)
{
    manyValues(state, DiversityRule::Measure::Distinct);
}
void Diversity_ManyValuesEntropy(benchmark::State& state)
{
    manyValues(state, DiversityRule::Measure::Entropy);
}
BENCHMARK(Diversity_ManyValuesDistinct)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(Diversity_ManyValuesEntropy)->Unit(benchmark::kSecond)->Iterations(1);

} // namespace

// ADC at the Eastern scale of the core-engine benchmark, seeded by balanced density: total time
// with ADC against the same pipeline without it (target: at most 3x), moves tried per second, and
// what ADC did to suppression. Run: build/bench/vbas_bench --benchmark_filter=Adc
#include "Pipeline.h"
#include "Synthetic.h"

#include <benchmark/benchmark.h>

#include <chrono>

namespace
{
using namespace vbas;
using Clock = std::chrono::steady_clock;

struct Timed
{
    double seconds;
    PipelineResult result;
};

Timed timedRun(const bench::SyntheticRelease& release, const PipelineConfig& config)
{
    Feedback feedback;
    const auto start = Clock::now();
    const Dataset dataset = Dataset::build(release.regions, release.schema, release.records, {}, feedback);
    PipelineResult result = Pipeline(config).run(dataset, feedback);
    return {std::chrono::duration<double>(Clock::now() - start).count(), std::move(result)};
}

/** `counter` with the Eastern GAPS model (the thesis's Table 7 setting), balanced density seed. */
void adcAgainstPlain(benchmark::State& state, const std::string& counter)
{
    static const bench::SyntheticRelease release = bench::makeRelease(bench::eastern());
    PipelineConfig plain;
    plain.siteCounter = counter;
    plain.options.set("gaps_model", "eastern");
    PipelineConfig adc = plain;
    adc.siteRefiner = "refinement.adc";
    double plainSeconds = 0, adcSeconds = 0;
    Timed withAdc{0, {}}, without{0, {}};
    for (auto _ : state)
    {
        without = timedRun(release, plain);
        withAdc = timedRun(release, adc);
        plainSeconds += without.seconds;
        adcSeconds += withAdc.seconds;
    }
    const double iterations = double(state.iterations());
    const RefinementReport& report = *withAdc.result.refinement;
    state.counters["sites"] = double(withAdc.result.requestedSites);
    state.counters["plain_s"] = plainSeconds / iterations;
    state.counters["adc_s"] = adcSeconds / iterations;
    state.counters["adc_over_plain"] = adcSeconds / plainSeconds;
    state.counters["moves_tried"] = double(report.movesTried);
    state.counters["moves_kept"] = double(report.movesAccepted);
    state.counters["moves_per_s"] = report.seconds > 0 ? double(report.movesTried) / report.seconds : 0.0;
    state.counters["alpha_before"] = double(report.anonymityBefore);
    state.counters["alpha_after"] = double(report.anonymityAfter);
    state.counters["suppressed_plain"] = without.result.metric("quality.suppressed");
    state.counters["suppressed_adc"] = withAdc.result.metric("quality.suppressed");
}

void Adc_Eastern_MaxCombs(benchmark::State& state)
{
    adcAgainstPlain(state, "sitecount.gaps_maxcombs");
}
void Adc_Eastern_NaiveCount(benchmark::State& state)
{
    adcAgainstPlain(state, "sitecount.naive_anonymity");
}
BENCHMARK(Adc_Eastern_MaxCombs)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(Adc_Eastern_NaiveCount)->Unit(benchmark::kMillisecond)->Iterations(3);
} // namespace

// Generalization with geography on realistic data (issue 13): the regions a 1 % suppression budget allows
// with the quasi-identifiers as they are, against the regions when age and education may be generalized
// (SPEC section 12), and the time of the search over the generalization lattice.
//
// Records are whole rows of MEPS 1996 (data/bench/meps1996_persons.csv: exact age, gender, married,
// ethnicity, education) drawn onto the Eastern-scale synthetic areas (bench/Synthetic.h: 4,426 areas,
// 2,433,221 records, log-normal populations), as in FrontierBench.cpp. Hierarchies:
//   age: interval 5 10 20     (then '*')
//   education: table          (none | ged, highschool -> secondary | other | bachelor, master, phd ->
//                              tertiary; then '*')
// k = 5, global suppression on, the recommended release (sitecount.suppression_budget with
// refinement.suppression and the region moves over the areas' Delaunay neighbours) for both; the lattice
// search itself evaluates without refinement.
//
// Run: build/bench/vbas_bench --benchmark_filter=Generalization_Eastern
// Environment overrides: VBAS_BUDGET_PERCENT (1), VBAS_FRONTIER_RECORDS, VBAS_FRONTIER_SEED, VBAS_FRONTIER_K,
// VBAS_GENERALIZATION (the hierarchy text).
#include "GeneralizationSearch.h"
#include "Microdata.h"
#include "Pipeline.h"
#include "Release.h"
#include "generalization/GeneralizedData.h"

#include <benchmark/benchmark.h>

#include <cstdio>

namespace
{
using namespace vbas;
using namespace vbas::bench;

const char* kEducationTable = "none;none\n"
                              "ged;secondary\n"
                              "highschool;secondary\n"
                              "other;other\n"
                              "bachelor;tertiary\n"
                              "master;tertiary\n"
                              "phd;tertiary\n";

/** The value of every code of every quasi-identifier (numbers where the labels are). */
std::vector<std::vector<CategoryValue>> categoryValues(const Microdata& micro)
{
    std::vector<std::vector<CategoryValue>> values;
    for (const std::vector<std::string>& labels : micro.labels)
    {
        values.emplace_back();
        for (const std::string& label : labels)
        {
            CategoryValue value;
            value.text = label;
            if (!label.empty() && label.find_first_not_of("0123456789") == std::string::npos)
                value.number = std::stod(label);
            values.back().push_back(value);
        }
    }
    return values;
}

/** Prints the engine's lines on the generalization search. */
struct Printing : Feedback
{
    void info(const std::string& message) override
    {
        if (message.rfind("generalization", 0) == 0)
            std::printf("  %s\n", message.c_str());
    }
    void warning(const std::string& message) override { std::printf("  warning: %s\n", message.c_str()); }
};

void Generalization_Eastern(benchmark::State& state)
{
    const std::uint64_t seedValue = seed();
    const Microdata micro = readMicrodata(5);
    std::mt19937_64 generator(seedValue);
    const Areas areas =
        easternAreas(envNumber("VBAS_FRONTIER_RECORDS", vbas::bench::eastern().records), generator);
    const RecordTable records = drawRecords(areas, micro, generator);
    Feedback quiet;
    const Dataset dataset = Dataset::build(areas.regions, Schema(micro.qis), records, {}, quiet);
    const char* given = std::getenv("VBAS_GENERALIZATION");
    const std::string text =
        given != nullptr && *given != '\0' ? given : "age: interval 5 10 20; education: table";
    std::vector<std::string> names;
    for (const QuasiIdentifier& qi : micro.qis)
        names.push_back(qi.name);
    PipelineConfig config = recommendedConfig();
    config.k = envNumber("VBAS_FRONTIER_K", 5);
    const Hierarchies hierarchies =
        buildHierarchies(parseGeneralization(text), {{"education", kEducationTable}}, names,
                         categoryValues(micro), AutomaticBanding{categoryRecords(dataset), config.k, true});
    const double percent = double(envNumber("VBAS_BUDGET_PERCENT", 1));
    config.suppressionBudget = percent;
    const Pipeline pipeline(config);
    std::printf(
        "\n== Generalization Eastern: %s, %llu records, QIs %zu (age exact: %zu values), budget %.3g %%, "
        "k = %llu, seed %llu\n   hierarchies: %s\n",
        areas.description.c_str(), static_cast<unsigned long long>(dataset.totalRecords()), micro.qis.size(),
        micro.labels[0].size(), percent, static_cast<unsigned long long>(config.k),
        static_cast<unsigned long long>(seedValue), text.c_str());
    // The region moves of the recommended release need neighbours: the areas' Delaunay neighbours.
    Job plainJob(dataset);
    plainJob.spatial.adjacency = delaunayAdjacency(areas);
    for (auto _ : state)
    {
        auto start = Clock::now();
        const PipelineResult plain = pipeline.run(plainJob, quiet);
        const double plainSeconds = secondsSince(start);
        std::printf("as they are: %zu regions, %llu withheld (%.2f%%), engine %.2f s\n",
                    plain.aggregation.size(), static_cast<unsigned long long>(plain.suppression.suppressed()),
                    100.0 * double(plain.suppression.suppressed()) / double(dataset.totalRecords()),
                    plainSeconds);

        Printing printing;
        start = Clock::now();
        const GeneralizationChoice choice = searchGeneralization(pipeline, plainJob, hierarchies, printing);
        const double searchSeconds = secondsSince(start);
        start = Clock::now();
        ReleaseRequest request;
        request.hierarchies = &hierarchies;
        const ReleaseResult release = vbas::release(pipeline, plainJob, request, quiet);
        const double releaseSeconds = secondsSince(start);
        std::string levels;
        for (std::size_t j = 0; j < hierarchies.size(); ++j)
            if (hierarchies[j])
                levels += (levels.empty() ? "" : ", ") + hierarchies[j]->hierarchy.quasiIdentifier() + " " +
                          hierarchies[j]->hierarchy.levelName(choice.report.levels[j]);
        std::printf(
            "search: %zu of %zu level combinations evaluated, %zu ruled out, chosen %s; engine %.2f s\n",
            choice.report.evaluated.size(), choice.report.latticeNodes, choice.report.prunedNodes,
            levels.c_str(), searchSeconds);
        std::printf("generalized: %zu regions, %llu withheld (%.2f%%), attribute loss %.4f; whole release "
                    "(search and refined release) engine %.2f s\n",
                    release.result.aggregation.size(),
                    static_cast<unsigned long long>(release.result.suppression.suppressed()),
                    100.0 * double(release.result.suppression.suppressed()) / double(dataset.totalRecords()),
                    release.generalization->releasedLoss, releaseSeconds);
        std::printf("regions generalized / as they are: %.1fx\n",
                    double(release.result.aggregation.size()) /
                        double(std::max<std::size_t>(plain.aggregation.size(), 1)));
        state.counters["search_s"] = searchSeconds;
        state.counters["regions_ratio"] = double(release.result.aggregation.size()) /
                                          double(std::max<std::size_t>(plain.aggregation.size(), 1));
    }
}
BENCHMARK(Generalization_Eastern)->Unit(benchmark::kSecond)->Iterations(1);

} // namespace

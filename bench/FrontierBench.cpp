// The suppression frontier on realistic data (issue 12, item 4): for each site count s it prints
// the regions released, the records withheld, discernibility (DM), non-uniform entropy (NUE) and
// the time of balanced density, naive density, a k-means baseline (Lloyd, written here), and
// balanced density refined by every registered site refiner (ADC, the suppression-driven refinement),
// then every registered boundary refiner after balanced density alone and after the suppression-driven
// refinement (the region moves also with boundary_border_share 0). The areas border their Delaunay
// neighbours (the scenes have points). "(kept/tried)" follows a refined method per refinement stage.
// It prints figures; the Google Benchmark time is only that of the whole table.
//
// Records are whole rows of real microdata (data/bench/meps1996_persons.csv, MEPS 1996: exact age,
// gender, married, ethnicity, education; see data/README.md), drawn uniformly with replacement, so
// each quasi-identifier combination is one real person's. Scenarios:
//  - Frontier_Eastern: the thesis-scale synthetic geometry of Synthetic.h (Eastern: 4,426 areas),
//    log-normal area populations summing to Eastern's 2,433,221 records; QIs age, gender,
//    married, ethnicity;
//  - Frontier_EasternEducation: the same with education as a fifth QI;
//  - Frontier_Germany: the 413 real German districts (data/tests/de_districts_wkt.csv, point on
//    surface), one record per 80 residents (about 1.03 million); the four QIs.
// k = 5, global suppression on, Voronoi partition, small-class suppression; fixed seed, printed.
//
// Run (all three, about 3 minutes on the 2-core machine; from any directory):
//   build-bench/bench/vbas_bench --benchmark_filter=Frontier
// or one of them, e.g. --benchmark_filter=Frontier_Germany.
// Environment overrides: VBAS_FRONTIER_SITES (the s grid, default 50,100,160,200,400,800),
// VBAS_FRONTIER_SEED (default 20240412), VBAS_FRONTIER_RECORDS (Eastern records),
// VBAS_FRONTIER_OPTIONS (strategy options for every row, "key=value,...", numbers; e.g.
// suppression_entropy_slack=10 for the release at another NUE allowance),
// VBAS_FRONTIER_PERSONS_PER_RECORD (Germany, default 80), VBAS_FRONTIER_QIS (microdata columns
// used as QIs, 1 to 5, for every scenario), VBAS_FRONTIER_K (default 5), VBAS_FRONTIER_EXPORT (a
// folder: the scene and the maps of balanced density, k-means and the refinement, for
// bench/frontier-area-search.py).
#include "Microdata.h"
#include "Pipeline.h"
#include "Synthetic.h"
#include "geometry/RegionGeometries.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef VBAS_DATA_DIR
#error "bench/CMakeLists.txt defines VBAS_DATA_DIR, the repository's data/ folder"
#endif

namespace
{
using namespace vbas;
using namespace vbas::bench;
std::vector<std::uint64_t> siteGrid()
{
    const char* text = std::getenv("VBAS_FRONTIER_SITES");
    if (text == nullptr || *text == '\0')
        return {50, 100, 160, 200, 400, 800};
    std::vector<std::uint64_t> grid;
    std::stringstream list(text);
    std::string item;
    while (std::getline(list, item, ','))
        grid.push_back(std::stoull(item));
    return grid;
}

/**
 * The k-means baseline: Lloyd's algorithm on the region points weighted by their records (after
 * global suppression), seeded by weighted k-means++; the sites are the final centroids. An
 * emptied cluster restarts at the region that adds most to the weighted squared error.
 */
std::vector<Point> kMeansSites(const std::vector<Point>& points, const std::vector<Count>& weights,
                               std::size_t count, std::uint64_t seedValue, int& iterations)
{
    std::vector<std::size_t> used;
    for (std::size_t r = 0; r < points.size(); ++r)
        if (weights[r] > 0)
            used.push_back(r);
    iterations = 0;
    std::vector<Point> centres;
    if (count >= used.size())
    {
        for (std::size_t r : used)
            centres.push_back(points[r]);
        return centres;
    }
    std::mt19937_64 generator(seedValue);
    std::vector<double> nearest(used.size(), std::numeric_limits<double>::infinity());
    std::vector<double> draw(used.size());
    for (std::size_t i = 0; i < used.size(); ++i)
        draw[i] = double(weights[used[i]]);
    while (centres.size() < count)
    {
        std::discrete_distribution<std::size_t> pick(draw.begin(), draw.end());
        const Point centre = points[used[pick(generator)]];
        centres.push_back(centre);
        for (std::size_t i = 0; i < used.size(); ++i)
        {
            nearest[i] = std::min(nearest[i], squaredDistance(points[used[i]], centre));
            draw[i] = double(weights[used[i]]) * nearest[i];
        }
    }
    std::vector<std::size_t> owner(used.size(), count);
    for (iterations = 1; iterations <= 300; ++iterations)
    {
        bool changed = false;
        for (std::size_t i = 0; i < used.size(); ++i)
        {
            std::size_t best = 0;
            double bestDistance = std::numeric_limits<double>::infinity();
            for (std::size_t c = 0; c < count; ++c)
            {
                const double d = squaredDistance(points[used[i]], centres[c]);
                if (d < bestDistance)
                {
                    bestDistance = d;
                    best = c;
                }
            }
            nearest[i] = bestDistance;
            if (owner[i] != best)
            {
                owner[i] = best;
                changed = true;
            }
        }
        if (!changed)
            break;
        std::vector<double> sumX(count, 0.0), sumY(count, 0.0), sumW(count, 0.0);
        for (std::size_t i = 0; i < used.size(); ++i)
        {
            const double w = double(weights[used[i]]);
            sumX[owner[i]] += w * points[used[i]].x;
            sumY[owner[i]] += w * points[used[i]].y;
            sumW[owner[i]] += w;
        }
        for (std::size_t c = 0; c < count; ++c)
        {
            if (sumW[c] > 0.0)
            {
                centres[c] = {sumX[c] / sumW[c], sumY[c] / sumW[c]};
                continue;
            }
            std::size_t worst = 0;
            for (std::size_t i = 1; i < used.size(); ++i)
                if (double(weights[used[i]]) * nearest[i] > double(weights[used[worst]]) * nearest[worst])
                    worst = i;
            centres[c] = points[used[worst]];
            nearest[worst] = 0.0;
        }
    }
    return centres;
}

/** One row of the table. */
struct Row
{
    std::string method;
    std::uint64_t sites;
    std::size_t regions;  // aggregates formed
    std::size_t released; // aggregates releasing at least one record
    Count withheld;
    double dm;
    double dmPenalized;
    double nue;
    double seconds;
    std::string note;
};

Row rowOf(const std::string& method, std::uint64_t sites, const PipelineResult& result, double seconds)
{
    std::size_t released = 0;
    for (Count count : result.suppression.aggregateReleased)
        released += count > 0 ? 1 : 0;
    return {method,
            sites,
            result.aggregation.size(),
            released,
            Count(result.metric("quality.suppressed")),
            result.metric("quality.discernibility"),
            result.metric("quality.discernibility_penalized"),
            result.metric("quality.non_uniform_entropy"),
            seconds,
            {}};
}

void printRow(const Row& row, Count total)
{
    if (!row.note.empty())
    {
        std::printf("%-34s %5llu  %s\n", row.method.c_str(), static_cast<unsigned long long>(row.sites),
                    row.note.c_str());
        return;
    }
    std::printf("%-34s %5llu %7zu %8zu %9llu %6.2f%% %10.4e %10.4e %10.4e %8.3f\n", row.method.c_str(),
                static_cast<unsigned long long>(row.sites), row.regions, row.released,
                static_cast<unsigned long long>(row.withheld), 100.0 * double(row.withheld) / double(total),
                row.dm, row.dmPenalized, row.nue, row.seconds);
}

/**
 * VBAS_FRONTIER_EXPORT: the folder the scene and some maps are written to for
 * bench/frontier-area-search.py (empty: nothing is written).
 */
std::string exportFolder()
{
    const char* text = std::getenv("VBAS_FRONTIER_EXPORT");
    return text == nullptr ? std::string() : std::string(text);
}

std::ofstream exportFile(const std::string& name)
{
    std::ofstream out(exportFolder() + "/" + name);
    if (!out)
        throw std::runtime_error("cannot write " + exportFolder() + "/" + name);
    return out;
}

/** areas.csv (area, x, y) and counts.csv (area, class, records after global suppression). */
void exportScene(const PreparedData& data)
{
    std::ofstream areas = exportFile("areas.csv");
    areas.precision(17);
    areas << "area,x,y\n";
    for (std::size_t r = 0; r < data.regions.size(); ++r)
        areas << r << ',' << data.regions.points()[r].x << ',' << data.regions.points()[r].y << '\n';
    std::ofstream counts = exportFile("counts.csv");
    counts << "area,class,records\n";
    const HistogramTable& histograms = data.dataset->regionHistograms();
    for (std::size_t r = 0; r < histograms.size(); ++r)
        for (const ClassCount& entry : histograms.entries(r))
            if (!data.classGloballySuppressed[entry.cls])
                counts << r << ',' << entry.cls << ',' << entry.count << '\n';
}

/** map-<sites>-<name>.csv: the aggregate of every area (empty: none), when exporting. */
void exportMap(const std::string& name, std::uint64_t sites, const Aggregation& aggregation)
{
    if (exportFolder().empty())
        return;
    std::ofstream out = exportFile("map-" + std::to_string(sites) + "-" + name + ".csv");
    out << "area,aggregate\n";
    for (std::size_t r = 0; r < aggregation.regionAggregate.size(); ++r)
    {
        out << r << ',';
        if (aggregation.regionAggregate[r] != Aggregation::kNoAggregate)
            out << aggregation.regionAggregate[r];
        out << '\n';
    }
}

PipelineConfig configFor(std::uint64_t sites, const std::string& locator, const std::string& refiner = {},
                         const std::string& boundary = {})
{
    PipelineConfig config;
    config.k = envNumber("VBAS_FRONTIER_K", 5);
    config.siteCounter = "sitecount.fixed";
    config.options.set("site_count", double(sites));
    config.siteLocator = locator;
    config.siteRefiner = refiner;
    config.boundaryRefiner = boundary;
    // VBAS_FRONTIER_OPTIONS: strategy options for every row, "key=value,key=value" (numbers).
    if (const char* text = std::getenv("VBAS_FRONTIER_OPTIONS"))
    {
        std::stringstream list(text);
        std::string item;
        while (std::getline(list, item, ','))
        {
            const std::size_t equals = item.find('=');
            if (equals == std::string::npos)
                throw std::invalid_argument("VBAS_FRONTIER_OPTIONS: " + item + " is not key=value");
            config.options.set(item.substr(0, equals), std::stod(item.substr(equals + 1)));
        }
    }
    return config;
}

/**
 * A located (and possibly refined) run of `config` with `sites` sites; the time covers location to rating.
 * `exportName`: the name its map is exported under (empty: not exported).
 */
Row located(const Registry& registry, const PreparedData& data, std::uint64_t sites,
            const std::string& method, const PipelineConfig& config, const std::string& exportName = {})
{
    const Pipeline pipeline(config, registry);
    Feedback feedback;
    const auto start = Clock::now();
    std::optional<RefinementReport> report;
    Sites refined = pipeline.refineSites(data, pipeline.locateSites(data, sites, feedback), report, feedback);
    const PipelineResult result = pipeline.finish(data, std::move(refined), feedback);
    Row row = rowOf(method, sites, result, secondsSince(start));
    if (!exportName.empty())
        exportMap(exportName, sites, result.aggregation);
    for (const std::optional<RefinementReport>& stage : {report, result.boundary})
        if (stage)
            row.method +=
                " (" + std::to_string(stage->movesAccepted) + "/" + std::to_string(stage->movesTried) + ")";
    return row;
}

/** Prints the table of `scenario` ("Eastern" or "Germany") with the first `columns` microdata columns. */
void frontier(benchmark::State& state, const std::string& scenario, std::size_t defaultColumns)
{
    const std::uint64_t seedValue = seed();
    const std::size_t columns = envNumber("VBAS_FRONTIER_QIS", defaultColumns);
    const Microdata micro = readMicrodata(columns);
    std::mt19937_64 generator(seedValue);
    const Areas areas =
        scenario == "Germany"
            ? germanAreas(envNumber("VBAS_FRONTIER_PERSONS_PER_RECORD", 80))
            : easternAreas(envNumber("VBAS_FRONTIER_RECORDS", bench::eastern().records), generator);
    const RecordTable records = drawRecords(areas, micro, generator);
    Feedback feedback;
    const Dataset dataset = Dataset::build(areas.regions, Schema(micro.qis), records, {}, feedback);
    const Pipeline preparer(configFor(1, "sitelocation.balanced_density"));
    const auto prepareStart = Clock::now();
    PreparedData data = preparer.prepare(dataset, feedback);
    data.spatial.adjacency = delaunayAdjacency(data.regions.points());
    const double prepareSeconds = secondsSince(prepareStart);
    const Count total = dataset.totalRecords();

    std::vector<std::int64_t> sizes = areas.records;
    std::sort(sizes.begin(), sizes.end());
    std::string qiText;
    for (const QuasiIdentifier& qi : micro.qis)
        qiText +=
            (qiText.empty() ? "" : " x ") + qi.name + " (" + std::to_string(qi.declaredCategories) + ")";
    std::printf("\n== Frontier %s: seed %llu, k = %llu\n", scenario.c_str(),
                static_cast<unsigned long long>(seedValue), static_cast<unsigned long long>(data.k));
    std::printf("areas: %s\n", areas.description.c_str());
    std::printf("records per area: min %lld, median %lld, 90th percentile %lld, max %lld; %llu records\n",
                static_cast<long long>(sizes.front()), static_cast<long long>(sizes[sizes.size() / 2]),
                static_cast<long long>(sizes[sizes.size() * 9 / 10]), static_cast<long long>(sizes.back()),
                static_cast<unsigned long long>(total));
    std::printf("microdata: %s, %zu persons drawn whole with replacement; QIs %s; %zu combinations in the "
                "draw\n",
                micro.file.c_str(), micro.rows, qiText.c_str(), dataset.classes().size());
    std::printf("global suppression (in every row's withheld): %llu records (%.2f%%), %.2f s once\n",
                static_cast<unsigned long long>(data.globallySuppressed),
                100.0 * double(data.globallySuppressed) / double(total), prepareSeconds);
    std::printf("regions: aggregates formed; released: aggregates releasing records; DM: sum of squared "
                "released group sizes; DM*: DM + N per withheld record; NUE: bits; seconds: locate, refine, "
                "partition, suppress, rate\n");
    std::printf("refiners are seeded by balanced density; (kept/tried) moves\n");
    if (!exportFolder().empty())
    {
        exportScene(data);
        std::printf("scene and maps exported to %s\n", exportFolder().c_str());
    }
    std::printf("\n");
    std::printf("%-34s %5s %7s %8s %9s %7s %10s %10s %10s %8s\n", "method", "s", "regions", "released",
                "withheld", "%", "DM", "DM*", "NUE", "seconds");

    // Every registered refiner gets its rows: a new one needs no change here.
    const Registry& registry = Registry::builtIn();
    std::vector<Row> rows;
    for (auto _ : state)
    {
        rows.clear();
        for (const std::uint64_t sites : siteGrid())
        {
            if (sites > data.regions.nonEmptyCount())
            {
                Row row{"(every method)", sites, 0, 0, 0, 0, 0, 0, 0, {}};
                row.note = "skipped: more sites than the " + std::to_string(data.regions.nonEmptyCount()) +
                           " areas with records";
                printRow(row, total);
                rows.push_back(row);
                continue;
            }
            const std::string balanced = "sitelocation.balanced_density";
            rows.push_back(located(registry, data, sites, "balanced density", configFor(sites, balanced),
                                   "balanced-density"));
            printRow(rows.back(), total);
            rows.push_back(located(registry, data, sites, "naive density",
                                   configFor(sites, "sitelocation.naive_density")));
            printRow(rows.back(), total);
            {
                const Pipeline pipeline(configFor(sites, balanced), registry);
                const auto start = Clock::now();
                int iterations = 0;
                std::vector<Point> centres =
                    kMeansSites(data.regions.points(), data.regionWeights, sites, seedValue, iterations);
                const PipelineResult result = pipeline.finish(data, std::move(centres), feedback);
                exportMap("k-means", sites, result.aggregation);
                rows.push_back(rowOf("k-means (Lloyd, " + std::to_string(iterations) + " it.)", sites, result,
                                     secondsSince(start)));
                printRow(rows.back(), total);
            }
            bool suppressionRefiner = false;
            for (const auto& entry : registry.siteRefiners)
            {
                suppressionRefiner = suppressionRefiner || entry.id == "refinement.suppression";
                const std::string name = entry.id == "refinement.adc" ? std::string("ADC") : entry.id;
                try
                {
                    rows.push_back(located(registry, data, sites, name, configFor(sites, balanced, entry.id),
                                           entry.id == "refinement.suppression" ? "refinement" : ""));
                }
                catch (const Error& error)
                {
                    // A refiner that needs options or inputs this benchmark does not give: say so.
                    Row failed{name, sites, 0, 0, 0, 0, 0, 0, 0, {}};
                    failed.note = std::string("failed: ") + error.what();
                    rows.push_back(failed);
                }
                printRow(rows.back(), total);
                if (entry.id == "refinement.suppression")
                {
                    PipelineConfig positions = configFor(sites, balanced, entry.id);
                    positions.options.set("suppression_move_weights", 0.0);
                    rows.push_back(located(registry, data, sites, name + ", positions only", positions));
                    printRow(rows.back(), total);
                }
            }
            if (!suppressionRefiner)
            {
                Row slot{"refinement.suppression", sites, 0, 0, 0, 0, 0, 0, 0, {}};
                slot.note = "not registered yet (filled in once Registry::builtIn() has it)";
                printRow(slot, total);
            }
            // Every registered boundary refiner after balanced density alone and after the refinement; the
            // region moves also with any bordering region allowed (boundary_border_share 0).
            for (const auto& entry : registry.boundaryRefiners)
            {
                rows.push_back(located(registry, data, sites, "balanced density + " + entry.id,
                                       configFor(sites, balanced, "", entry.id)));
                printRow(rows.back(), total);
                if (!suppressionRefiner)
                    continue;
                const PipelineConfig refined = configFor(sites, balanced, "refinement.suppression", entry.id);
                rows.push_back(located(registry, data, sites, "refinement.suppression + " + entry.id, refined,
                                       "refinement-" + entry.id));
                printRow(rows.back(), total);
                if (entry.id == "boundary.suppression")
                {
                    PipelineConfig anyBorder = refined;
                    anyBorder.options.set("boundary_border_share", 0.0);
                    rows.push_back(located(registry, data, sites,
                                           "refinement.suppression + " + entry.id + ", any border", anyBorder,
                                           "refinement-" + entry.id + "-any-border"));
                    printRow(rows.back(), total);
                }
            }
            std::printf("\n");
            std::fflush(stdout);
        }
    }
    // The method withholding fewest records at each s (first listed on a tie).
    std::map<std::uint64_t, const Row*> fewest;
    for (const Row& row : rows)
    {
        const Row*& best = fewest[row.sites];
        if (row.note.empty() && (best == nullptr || row.withheld < best->withheld))
            best = &row;
    }
    std::printf("fewest withheld:");
    for (const auto& [sites, row] : fewest)
        if (row != nullptr)
            std::printf(" s=%llu %s (%.2f%%);", static_cast<unsigned long long>(sites), row->method.c_str(),
                        100.0 * double(row->withheld) / double(total));
    std::printf("\n");
    double seconds = 0.0;
    for (const Row& row : rows)
        seconds += row.seconds;
    state.counters["records"] = double(total);
    state.counters["areas"] = double(areas.regions.size());
    state.counters["rows_s"] = seconds;
}

/** The whole release with sitecount.suppression_budget and the refinement, at VBAS_BUDGET_PERCENT (1). */
void budget(benchmark::State& state, const std::string& scenario, std::size_t defaultColumns)
{
    const std::uint64_t seedValue = seed();
    const Microdata micro = readMicrodata(envNumber("VBAS_FRONTIER_QIS", defaultColumns));
    std::mt19937_64 generator(seedValue);
    const Areas areas =
        scenario == "Germany"
            ? germanAreas(envNumber("VBAS_FRONTIER_PERSONS_PER_RECORD", 80))
            : easternAreas(envNumber("VBAS_FRONTIER_RECORDS", bench::eastern().records), generator);
    const RecordTable records = drawRecords(areas, micro, generator);
    Feedback quiet;
    const Dataset dataset = Dataset::build(areas.regions, Schema(micro.qis), records, {}, quiet);
    PipelineConfig config = recommendedConfig();
    config.k = envNumber("VBAS_FRONTIER_K", 5);
    Job job(dataset);
    job.spatial.adjacency = delaunayAdjacency(areas);
    const double percent = double(envNumber("VBAS_BUDGET_PERCENT", 1));
    config.suppressionBudget = percent;
    const Pipeline pipeline(config);
    struct Printing : Feedback
    {
        void info(const std::string& message) override
        {
            if (message.rfind("suppression budget", 0) == 0)
                std::printf("  %s\n", message.c_str());
        }
    } printing;
    std::printf("\n== Budget %s: %s, %llu records, budget %.3g %%, k = %llu\n", scenario.c_str(),
                areas.description.c_str(), static_cast<unsigned long long>(dataset.totalRecords()), percent,
                static_cast<unsigned long long>(config.k));
    for (auto _ : state)
    {
        const auto start = Clock::now();
        const PipelineResult result = pipeline.run(job, printing);
        const double seconds = secondsSince(start);
        std::printf("chosen: %llu sites, %zu regions, %llu withheld (%.2f%%), engine %.2f s\n",
                    static_cast<unsigned long long>(result.requestedSites), result.aggregation.size(),
                    static_cast<unsigned long long>(result.suppression.suppressed()),
                    100.0 * double(result.suppression.suppressed()) / double(dataset.totalRecords()),
                    seconds);
        state.counters["sites"] = double(result.requestedSites);
        state.counters["engine_s"] = seconds;
    }
}

void Budget_Eastern(benchmark::State& state)
{
    budget(state, "Eastern", 4);
}
void Budget_Germany(benchmark::State& state)
{
    budget(state, "Germany", 4);
}
BENCHMARK(Budget_Eastern)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(Budget_Germany)->Unit(benchmark::kSecond)->Iterations(1);

void Frontier_Eastern(benchmark::State& state)
{
    frontier(state, "Eastern", 4);
}
void Frontier_EasternEducation(benchmark::State& state)
{
    frontier(state, "Eastern", 5);
}
void Frontier_Germany(benchmark::State& state)
{
    frontier(state, "Germany", 4);
}
BENCHMARK(Frontier_Eastern)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(Frontier_EasternEducation)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(Frontier_Germany)->Unit(benchmark::kSecond)->Iterations(1);
} // namespace

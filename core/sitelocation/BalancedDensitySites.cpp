#include "BalancedDensitySites.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

namespace vbas
{
namespace
{

// Seats times population can pass 2^64 with weighted national data.
__extension__ using WideCount = unsigned __int128;

/** A run [first, last) of a sorted index array. */
struct Run
{
    std::size_t first;
    std::size_t last;
};

/** round(total / parts), half up, in integers. */
Count idealShare(Count total, std::size_t parts)
{
    return (2 * total + parts) / (2 * Count(parts));
}

/**
 * Cuts `order[from, to)` into at most `pieces` consecutive runs of population close to `ideal`
 * (thesis equation 4): the point that reaches the ideal stays when that leaves the run closer to
 * it, else it starts the next run; a run takes at least one point; the last run takes the rest.
 */
std::vector<Run> cutRuns(const std::vector<RegionIndex>& order, std::size_t from, std::size_t to,
                         const std::vector<Count>& weight, std::size_t pieces, Count ideal)
{
    std::vector<Run> runs;
    std::size_t start = from;
    Count population = 0;
    for (std::size_t i = from; i < to && runs.size() + 1 < pieces; ++i)
    {
        const Count before = population;
        const Count after = before + weight[order[i]];
        if (after < ideal)
        {
            population = after;
            continue;
        }
        if (i == start || after - ideal <= ideal - before)
        {
            runs.push_back({start, i + 1});
            start = i + 1;
            population = 0;
        }
        else
        {
            runs.push_back({start, i});
            start = i;
            population = weight[order[i]];
            if (population >= ideal && runs.size() + 1 < pieces)
            {
                runs.push_back({start, i + 1});
                start = i + 1;
                population = 0;
            }
        }
    }
    if (start < to)
        runs.push_back({start, to});
    return runs;
}

Count runPopulation(const std::vector<RegionIndex>& order, Run run, const std::vector<Count>& weight)
{
    Count total = 0;
    for (std::size_t i = run.first; i < run.last; ++i)
        total += weight[order[i]];
    return total;
}

/** Splits `run` (sorted by x) at its population-weighted x-median into two non-empty runs. */
std::pair<Run, Run> splitAtWeightedMedian(const std::vector<RegionIndex>& order, Run run,
                                          const std::vector<Count>& weight)
{
    const Count total = runPopulation(order, run, weight);
    std::size_t cut = run.first + (run.last - run.first) / 2; // unweighted middle when no population
    if (total > 0)
    {
        Count cumulative = 0;
        for (std::size_t i = run.first; i < run.last; ++i)
        {
            cumulative += weight[order[i]];
            if (2 * cumulative >= total)
            {
                cut = i + 1;
                break;
            }
        }
    }
    cut = std::clamp(cut, run.first + 1, run.last - 1);
    return {Run{run.first, cut}, Run{cut, run.last}};
}

/** Apportions `seats` over `populations` by largest remainder, then at least one seat each. */
std::vector<std::size_t> apportion(std::size_t seats, const std::vector<Count>& populations)
{
    const Count total = std::accumulate(populations.begin(), populations.end(), Count(0));
    const std::size_t n = populations.size();
    std::vector<std::size_t> allotted(n, 0);
    std::vector<WideCount> remainder(n, 0);
    std::size_t given = 0;
    for (std::size_t i = 0; i < n && total > 0; ++i)
    {
        const WideCount scaled = static_cast<WideCount>(seats) * populations[i];
        allotted[i] = static_cast<std::size_t>(scaled / total);
        remainder[i] = scaled % total;
        given += allotted[i];
    }
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
    for (std::size_t i = 0; given < seats; i = (i + 1) % n, ++given)
        ++allotted[order[i]];
    for (std::size_t i = 0; i < n; ++i)
        if (allotted[i] == 0)
        {
            const auto donor = std::max_element(allotted.begin(), allotted.end());
            --*donor;
            allotted[i] = 1;
        }
    return allotted;
}

double median(std::vector<double> values)
{
    const std::size_t middle = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(middle), values.end());
    const double upper = values[middle];
    if (values.size() % 2 == 1)
        return upper;
    const double lower = *std::max_element(values.begin(), values.begin() + std::ptrdiff_t(middle));
    return (lower + upper) / 2.0;
}

Point cellSite(const std::vector<RegionIndex>& order, Run run, const std::vector<Count>& weight,
               const std::vector<Point>& points, CellCentre centre)
{
    if (centre == CellCentre::Median)
    {
        std::vector<double> xs, ys;
        for (std::size_t i = run.first; i < run.last; ++i)
        {
            xs.push_back(points[order[i]].x);
            ys.push_back(points[order[i]].y);
        }
        return {median(std::move(xs)), median(std::move(ys))};
    }
    const bool weighted = centre == CellCentre::WeightedMean && runPopulation(order, run, weight) > 0;
    double sumX = 0.0, sumY = 0.0, sumW = 0.0;
    for (std::size_t i = run.first; i < run.last; ++i)
    {
        const double w = weighted ? double(weight[order[i]]) : 1.0;
        sumX += w * points[order[i]].x;
        sumY += w * points[order[i]].y;
        sumW += w;
    }
    return {sumX / sumW, sumY / sumW};
}

} // namespace

BalancedDensitySites::BalancedDensitySites(CellCentre centre)
    : mCentre(centre)
{
}

namespace
{
const OptionSpec& cellCentreOption()
{
    // In the order of CellCentre: a choice's index is its enum value.
    static const OptionSpec spec =
        OptionSpec::choice("cell_centre", "Site of a balanced-density cell",
                           {"mean", "weighted_mean", "median"}, "mean",
                           "mean of the cell's area points (the thesis), record-weighted mean, or "
                           "coordinate-wise median.")
            .asAdvanced();
    return spec;
}
} // namespace

std::vector<OptionSpec> BalancedDensitySites::options()
{
    return {cellCentreOption()};
}

std::unique_ptr<SiteLocator> BalancedDensitySites::create(const StrategyOptions& options)
{
    return std::make_unique<BalancedDensitySites>(CellCentre(options.choiceIndex(cellCentreOption())));
}

std::size_t BalancedDensitySites::plannedRows(std::size_t sites)
{
    const auto c0 = static_cast<std::size_t>(std::floor(std::sqrt(double(sites))));
    return c0 * (c0 + 1) <= sites ? c0 + 1 : std::max<std::size_t>(c0, 1);
}

std::vector<Point> BalancedDensitySites::locate(const RegionSet& regions, std::size_t count,
                                                Feedback& feedback) const
{
    std::vector<Point> sites;
    const std::size_t n = regions.size();
    if (count == 0 || n == 0)
        return sites;
    const std::vector<Point>& points = regions.points();
    std::vector<Count> weight(n);
    for (RegionIndex r = 0; r < n; ++r)
        weight[r] = regions.records(r);
    if (regions.totalRecords() == 0)
        std::fill(weight.begin(), weight.end(), 1); // nothing to balance: balance the points
    const Count population = std::accumulate(weight.begin(), weight.end(), Count(0));

    std::vector<RegionIndex> order(n);
    std::iota(order.begin(), order.end(), RegionIndex(0));
    std::sort(order.begin(), order.end(),
              [&](RegionIndex a, RegionIndex b)
              { return std::tie(points[a].y, points[a].x, a) < std::tie(points[b].y, points[b].x, b); });
    const std::size_t rowsPlanned = plannedRows(count);
    const std::vector<Run> rows =
        cutRuns(order, 0, n, weight, rowsPlanned, idealShare(population, rowsPlanned));
    std::vector<Count> rowPopulation;
    for (const Run& row : rows)
        rowPopulation.push_back(runPopulation(order, row, weight));
    const std::vector<std::size_t> cellsPerRow = apportion(count, rowPopulation);

    for (std::size_t r = 0; r < rows.size(); ++r)
    {
        feedback.checkCanceled();
        const Run row = rows[r];
        std::sort(order.begin() + std::ptrdiff_t(row.first), order.begin() + std::ptrdiff_t(row.last),
                  [&](RegionIndex a, RegionIndex b)
                  { return std::tie(points[a].x, points[a].y, a) < std::tie(points[b].x, points[b].y, b); });
        const std::size_t wanted = cellsPerRow[r];
        std::vector<Run> cells =
            cutRuns(order, row.first, row.last, weight, wanted, idealShare(rowPopulation[r], wanted));
        while (cells.size() < wanted)
        {
            std::size_t best = cells.size();
            Count bestPopulation = 0;
            for (std::size_t c = 0; c < cells.size(); ++c)
            {
                const Count cellPopulation = runPopulation(order, cells[c], weight);
                if (cells[c].last - cells[c].first >= 2 &&
                    (best == cells.size() || cellPopulation > bestPopulation))
                {
                    best = c;
                    bestPopulation = cellPopulation;
                }
            }
            if (best == cells.size())
                break; // every cell is a single point
            const auto halves = splitAtWeightedMedian(order, cells[best], weight);
            cells[best] = halves.second;
            cells.insert(cells.begin() + std::ptrdiff_t(best), halves.first);
        }
        for (const Run& cell : cells)
            sites.push_back(cellSite(order, cell, weight, points, mCentre));
    }
    if (sites.size() < count)
        feedback.warning("balanced density placed " + std::to_string(sites.size()) + " of " +
                         std::to_string(count) +
                         " sites: some rows have fewer regions than the sites they were given");
    return sites;
}

} // namespace vbas

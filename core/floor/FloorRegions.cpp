#include "FloorRegions.h"

#include "FloorState.h"
#include "StrategyOptions.h"
#include "base/Error.h"
#include "base/NumberText.h"
#include "data/Dataset.h"
#include "data/RegionSet.h"
#include "partition/VoronoiPartitioner.h"
#include "sitelocation/BalancedDensitySites.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace vbas
{
namespace
{
/** Passes of border moves per site count tried: the later ones move little. */
constexpr std::size_t kMovePasses = 8;
/**
 * Shares of the most regions the floors allow that the site-count search starts from (0: one site, the
 * splits alone). Few sites often do best: the splits cut regions tighter than a partition's cells fall.
 */
constexpr double kStartShares[] = {0.0, 0.05, 0.12, 0.25, 0.4, 0.55, 0.7, 0.85, 1.0};

void checkInputs(const FloorAreas& areas, const FloorSettings& settings)
{
    const std::size_t n = areas.points.size();
    if (!(settings.populationFloor >= 0.0) || std::isinf(settings.populationFloor))
        throw optionError("population_floor", "the population floor must be a number of people of 0 or more");
    if (!(settings.caseFloor >= 0.0) || std::isinf(settings.caseFloor))
        throw optionError("case_floor", "the case floor must be a number of cases of 0 or more");
    if (settings.populationFloor == 0.0 && settings.caseFloor == 0.0)
        throw optionError("population_floor",
                          "give a population floor (such as 5000 people), a case floor (such as 20 cases) or "
                          "both: every region is made to reach them");
    if (settings.caseFloor > 0.0 && areas.cases.empty())
        throw optionError("case_floor", "a case floor needs the cases of every small area");
    if (n == 0 || areas.population.size() != n || (!areas.cases.empty() && areas.cases.size() != n) ||
        (!areas.parent.empty() && areas.parent.size() != n) || !areas.adjacency ||
        areas.adjacency->regionCount() != n)
        throw Error(Subject::Regions, "the small areas need a point, a population, an adjacency and (when "
                                      "given) cases and a parent each");
    for (std::size_t a = 0; a < n; ++a)
    {
        if (!(areas.population[a] >= 0.0) || std::isinf(areas.population[a]))
            throw Error(Subject::Population, "small area " + std::to_string(a + 1) + " has the population " +
                                                 numberText(areas.population[a], 10) +
                                                 "; give every small area 0 or more people");
        if (!areas.cases.empty() && (!(areas.cases[a] >= 0.0) || std::isinf(areas.cases[a])))
            throw Error(Subject::Cases, "small area " + std::to_string(a + 1) + " has " +
                                            numberText(areas.cases[a], 10) +
                                            " cases; give every small area 0 or more cases");
    }
}

/** The graph regions grow along: shared boundaries between areas of one parent. */
FloorGraph makeGraph(const FloorAreas& areas, const FloorSettings& settings)
{
    FloorGraph graph;
    const std::size_t n = areas.points.size();
    graph.points = areas.points;
    graph.population = areas.population;
    graph.cases = areas.cases.empty() ? std::vector<double>(n, 0.0) : areas.cases;
    graph.populationFloor = settings.populationFloor;
    graph.caseFloor = settings.caseFloor;
    graph.offsets.assign(n + 1, 0);
    const auto joined = [&](RegionIndex a, RegionIndex b)
    {
        return areas.parent.empty() || areas.parent[a] == areas.parent[b];
    };
    for (RegionIndex a = 0; a < n; ++a)
    {
        for (auto it = areas.adjacency->neighboursBegin(a); it != areas.adjacency->neighboursEnd(a); ++it)
            if (joined(a, it->region))
                graph.neighbours.push_back(it->region);
        graph.offsets[a + 1] = graph.neighbours.size();
    }
    return graph;
}

/** The connected group of every area in `graph`. */
std::vector<std::uint32_t> groups(const FloorGraph& graph, std::uint32_t& count)
{
    constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> group(graph.size(), kNone);
    count = 0;
    for (std::uint32_t start = 0; start < graph.size(); ++start)
    {
        if (group[start] != kNone)
            continue;
        std::vector<std::uint32_t> stack{start};
        group[start] = count;
        while (!stack.empty())
        {
            const std::uint32_t a = stack.back();
            stack.pop_back();
            for (std::size_t i = graph.offsets[a]; i < graph.offsets[a + 1]; ++i)
                if (const std::uint32_t b = graph.neighbours[i]; group[b] == kNone)
                {
                    group[b] = count;
                    stack.push_back(b);
                }
        }
        ++count;
    }
    return group;
}

/** Places sites by the areas' share of the floors (balanced density on a data set of one class). */
class SitePlacer
{
public:
    SitePlacer(const FloorGraph& graph, Feedback& feedback)
        : mWeights(graph.size(), 0)
    {
        double totalPeople = 0.0, totalCases = 0.0;
        for (std::size_t a = 0; a < graph.size(); ++a)
            totalPeople += graph.population[a], totalCases += graph.cases[a];
        std::vector<RegionInput> regions;
        RecordTable records;
        for (std::size_t a = 0; a < graph.size(); ++a)
        {
            regions.push_back({std::to_string(a), graph.points[a]});
            const double share = std::max(
                graph.populationFloor > 0.0 && totalPeople > 0.0 ? graph.population[a] / totalPeople : 0.0,
                graph.caseFloor > 0.0 && totalCases > 0.0 ? graph.cases[a] / totalCases : 0.0);
            mWeights[a] = Count(std::llround(share * 1e9));
            if (mWeights[a] == 0)
                continue;
            records.regionKeys.push_back(std::to_string(a));
            records.regionKey.push_back(std::uint32_t(records.regionKeys.size() - 1));
            records.counts.push_back(std::int64_t(mWeights[a]));
        }
        if (records.rows() == 0)
            throw Error(Subject::Population,
                        "no small area holds people or cases, so no region can reach a floor");
        mDataset = std::make_unique<Dataset>(
            Dataset::build(std::move(regions), Schema(), records, DatasetOptions{}, feedback));
        mRegions = std::make_unique<RegionSet>(*mDataset, mDataset->regionHistograms());
    }

    Partition partition(std::size_t count, Feedback& feedback) const
    {
        Feedback quiet;
        const std::vector<Point> sites =
            BalancedDensitySites(CellCentre::WeightedMean).locate(*mRegions, count, quiet);
        feedback.checkCanceled();
        return mPartitioner->partition({mRegions->points(), mWeights, {}}, Sites(sites), quiet);
    }

private:
    std::vector<Count> mWeights;
    std::unique_ptr<Dataset> mDataset;
    std::unique_ptr<RegionSet> mRegions;
    std::unique_ptr<Partitioner> mPartitioner = VoronoiPartitioner::create(StrategyOptions());
};

/** The regions at `sites` sites: the partition's connected pieces merged, split, moved and split again. */
std::vector<std::uint32_t> regionsAround(const FloorGraph& graph, const Partition& partition)
{
    constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> piece(graph.size(), kNone);
    std::uint32_t pieces = 0;
    for (std::uint32_t start = 0; start < graph.size(); ++start)
    {
        if (piece[start] != kNone)
            continue;
        std::vector<std::uint32_t> stack{start};
        piece[start] = pieces;
        while (!stack.empty())
        {
            const std::uint32_t a = stack.back();
            stack.pop_back();
            for (std::size_t i = graph.offsets[a]; i < graph.offsets[a + 1]; ++i)
                if (const std::uint32_t b = graph.neighbours[i];
                    piece[b] == kNone && partition.regionSite[b] == partition.regionSite[a])
                {
                    piece[b] = pieces;
                    stack.push_back(b);
                }
        }
        ++pieces;
    }
    FloorState state(graph, piece);
    mergeBelowFloor(state);
    splitAboveFloor(state);
    if (moveBorderAreas(state, kMovePasses) > 0)
        splitAboveFloor(state);
    return state.numbered();
}

std::size_t countOf(const std::vector<std::uint32_t>& regionOfArea)
{
    return regionOfArea.empty() ? 0 : *std::max_element(regionOfArea.begin(), regionOfArea.end()) + 1;
}
} // namespace

FloorRegions makeFloorRegions(const FloorAreas& areas, const FloorSettings& settings, Feedback& feedback)
{
    checkInputs(areas, settings);
    const FloorGraph graph = makeGraph(areas, settings);
    const std::size_t n = graph.size();
    std::uint32_t groupCount = 0;
    const std::vector<std::uint32_t> group = groups(graph, groupCount);
    std::vector<double> groupPeople(groupCount, 0.0), groupCases(groupCount, 0.0);
    for (std::size_t a = 0; a < n; ++a)
        groupPeople[group[a]] += graph.population[a], groupCases[group[a]] += graph.cases[a];
    std::size_t most = 0;
    for (std::uint32_t g = 0; g < groupCount; ++g)
        if (graph.atFloor(groupPeople[g], groupCases[g]))
            most += std::size_t(std::floor(graph.fill(groupPeople[g], groupCases[g])));

    // The site count giving the most regions: a spread of shares of the most, then halving steps around the
    // best. Every count's regions are made whole, so the search compares what it would release.
    FloorRegions result;
    std::map<std::size_t, std::vector<std::uint32_t>> tried;
    if (most > 0)
    {
        const SitePlacer placer(graph, feedback);
        const std::size_t sitesAtMost = std::min(n, std::max<std::size_t>(1, most));
        const auto regionsAt = [&](std::size_t sites) -> const std::vector<std::uint32_t>&
        {
            sites = std::clamp<std::size_t>(sites, 1, sitesAtMost);
            auto found = tried.find(sites);
            if (found == tried.end())
            {
                feedback.checkCanceled();
                found = tried.emplace(sites, regionsAround(graph, placer.partition(sites, feedback))).first;
                result.countsTried.emplace_back(sites, countOf(found->second));
                feedback.setProgress(1.0 - std::exp(-double(tried.size()) / 6.0));
            }
            return found->second;
        };
        std::size_t best = 0, bestRegions = 0;
        const auto consider = [&](std::size_t sites)
        {
            sites = std::clamp<std::size_t>(sites, 1, sitesAtMost);
            const std::size_t regions = countOf(regionsAt(sites));
            if (regions > bestRegions || (regions == bestRegions && sites < best))
                best = sites, bestRegions = regions;
        };
        for (const double share : kStartShares)
            consider(std::size_t(std::llround(share * double(sitesAtMost))));
        for (std::size_t step = std::max<std::size_t>(1, sitesAtMost * 15 / 200); step >= 1; step /= 2)
        {
            const std::size_t centre = best;
            consider(centre + step);
            if (centre > step)
                consider(centre - step);
            if (step == 1)
                break;
        }
        result.sites = best;
        result.regionOfArea = tried.at(best);
    }
    else
        result.regionOfArea = group;

    // Groups that cannot reach the floor through their neighbours: one region each now (the merge joined
    // their pieces and found no neighbour outside). Each joins the nearest region of its parent that reaches
    // the floor; a parent with none makes one region of all of them, below the floor.
    std::size_t regions = countOf(result.regionOfArea);
    std::vector<double> people(regions, 0.0), count(regions, 0.0);
    for (std::size_t a = 0; a < n; ++a)
        people[result.regionOfArea[a]] += graph.population[a],
            count[result.regionOfArea[a]] += graph.cases[a];
    result.flags.assign(n, FloorFlag::None);
    const auto parentOf = [&](std::size_t a)
    {
        return areas.parent.empty() ? 0u : areas.parent[a];
    };
    std::vector<std::size_t> atFloor, below;
    for (std::size_t a = 0; a < n; ++a)
        (graph.atFloor(people[result.regionOfArea[a]], count[result.regionOfArea[a]]) ? atFloor : below)
            .push_back(a);
    std::map<std::uint32_t, std::uint32_t> belowRegionOfParent;
    std::vector<std::uint32_t> target(regions, std::numeric_limits<std::uint32_t>::max());
    for (const std::size_t a : below)
    {
        const std::uint32_t region = result.regionOfArea[a];
        feedback.checkCanceled();
        if (target[region] == std::numeric_limits<std::uint32_t>::max())
        {
            // The region at the floor nearest to any area of this one, within its parent.
            double nearest = std::numeric_limits<double>::infinity();
            for (const std::size_t b : below)
            {
                if (result.regionOfArea[b] != region)
                    continue;
                for (const std::size_t c : atFloor)
                    if (parentOf(c) == parentOf(b))
                        if (const double d = squaredDistance(graph.points[b], graph.points[c]); d < nearest)
                            nearest = d, target[region] = result.regionOfArea[c];
            }
            if (!std::isfinite(nearest))
                target[region] = belowRegionOfParent.emplace(parentOf(a), region).first->second;
        }
        const bool joins = graph.atFloor(people[target[region]], count[target[region]]);
        result.flags[a] = joins ? FloorFlag::JoinedNearest : FloorFlag::BelowFloor;
        (joins ? result.joinedAreas : result.belowFloorAreas) += 1;
    }
    std::vector<std::uint32_t> finalRegion(n);
    for (std::size_t a = 0; a < n; ++a)
    {
        const std::uint32_t region = result.regionOfArea[a];
        finalRegion[a] =
            target[region] == std::numeric_limits<std::uint32_t>::max() ? region : target[region];
    }
    // Numbered again in the order of each region's first area.
    std::vector<std::uint32_t> number(regions, std::numeric_limits<std::uint32_t>::max());
    std::uint32_t next = 0;
    for (std::size_t a = 0; a < n; ++a)
    {
        std::uint32_t& nr = number[finalRegion[a]];
        if (nr == std::numeric_limits<std::uint32_t>::max())
            nr = next++;
        result.regionOfArea[a] = nr;
    }
    result.regionCount = next;
    people.assign(next, 0.0), count.assign(next, 0.0);
    for (std::size_t a = 0; a < n; ++a)
        people[result.regionOfArea[a]] += graph.population[a],
            count[result.regionOfArea[a]] += graph.cases[a];
    for (std::size_t r = 0; r < next; ++r)
        result.regionAtFloor.push_back(graph.atFloor(people[r], count[r]));
    feedback.info("floor regions: " + std::to_string(result.regionCount) + " regions from " +
                  std::to_string(result.sites) + " sites (" + std::to_string(result.countsTried.size()) +
                  " site counts tried; at most " + std::to_string(most) + " regions could reach the floors)" +
                  (result.joinedAreas > 0 ? "; " + std::to_string(result.joinedAreas) +
                                                " small areas joined the nearest region across a gap"
                                          : std::string()) +
                  (result.belowFloorAreas > 0
                       ? "; " + std::to_string(result.belowFloorAreas) +
                             " small areas lie in regions below the floor: their parent "
                             "holds fewer"
                       : std::string()));
    return result;
}

} // namespace vbas

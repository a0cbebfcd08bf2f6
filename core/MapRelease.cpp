#include "MapRelease.h"

#include "base/Error.h"
#include "base/NumberText.h"

#include <algorithm>
#include <tuple>

namespace vbas
{

MapRelease releaseMap(const MapReleaseInputs& inputs, Feedback& feedback)
{
    if (!inputs.geometries || inputs.strata == 0 ||
        inputs.geometries->size() * inputs.strata != inputs.population.size())
        throw Error(Subject::Regions,
                    "a map release needs the polygon and the population of every small area");
    const RegionGeometries& geometries = *inputs.geometries;
    const std::size_t n = geometries.size();
    // The floors count people and cases per small area, whatever the strata.
    const auto totals = [&](const std::vector<double>& values, std::size_t strata)
    {
        std::vector<double> total(n, 0.0);
        for (std::size_t i = 0; i < values.size(); ++i)
            total[i / strata] += values[i];
        return total;
    };
    MapRelease release;
    RegionAdjacency adjacency;
    {
        Feedback::Stage stage(feedback, 0.0, 0.2);
        const double tolerance = inputs.adjacencyTolerance > 0.0 ? inputs.adjacencyTolerance
                                                                 : defaultAdjacencyTolerance(geometries);
        adjacency = RegionAdjacency::build(geometries, tolerance, feedback);
    }
    FloorAreas areas;
    for (std::size_t a = 0; a < geometries.size(); ++a)
        areas.points.push_back(geometries.representativePoint(a, RepresentativePoint::PointOnSurface));
    areas.population = totals(inputs.population, inputs.strata);
    if (!inputs.cases.empty())
        areas.cases = totals(inputs.cases, inputs.casesByStratum ? inputs.strata : 1);
    areas.adjacency = &adjacency;
    areas.parent = inputs.parent;
    // A count the preset withholds could be worked back from the others and a total: every region is made to
    // reach what the preset publishes instead.
    FloorSettings floors = inputs.floors;
    const RatePreset& preset = findRatePreset(inputs.rates.preset);
    for (const auto& [measure, floor, what] :
         {std::make_tuple(SmallNumberRule::Measure::Cases, &floors.caseFloor, "cases"),
          std::make_tuple(SmallNumberRule::Measure::Population, &floors.populationFloor, "people")})
        if (const double least = leastUnwithheld(preset, measure); least > *floor)
        {
            *floor = least;
            feedback.info(
                "the rule " + preset.id + " withholds the counts of regions with fewer than " +
                numberText(least, 10) + " " + what +
                ": every region is made to hold at least that "
                "many, so that no count is withheld beside the others, from which it could be worked back");
        }
    release.floors = floors;
    if (floors.caseFloor > 0.0 && inputs.cases.empty())
        areas.cases.assign(n, 0.0);
    {
        Feedback::Stage stage(feedback, 0.2, 0.7);
        release.regions = makeFloorRegions(areas, floors, feedback);
    }
    const FloorRegions& regions = release.regions;

    release.regionNeighbours.resize(regions.regionCount);
    for (const AdjacentPair& pair : adjacency.pairs())
    {
        const std::size_t a = regions.regionOfArea[pair.a], b = regions.regionOfArea[pair.b];
        if (a != b)
            release.regionNeighbours[a].push_back(b), release.regionNeighbours[b].push_back(a);
    }
    for (std::vector<std::size_t>& neighbours : release.regionNeighbours)
    {
        std::sort(neighbours.begin(), neighbours.end());
        neighbours.erase(std::unique(neighbours.begin(), neighbours.end()), neighbours.end());
    }

    RateInputs rates;
    rates.strata = inputs.strata;
    rates.strataAges = inputs.strataAges;
    rates.strataLabels = inputs.strataLabels;
    rates.population = inputs.population;
    rates.casesByStratum = inputs.casesByStratum;
    rates.cases = inputs.cases.empty() ? std::vector<double>(n, 0.0) : inputs.cases;
    rates.areaIds = inputs.areaIds;
    rates.regionOfArea.assign(regions.regionOfArea.begin(), regions.regionOfArea.end());
    rates.regionCount = regions.regionCount;
    rates.regionNeighbours = release.regionNeighbours;
    release.rates = computeRegionRates(rates, inputs.rates);
    for (const std::string& note : release.rates.notes)
        feedback.info(note);

    Aggregation aggregation;
    aggregation.aggregateSite.resize(regions.regionCount);
    aggregation.memberOffsets.assign(regions.regionCount + 1, 0);
    for (const std::uint32_t r : regions.regionOfArea)
        ++aggregation.memberOffsets[r + 1];
    for (std::size_t r = 0; r < regions.regionCount; ++r)
        aggregation.memberOffsets[r + 1] += aggregation.memberOffsets[r];
    aggregation.members.resize(regions.regionOfArea.size());
    std::vector<std::size_t> cursor(aggregation.memberOffsets.begin(), aggregation.memberOffsets.end() - 1);
    for (RegionIndex a = 0; a < regions.regionOfArea.size(); ++a)
        aggregation.members[cursor[regions.regionOfArea[a]]++] = a;
    {
        Feedback::Stage stage(feedback, 0.7, 1.0);
        release.polygons = dissolve(geometries, aggregation, feedback);
    }
    return release;
}

} // namespace vbas

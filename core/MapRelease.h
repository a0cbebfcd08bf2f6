#pragma once

#include "base/Feedback.h"
#include "floor/FloorRegions.h"
#include "geometry/Dissolve.h"
#include "geometry/RegionGeometries.h"
#include "rates/RegionRates.h"

#include <string>
#include <vector>

namespace vbas
{

/** A release for maps (SPEC section 15): small areas, their people and cases, the floors and the rates. */
struct MapReleaseInputs
{
    /** Planar polygons of the small areas: their adjacency, points and the regions' polygons come from them.
     */
    const RegionGeometries* geometries = nullptr;
    /** Small areas closer than this share a boundary; 0: a millionth of their extent. */
    double adjacencyTolerance = 0.0;
    std::vector<std::string> areaIds;
    /**
     * Population strata per small area (1: a total per small area), their age bands (for the standard
     * population) and labels, as RateInputs holds them.
     */
    std::size_t strata = 1;
    std::vector<AgeBand> strataAges;
    std::vector<std::string> strataLabels;
    /** The sex of every stratum ("" when the table has none); empty with a total per small area. */
    std::vector<std::string> strataSexes;
    /** People per small area and stratum, small-area-major (population[area * strata + stratum]). */
    std::vector<double> population;
    /** Cases per small area and stratum like `population` (casesByStratum), or per small area. */
    std::vector<double> cases;
    bool casesByStratum = false;
    /** The parent of every small area; empty: none. */
    std::vector<std::uint32_t> parent;
    FloorSettings floors;
    RateSettings rates;
};

/** Regions at the floors with every figure of SPEC section 15 and what a map and R or INLA need. */
struct MapRelease
{
    /** The floors the regions were made to: the inputs', raised to what the preset publishes. */
    FloorSettings floors;
    FloorRegions regions;
    RateReport rates;
    /** The regions bordering each region (shared boundaries of their small areas), each once, in order. */
    std::vector<std::vector<std::size_t>> regionNeighbours;
    /** Each region's dissolved polygon, in the planar frame. */
    std::vector<DissolvedAggregate> polygons;
};

/**
 * Makes the regions at the floors, raised where the preset withholds counts below them (leastUnwithheld(): a
 * count withheld beside the others can be worked back) (makeFloorRegions(), on the small areas' points on
 * their surface and their shared boundaries) and computes every figure of every region (computeRegionRates(),
 * neighbours for the local smoothing from the same boundaries), with the regions' polygons. Throws Error as
 * those do.
 */
MapRelease releaseMap(const MapReleaseInputs& inputs, Feedback& feedback);

} // namespace vbas

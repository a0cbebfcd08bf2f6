#pragma once

#include "base/Feedback.h"
#include "base/Types.h"
#include "geometry/RegionAdjacency.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vbas
{

/** The small areas a map's regions are made of (SPEC section 15), in one planar frame. */
struct FloorAreas
{
    /** The representative point of every small area. */
    std::vector<Point> points;
    /** People of every small area (0 or more). */
    std::vector<double> population;
    /** Cases of every small area (0 or more); empty when no case floor is asked for. */
    std::vector<double> cases;
    /** Which small areas share a boundary line: regions grow only along it. */
    const RegionAdjacency* adjacency = nullptr;
    /** The parent of every small area (county, state): no region crosses a parent's border. Empty: none. */
    std::vector<std::uint32_t> parent;
};

/** The floors every region must reach: GAT's two aggregation variables. */
struct FloorSettings
{
    /** Least people in a region; 0: no population floor. */
    double populationFloor = 0.0;
    /** Least cases in a region; 0: no case floor. */
    double caseFloor = 0.0;
};

/** What became of a small area beyond joining its neighbours, as GAT flags it. */
enum class FloorFlag : std::uint8_t
{
    None = 0,
    /**
     * Its neighbours within its parent (an island, an area with no neighbour, a group of them) hold fewer
     * than the floor together: it joined the nearest region of its parent across the gap (GAT's flag 10, "no
     * neighbors found", where GAT leaves it below the floor).
     */
    JoinedNearest = 10,
    /** Its parent (or, without parents, all the areas) holds fewer than the floor: its region is below it. */
    BelowFloor = 20,
};

/** Regions at a floor: every small area in one, each region connected but for flagged areas. */
struct FloorRegions
{
    /** The region (0 .. regionCount - 1) of every small area, numbered in the order of their first area. */
    std::vector<std::uint32_t> regionOfArea;
    std::size_t regionCount = 0;
    std::vector<FloorFlag> flags;
    /** Whether each region reaches both floors (false only for regions of BelowFloor areas). */
    std::vector<bool> regionAtFloor;
    /** The site count the regions were made from and every count tried with the regions it gave. */
    std::size_t sites = 0;
    std::vector<std::pair<std::size_t, std::size_t>> countsTried;
    /** Small areas joined across a gap, and in regions below the floor. */
    std::size_t joinedAreas = 0;
    std::size_t belowFloorAreas = 0;
};

/**
 * Makes as many regions at the floors as it can (SPEC section 15): sites placed by population
 * (sitelocation.balanced_density) and a Voronoi partition of the small areas' points, cut into connected
 * pieces within each parent; then every piece below the floor merged into its emptiest neighbour (never
 * dropped), every region holding twice the floor or more split into two connected parts at the floor
 * (again in each part), single border areas moved where both regions stay at the floor and connected and
 * become more compact, and split again. The site count is searched for the most regions: a spread of shares
 * of the most regions the floors allow, then halving steps around the best. A group of areas that cannot
 * reach the floor through its neighbours joins the nearest region of its parent (FloorFlag::JoinedNearest); a
 * parent below the floor makes one region flagged FloorFlag::BelowFloor. Throws Error(Option
 * "population_floor" or "case_floor") for a floor below 0 or no floor at all, Error(Population) or
 * Error(Cases) for a measure below 0, Error(Regions) for inputs of different lengths or no adjacency.
 */
FloorRegions makeFloorRegions(const FloorAreas& areas, const FloorSettings& settings, Feedback& feedback);

} // namespace vbas

#pragma once

#include "base/Types.h"

#include <cstdint>
#include <vector>

namespace vbas
{

/**
 * The small areas a floor partition joins: their points, their two measures (population and cases) with the
 * floor each must reach in every region, and the adjacency along which areas may be joined (shared boundary
 * lines, never across a parent's border), as compressed neighbour lists.
 */
struct FloorGraph
{
    std::vector<Point> points;
    std::vector<double> population;
    std::vector<double> cases;
    double populationFloor = 0.0;
    double caseFloor = 0.0;
    /** Neighbours of area a: neighbours[offsets[a] .. offsets[a + 1]). */
    std::vector<std::size_t> offsets;
    std::vector<std::uint32_t> neighbours;

    std::size_t size() const { return points.size(); }
    bool atFloor(double people, double count) const
    {
        return people >= populationFloor && count >= caseFloor;
    }
    /** How far a region of `people` and `count` is from the floor: the smaller share of the two floors. */
    double fill(double people, double count) const;
};

/**
 * Regions of a FloorGraph as they are changed by the steps of a floor partition (merges, splits, moves): the
 * region of every area, each region's members and the sums of its measures. Regions are numbered as made; a
 * region merged away stays empty. Every change keeps each region connected when the caller's does.
 */
class FloorState
{
public:
    /** Regions as `regionOfArea` gives them (numbered 0.. without gaps). */
    FloorState(const FloorGraph& graph, const std::vector<std::uint32_t>& regionOfArea);

    const FloorGraph& graph() const { return *mGraph; }
    std::size_t regionSlots() const { return mMembers.size(); }
    std::uint32_t regionOf(std::uint32_t area) const { return mRegionOf[area]; }
    const std::vector<std::uint32_t>& members(std::uint32_t region) const { return mMembers[region]; }
    double population(std::uint32_t region) const { return mPopulation[region]; }
    double cases(std::uint32_t region) const { return mCases[region]; }
    bool atFloor(std::uint32_t region) const { return mGraph->atFloor(mPopulation[region], mCases[region]); }
    double fill(std::uint32_t region) const { return mGraph->fill(mPopulation[region], mCases[region]); }
    /** Regions that hold areas. */
    std::size_t regionCount() const;
    /** The regions bordering `region`, each once, in increasing order. */
    std::vector<std::uint32_t> neighbours(std::uint32_t region) const;

    /** Moves every area of `from` into `into`; `from` is left empty. */
    void merge(std::uint32_t from, std::uint32_t into);
    /** Moves `areas` (of one region) into a new region and returns its number. */
    std::uint32_t split(const std::vector<std::uint32_t>& areas);
    /** Moves one area to another region. */
    void move(std::uint32_t area, std::uint32_t to);
    /** Whether `region` stays connected without `area` (one of its members), found by a search of its
     * members. */
    bool connectedWithout(std::uint32_t region, std::uint32_t area) const;
    /** The region of every area, numbered 0.. in the order of each region's first area. */
    std::vector<std::uint32_t> numbered() const;

private:
    void remove(std::uint32_t area);
    void insert(std::uint32_t area, std::uint32_t region);

    const FloorGraph* mGraph;
    std::vector<std::uint32_t> mRegionOf;
    std::vector<std::uint32_t> mPosition;
    std::vector<std::vector<std::uint32_t>> mMembers;
    std::vector<double> mPopulation;
    std::vector<double> mCases;
    mutable std::vector<std::uint32_t> mMark;
    mutable std::uint32_t mStamp = 0;
};

/** Step 1 of a floor partition: merges every region below the floor into its best neighbour, until none is.
 */
void mergeBelowFloor(FloorState& state);
/**
 * Step 2: splits every region that holds at least twice the floor into two connected parts each at the floor,
 * again in each part, while a split is found.
 */
void splitAboveFloor(FloorState& state);
/**
 * Step 3: moves single areas across region borders where both regions stay at the floor and connected and the
 * two together become more compact (less spread of their areas' points around their centres); at most
 * `passes` passes over the areas. Returns the areas moved.
 */
std::size_t moveBorderAreas(FloorState& state, std::size_t passes);

} // namespace vbas

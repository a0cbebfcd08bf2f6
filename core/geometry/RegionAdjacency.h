#pragma once

#include "RegionGeometries.h"
#include "base/Feedback.h"
#include "base/Types.h"

#include <vector>

namespace vbas
{

/** Two initial regions that share a stretch of boundary. */
struct AdjacentPair
{
    RegionIndex a;
    RegionIndex b;
    double sharedLength;
    /** A point of the shared boundary (middle of its longest piece): where a path crosses over. */
    Point border;
};

/**
 * Which initial regions share a boundary line (GEOMETRY-NOTES section b). Unlike Voronoi adjacency
 * it never links areas across water or outside the study area.
 *
 * Boundaries shared vertex for vertex are found exactly from sorted canonical edge keys. Pieces of
 * boundary left unmatched (neighbours digitised with different vertices, sub-millimetre slivers)
 * count as shared when their middle lies within `tolerance` of another region's unmatched
 * boundary. Regions that only touch at a point are not adjacent.
 */
class RegionAdjacency
{
public:
    struct Neighbour
    {
        RegionIndex region;
        std::uint32_t pair;
    };

    RegionAdjacency() = default;
    static RegionAdjacency build(const RegionGeometries& geometries, double tolerance, Feedback& feedback);
    /** Adjacency given directly (tests, other sources); pairs with a == b are ignored. */
    static RegionAdjacency fromPairs(std::size_t regions, std::vector<AdjacentPair> pairs);

    std::size_t regionCount() const { return mOffsets.empty() ? 0 : mOffsets.size() - 1; }
    const std::vector<AdjacentPair>& pairs() const { return mPairs; }
    const Neighbour* neighboursBegin(RegionIndex r) const { return mNeighbours.data() + mOffsets[r]; }
    const Neighbour* neighboursEnd(RegionIndex r) const { return mNeighbours.data() + mOffsets[r + 1]; }
    std::size_t degree(RegionIndex r) const { return mOffsets[r + 1] - mOffsets[r]; }

private:
    std::vector<AdjacentPair> mPairs;
    std::vector<std::size_t> mOffsets;
    std::vector<Neighbour> mNeighbours;
};

/** A tolerance for boundaries that should meet: a millionth of the larger side of the regions' extent. */
double defaultAdjacencyTolerance(const RegionGeometries& geometries);

} // namespace vbas

#pragma once

#include "SpatialContext.h"

#include <vector>

namespace vbas
{

/** What the contiguity repair did. */
struct ContiguityReport
{
    /** Pieces (of one or more regions) cut off from their aggregate, before the repair. */
    std::size_t strandedPieces = 0;
    std::size_t regionsMoved = 0;
    /** Pieces left where they are: islands, with no neighbour to join. */
    std::size_t islandPieces = 0;
};

/**
 * Makes aggregates contiguous (GEOMETRY-NOTES "Contiguity"): a Voronoi partition of region points
 * can leave pieces of an aggregate cut off from the rest. Every piece but the one with the most
 * records (ties: most regions, then lowest region) moves to the adjacent aggregate with which it
 * shares the longest boundary (ties: lowest site), never to one of another parent. A piece with
 * no neighbour at all is an island and stays with the aggregate the partition gave it (the nearest
 * by distance). Repeats until no piece moves.
 */
ContiguityReport repairContiguity(const RegionAdjacency& adjacency, const std::vector<Count>& weights,
                                  const std::vector<std::uint32_t>& regionParent,
                                  std::vector<SiteIndex>& regionSite);

} // namespace vbas

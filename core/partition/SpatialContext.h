#pragma once

#include "base/Types.h"
#include "geometry/Obstacles.h"
#include "geometry/RegionAdjacency.h"

#include <memory>
#include <vector>

namespace vbas
{

/**
 * What obstacle-aware partitions need beyond points: the region adjacency graph and the barriers,
 * both optional and shared (partitions of parent groups share the obstacles and get a sub-graph).
 */
struct SpatialContext
{
    std::shared_ptr<const RegionAdjacency> adjacency;
    std::shared_ptr<const Obstacles> obstacles;
};

/** The initial regions as a partitioner sees them. */
struct PartitionInput
{
    /** Representative point of each region. */
    const std::vector<Point>& points;
    /** Records of each region (after global suppression). */
    const std::vector<Count>& weights;
    SpatialContext spatial;
    /** The points in spatial order (spatialOrder()), when kept for many partitions; null: sorted for each. */
    const std::vector<std::size_t>* order = nullptr;
};

} // namespace vbas

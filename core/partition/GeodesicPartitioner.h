#pragma once

#include "Partitioner.h"

#include <memory>

namespace vbas
{

class StrategyOptions;

/**
 * partition.geodesic (SPEC section 5, GEOMETRY-NOTES d "hybrid"): each region goes to the site
 * with the shortest path that does not cross an obstacle. When the straight path to the
 * Euclidean-nearest site is clear, that site is provably the answer (no path is shorter than a
 * straight line). A blocked point (about 1 % of them, next to obstacles) takes the best of the
 * nearby sites it sees directly and of a graph fallback: shortest paths over small nodes set just
 * off every obstacle vertex, linked by Delaunay edges that cross no obstacle (offsetting keeps
 * zero-width lines from leaking through their vertices). Ties to the lower site index. Weighted
 * sites (SPEC section 11) compete by d² − w, d the path length: the power diagram certifies, and
 * the graph keeps every label that can still win further on.
 */
class GeodesicPartitioner : public Partitioner
{
public:
    static std::unique_ptr<Partitioner> create(const StrategyOptions& options);

private:
    Partition assignRegions(const PartitionInput& input, Sites sites, Feedback& feedback) const override;
    std::unique_ptr<IncrementalPartition> assignRegionsIncrementally(const PartitionInput& input, Sites sites,
                                                                     Feedback& feedback) const override;
};

} // namespace vbas

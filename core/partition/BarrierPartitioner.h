#pragma once

#include "Partitioner.h"

#include <memory>

namespace vbas
{

class StrategyOptions;

/**
 * partition.barrier (SPEC section 5, GEOMETRY-NOTES d): regions join sites through neighbouring
 * areas. The graph is the region adjacency graph; a step from one area to the next goes through
 * their shared border and is cut when an obstacle lies on that path (a river along the border, a
 * motorway). Each site enters at the nearest region point it can see; every region goes to the
 * site with the shortest path (ties to the lower site index); weighted sites by the least
 * d² − w, d the path length (SPEC section 11). Aggregates are contiguous by construction. Regions
 * no site can reach (islands, a bank without a site) go, component by component, to the nearest
 * site by straight (power) distance.
 */
class BarrierPartitioner : public Partitioner
{
public:
    static std::unique_ptr<Partitioner> create(const StrategyOptions& options);

private:
    Partition assignRegions(const PartitionInput& input, Sites sites, Feedback& feedback) const override;
    std::unique_ptr<IncrementalPartition> assignRegionsIncrementally(const PartitionInput& input, Sites sites,
                                                                     Feedback& feedback) const override;
};

} // namespace vbas

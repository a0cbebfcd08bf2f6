#pragma once

#include "Partitioner.h"

#include <memory>

namespace vbas
{

class StrategyOptions;

/**
 * partition.voronoi: each region goes to the site nearest its representative point (Euclidean),
 * ties to the lower site index. Sites live in one CGAL Delaunay triangulation; region points are
 * spatially sorted once and located with the previous answer as hint (GEOMETRY-NOTES section a),
 * about 0.5 us a point. With weights it is the power diagram (SPEC section 11): the least
 * ‖p − s‖² − w, in a CGAL regular triangulation (PowerTriangulation, PowerIncremental).
 */
class VoronoiPartitioner : public Partitioner
{
public:
    static std::unique_ptr<Partitioner> create(const StrategyOptions& options);

private:
    Partition assignRegions(const PartitionInput& input, Sites sites, Feedback& feedback) const override;
    std::unique_ptr<IncrementalPartition> assignRegionsIncrementally(const PartitionInput& input, Sites sites,
                                                                     Feedback& feedback) const override;
};

} // namespace vbas

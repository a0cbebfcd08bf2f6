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
 * about 0.5 us a point.
 */
class VoronoiPartitioner : public Partitioner
{
public:
    static std::unique_ptr<Partitioner> create(const StrategyOptions& options);

private:
    Partition assignRegions(const PartitionInput& input, std::vector<Point> sites,
                            Feedback& feedback) const override;
    std::unique_ptr<IncrementalPartition> assignRegionsIncrementally(const PartitionInput& input,
                                                                     std::vector<Point> sites,
                                                                     Feedback& feedback) const override;
};

} // namespace vbas

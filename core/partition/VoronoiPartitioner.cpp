#include "VoronoiPartitioner.h"

#include "SiteTriangulation.h"
#include "VoronoiIncremental.h"

namespace vbas
{

std::unique_ptr<Partitioner> VoronoiPartitioner::create(const StrategyOptions&)
{
    return std::make_unique<VoronoiPartitioner>();
}

Partition VoronoiPartitioner::assignRegions(const PartitionInput& input, std::vector<Point> sites,
                                            Feedback& feedback) const
{
    std::vector<SiteIndex> regionSite = SiteTriangulation(sites).nearestSites(input.points, feedback);
    return {std::move(sites), std::move(regionSite)};
}

std::unique_ptr<IncrementalPartition>
VoronoiPartitioner::assignRegionsIncrementally(const PartitionInput& input, std::vector<Point> sites,
                                               Feedback& feedback) const
{
    return std::make_unique<VoronoiIncremental>(input.points, std::move(sites), feedback);
}

} // namespace vbas

#include "VoronoiPartitioner.h"

#include "PowerIncremental.h"
#include "PowerTriangulation.h"
#include "SiteTriangulation.h"
#include "VoronoiIncremental.h"

namespace vbas
{

std::unique_ptr<Partitioner> VoronoiPartitioner::create(const StrategyOptions&)
{
    return std::make_unique<VoronoiPartitioner>();
}

Partition VoronoiPartitioner::assignRegions(const PartitionInput& input, Sites sites,
                                            Feedback& feedback) const
{
    if (sites.weights.empty())
    {
        std::vector<SiteIndex> regionSite =
            SiteTriangulation(sites.points).nearestSites(input.points, feedback, input.order);
        return {std::move(sites.points), std::move(regionSite), {}};
    }
    std::vector<SiteIndex> regionSite =
        PowerTriangulation(sites.points, sites.weights).nearestSites(input.points, feedback, input.order);
    return {std::move(sites.points), std::move(regionSite), std::move(sites.weights)};
}

std::unique_ptr<IncrementalPartition>
VoronoiPartitioner::assignRegionsIncrementally(const PartitionInput& input, Sites sites,
                                               Feedback& feedback) const
{
    if (sites.weights.empty())
        return std::make_unique<VoronoiIncremental>(input.points, std::move(sites.points), feedback);
    return std::make_unique<PowerIncremental>(input.points, std::move(sites.points), std::move(sites.weights),
                                              feedback);
}

} // namespace vbas

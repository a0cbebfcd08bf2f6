#include "VoronoiPartitioner.h"

#include "GraphSupport.h"
#include "SiteTriangulation.h"
#include "VoronoiIncremental.h"

namespace vbas
{

std::unique_ptr<Partitioner> VoronoiPartitioner::create(const StrategyOptions&)
{
    return std::make_unique<VoronoiPartitioner>();
}

Partition VoronoiPartitioner::partition(const PartitionInput& input, std::vector<Point> sites,
                                        Feedback& feedback) const
{
    Partition result;
    result.regionSite = nearestSites(sites, input.points, feedback);
    result.sites = std::move(sites);
    return result;
}

std::unique_ptr<IncrementalPartition> VoronoiPartitioner::incremental(const PartitionInput& input,
                                                                      std::vector<Point> sites,
                                                                      Feedback& feedback) const
{
    requireDistinctSites(sites);
    return std::make_unique<VoronoiIncremental>(input.points, std::move(sites), feedback);
}

std::vector<SiteIndex> VoronoiPartitioner::nearestSites(const std::vector<Point>& sites,
                                                        const std::vector<Point>& queries, Feedback& feedback)
{
    if (sites.empty())
        throw Error(Subject::SiteLocation, "there are no sites to partition the regions with");
    const SiteTriangulation triangulation(sites);
    return triangulation.nearestSites(queries, feedback);
}

} // namespace vbas

#include "VoronoiPartitioner.h"

#include "SiteTriangulation.h"
#include "VoronoiIncremental.h"

namespace vbas
{

std::unique_ptr<Partitioner> VoronoiPartitioner::create(const StrategyOptions&)
{
    return std::make_unique<VoronoiPartitioner>();
}

Partition VoronoiPartitioner::partition(const RegionSet& regions, std::vector<Point> sites,
                                        Feedback& feedback) const
{
    Partition result;
    result.regionSite = nearestSites(sites, regions.points(), feedback);
    result.sites = std::move(sites);
    return result;
}

std::unique_ptr<IncrementalPartition>
VoronoiPartitioner::incremental(const RegionSet& regions, std::vector<Point> sites, Feedback& feedback) const
{
    if (sites.empty())
        throw Error(Subject::SiteLocation, "there are no sites to partition the regions with");
    return std::make_unique<VoronoiIncremental>(regions.points(), std::move(sites), feedback);
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

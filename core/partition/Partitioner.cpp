#include "Partitioner.h"

#include "Error.h"

#include <algorithm>
#include <utility>

namespace vbas
{
namespace
{

void requireSites(const std::vector<Point>& sites)
{
    if (sites.empty())
        throw Error(Subject::SiteLocation, "there are no sites to partition the regions with");
}

} // namespace

Partition Partitioner::partition(const PartitionInput& input, std::vector<Point> sites,
                                 Feedback& feedback) const
{
    requireSites(sites);
    return assignRegions(input, std::move(sites), feedback);
}

std::unique_ptr<IncrementalPartition>
Partitioner::incremental(const PartitionInput& input, std::vector<Point> sites, Feedback& feedback) const
{
    requireSites(sites);
    std::vector<std::pair<double, double>> locations;
    for (const Point& p : sites)
        locations.emplace_back(p.x, p.y);
    std::sort(locations.begin(), locations.end());
    if (std::adjacent_find(locations.begin(), locations.end()) != locations.end())
        throw Error(Subject::SiteLocation, "sites that will be moved need distinct locations");
    return assignRegionsIncrementally(input, std::move(sites), feedback);
}

} // namespace vbas

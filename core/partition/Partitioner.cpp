#include "Partitioner.h"

#include "base/Error.h"

#include <algorithm>
#include <cmath>
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

void checkWeights(const Sites& sites)
{
    if (sites.weights.empty())
        return;
    if (sites.weights.size() != sites.points.size())
        throw Error(Subject::Partition, "every site needs a weight (" + std::to_string(sites.points.size()) +
                                            " sites, " + std::to_string(sites.weights.size()) + " weights)");
    for (double w : sites.weights)
        if (!std::isfinite(w))
            throw Error(Subject::Partition, "site weights must be finite numbers");
}

} // namespace

const std::vector<double>& IncrementalPartition::weights() const
{
    static const std::vector<double> none;
    return none;
}

bool IncrementalPartition::reweigh(SiteIndex, double, std::vector<Change>&)
{
    throw Error(Subject::Partition, "this partition has no site weights");
}

void IncrementalPartition::undoReweigh(SiteIndex, double, const std::vector<Change>&)
{
    throw Error(Subject::Partition, "this partition has no site weights");
}

Partition Partitioner::partition(const PartitionInput& input, Sites sites, Feedback& feedback) const
{
    requireSites(sites.points);
    checkWeights(sites);
    if (!sites.weighted())
        sites.weights.clear();
    return assignRegions(input, std::move(sites), feedback);
}

std::unique_ptr<IncrementalPartition> Partitioner::incremental(const PartitionInput& input, Sites sites,
                                                               Feedback& feedback) const
{
    requireSites(sites.points);
    checkWeights(sites);
    std::vector<std::pair<double, double>> locations;
    for (const Point& p : sites.points)
        locations.emplace_back(p.x, p.y);
    std::sort(locations.begin(), locations.end());
    if (std::adjacent_find(locations.begin(), locations.end()) != locations.end())
        throw Error(Subject::SiteLocation, "sites that will be moved need distinct locations");
    return assignRegionsIncrementally(input, std::move(sites), feedback);
}

} // namespace vbas

#include "Aggregation.h"

#include "CompressedLists.h"

namespace vbas
{

Aggregation Aggregation::build(const RegionSet& regions, const Partition& partition)
{
    const std::size_t siteCount = partition.sites.size();
    std::vector<std::uint32_t> siteAggregate(siteCount, kNoAggregate);
    for (SiteIndex site : partition.regionSite)
        siteAggregate.at(site) = 0;
    std::vector<SiteIndex> aggregateSite;
    for (SiteIndex site = 0; site < siteCount; ++site)
        if (siteAggregate[site] != kNoAggregate)
        {
            siteAggregate[site] = static_cast<std::uint32_t>(aggregateSite.size());
            aggregateSite.push_back(site);
        }
    std::vector<std::uint32_t> regionGroup(regions.size());
    for (RegionIndex r = 0; r < regions.size(); ++r)
        regionGroup[r] = siteAggregate[partition.regionSite[r]];
    Aggregation aggregation = fromGroups(regions, regionGroup, aggregateSite.size());
    aggregation.aggregateSite = std::move(aggregateSite);
    aggregation.emptySites = siteCount - aggregation.size();
    return aggregation;
}

Aggregation Aggregation::fromGroups(const RegionSet& regions, const std::vector<std::uint32_t>& regionGroup,
                                    std::size_t groups)
{
    Aggregation aggregation;
    aggregation.regionAggregate = regionGroup;
    aggregation.aggregateSite.resize(groups);
    for (std::size_t g = 0; g < groups; ++g)
        aggregation.aggregateSite[g] = static_cast<SiteIndex>(g);
    fillCompressedLists(
        groups,
        [&](auto&& emit)
        {
            for (RegionIndex r = 0; r < regionGroup.size(); ++r)
                emit(regionGroup[r], r);
        },
        aggregation.memberOffsets, aggregation.members);
    aggregation.histograms = regions.histograms().mergeGroups(regionGroup, groups, regions.classCount(),
                                                              &aggregation.regionEntryTarget);
    return aggregation;
}

} // namespace vbas

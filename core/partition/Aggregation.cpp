#include "Aggregation.h"

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
    aggregation.memberOffsets.assign(groups + 1, 0);
    for (std::uint32_t group : regionGroup)
        ++aggregation.memberOffsets.at(std::size_t(group) + 1);
    for (std::size_t g = 0; g < groups; ++g)
        aggregation.memberOffsets[g + 1] += aggregation.memberOffsets[g];
    aggregation.members.resize(regionGroup.size());
    std::vector<std::size_t> cursor(aggregation.memberOffsets.begin(), aggregation.memberOffsets.end() - 1);
    for (RegionIndex r = 0; r < regionGroup.size(); ++r)
        aggregation.members[cursor[regionGroup[r]]++] = r;
    aggregation.histograms = regions.histograms().mergeGroups(regionGroup, groups, regions.classCount(),
                                                              &aggregation.regionEntryTarget);
    return aggregation;
}

} // namespace vbas

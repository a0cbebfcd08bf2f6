#include "Aggregation.h"

#include "base/CompressedLists.h"

#include <algorithm>

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

std::vector<std::size_t> Aggregation::releasedEntryOfRows(const Dataset& dataset,
                                                          const std::vector<bool>& withheld,
                                                          const std::vector<bool>* excludedRows) const
{
    std::vector<std::size_t> rowEntry(dataset.rows(), HistogramTable::kNoEntry);
    for (std::size_t row = 0; row < dataset.rows(); ++row)
    {
        const RegionIndex region = dataset.rowRegion(row);
        if (region == kNoRegion || (excludedRows != nullptr && (*excludedRows)[row]))
            continue;
        const ClassId cls = dataset.rowClass(row);
        const HistogramTable::Range entries = histograms.entries(regionAggregate[region]);
        const ClassCount* entry = std::lower_bound(entries.begin(), entries.end(), cls,
                                                   [](const ClassCount& e, ClassId c) { return e.cls < c; });
        // A class that global suppression withheld has no entry.
        if (entry == entries.end() || entry->cls != cls)
            continue;
        const std::size_t index = std::size_t(entry - histograms.allEntries().data());
        if (!withheld[index])
            rowEntry[row] = index;
    }
    return rowEntry;
}

} // namespace vbas

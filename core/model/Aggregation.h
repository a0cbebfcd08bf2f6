#pragma once

#include "data/HistogramTable.h"
#include "data/RegionSet.h"
#include "model/Sites.h"

#include <vector>

namespace vbas
{

/**
 * The aggregates a partition forms: one per site that received at least one region, numbered in
 * site order, with their member regions and class histograms (after global suppression, before
 * local suppression).
 */
struct Aggregation
{
    static constexpr std::uint32_t kNoAggregate = static_cast<std::uint32_t>(-1);

    /** Site of each aggregate. */
    std::vector<SiteIndex> aggregateSite;
    /** Aggregate of each initial region. */
    std::vector<std::uint32_t> regionAggregate;
    /** Member regions of aggregate a: members[memberOffsets[a] .. memberOffsets[a+1]). */
    std::vector<std::size_t> memberOffsets;
    std::vector<RegionIndex> members;
    HistogramTable histograms;
    /** For every entry of the region histograms, the aggregate entry it is counted in. */
    std::vector<std::size_t> regionEntryTarget;
    /** Sites that received no region (they form no aggregate). */
    std::size_t emptySites = 0;

    std::size_t size() const { return aggregateSite.size(); }
    std::size_t memberCount(std::size_t a) const { return memberOffsets[a + 1] - memberOffsets[a]; }
    /**
     * The entry of histograms that every input row of `dataset` is counted in, when `withheld` (a flag per
     * entry) leaves it released; HistogramTable::kNoEntry for a row dropped, withheld globally, withheld, or
     * flagged in `excludedRows` (when given).
     */
    std::vector<std::size_t> releasedEntryOfRows(const Dataset& dataset, const std::vector<bool>& withheld,
                                                 const std::vector<bool>* excludedRows = nullptr) const;

    /** Aggregates of `partition` over `regions`. */
    static Aggregation build(const RegionSet& regions, const Partition& partition);
    /**
     * Aggregates given directly as a group per region (an existing aggregation to rate); groups
     * are numbered 0..groups-1 and each must hold at least one region.
     */
    static Aggregation fromGroups(const RegionSet& regions, const std::vector<std::uint32_t>& regionGroup,
                                  std::size_t groups);
};

} // namespace vbas

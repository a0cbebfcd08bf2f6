#include "PublishedRows.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace vbas
{

std::vector<std::size_t> releasedEntryOfRows(const Dataset& dataset, const Aggregation& aggregation,
                                             const std::vector<bool>& withheld,
                                             const std::vector<bool>* excludedRows)
{
    const HistogramTable& histograms = aggregation.histograms;
    std::vector<std::size_t> rowEntry(dataset.rows(), HistogramTable::kNoEntry);
    for (std::size_t row = 0; row < dataset.rows(); ++row)
    {
        const RegionIndex region = dataset.rowRegion(row);
        if (region == kNoRegion || (excludedRows != nullptr && (*excludedRows)[row]))
            continue;
        const ClassId cls = dataset.rowClass(row);
        const HistogramTable::Range entries = histograms.entries(aggregation.regionAggregate[region]);
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

std::vector<bool> rowsInSmallPublishedRows(const Dataset& dataset, const Aggregation& aggregation,
                                           const std::vector<bool>& withheld, Count k)
{
    if (!dataset.publishesCountRows())
        return {};
    const std::vector<std::size_t> rowEntry = releasedEntryOfRows(dataset, aggregation, withheld);
    const auto rowOf = [&](std::size_t row)
    {
        return (std::uint64_t(rowEntry[row]) << 32) | dataset.publishedRowKey(row);
    };
    std::unordered_map<std::uint64_t, Count> records;
    for (std::size_t row = 0; row < dataset.rows(); ++row)
        if (rowEntry[row] != HistogramTable::kNoEntry)
            records[rowOf(row)] += dataset.rowCount(row);
    std::vector<bool> small(dataset.rows(), false);
    for (std::size_t row = 0; row < dataset.rows(); ++row)
        small[row] = rowEntry[row] != HistogramTable::kNoEntry && records.at(rowOf(row)) < k;
    return small;
}

} // namespace vbas

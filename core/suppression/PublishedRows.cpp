#include "PublishedRows.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace vbas
{

std::vector<bool> rowsInSmallPublishedRows(const Dataset& dataset, const Aggregation& aggregation,
                                           const std::vector<bool>& withheld, Count k)
{
    if (!dataset.publishesCountRows())
        return {};
    const std::vector<std::size_t> rowEntry = aggregation.releasedEntryOfRows(dataset, withheld);
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

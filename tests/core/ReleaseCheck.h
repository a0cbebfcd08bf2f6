#pragma once

#include "Pipeline.h"

#include <map>
#include <string>
#include <vector>

namespace vbas::test
{

/**
 * Checks the release guarantee from the raw input alone, never trusting the engine's counters:
 * recounts released records per (aggregate, quasi-identifier tuple) from the record table and the
 * per-row fates, and checks conservation against the input's own row counts. Returns what is
 * wrong, or an empty string. Used by the tests and by the fuzz target.
 */
inline std::string checkRelease(const RecordTable& table, const Dataset& dataset,
                                const PipelineResult& result, Count k)
{
    const std::vector<RecordFate> fates = recordFates(dataset, result);
    if (fates.size() != table.rows())
        return "one fate per input row expected";
    const std::size_t q = table.quasiIdentifierCount;
    std::map<std::pair<std::uint32_t, std::vector<std::uint32_t>>, Count> groups;
    Count input = 0, released = 0, suppressed = 0, dropped = 0;
    for (std::size_t row = 0; row < table.rows(); ++row)
    {
        const Count count = table.counts.empty() ? 1 : Count(table.counts[row]);
        input += count;
        switch (fates[row])
        {
        case RecordFate::Released:
            released += count;
            groups[{result.aggregation.regionAggregate[dataset.rowRegion(row)],
                    std::vector<std::uint32_t>(table.codes.begin() + std::ptrdiff_t(row * q),
                                               table.codes.begin() + std::ptrdiff_t((row + 1) * q))}] +=
                count;
            break;
        case RecordFate::SuppressedGlobally:
        case RecordFate::SuppressedLocally:
            suppressed += count;
            break;
        case RecordFate::Dropped:
            dropped += count;
            break;
        }
    }
    for (const auto& [group, count] : groups)
        if (count < k)
            return "aggregate " + std::to_string(group.first) + " releases a group of " +
                   std::to_string(count) + " records, below k = " + std::to_string(k);
    if (released + suppressed + dropped != input)
        return "released + suppressed + dropped = " + std::to_string(released + suppressed + dropped) +
               " but the input holds " + std::to_string(input);
    if (result.release.released != released ||
        result.release.globallySuppressed + result.release.locallySuppressed != suppressed ||
        dataset.droppedRecords() != dropped)
        return "the engine's counters disagree with the recount";
    return {};
}

} // namespace vbas::test

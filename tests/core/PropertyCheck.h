#pragma once

#include "Pipeline.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace vbas::test
{

/**
 * Checks the release guarantee from the raw input alone, never trusting the engine's counters:
 * recounts released records per (aggregate, quasi-identifier tuple) from the record table and the
 * per-row fates, and checks conservation against the input's own row counts.
 */
inline void expectGuarantee(const RecordTable& table, const Dataset& dataset, const PipelineResult& result,
                            Count k)
{
    const std::vector<RecordFate> fates = recordFates(dataset, result);
    ASSERT_EQ(fates.size(), table.rows());
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
        {
            released += count;
            const std::vector<std::uint32_t> tuple(table.codes.begin() + std::ptrdiff_t(row * q),
                                                   table.codes.begin() + std::ptrdiff_t((row + 1) * q));
            groups[{result.aggregation.regionAggregate[dataset.rowRegion(row)], tuple}] += count;
            break;
        }
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
        ASSERT_GE(count, k) << "aggregate " << group.first << " releases a group of " << count;
    EXPECT_EQ(released + suppressed + dropped, input);
    // The engine's own counters must agree with the recount.
    EXPECT_EQ(result.release.released, released);
    EXPECT_EQ(result.release.globallySuppressed + result.release.locallySuppressed, suppressed);
    EXPECT_EQ(dataset.droppedRecords(), dropped);
}

} // namespace vbas::test

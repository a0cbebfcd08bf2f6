#pragma once

#include "Pipeline.h"
#include "privacy/LDiversity.h"

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace vbas::test
{

/** Records of one (aggregate, quasi-identifier tuple) group and of each value of each sensitive field. */
struct GroupTally
{
    Count records = 0;
    std::vector<std::map<std::uint32_t, Count>> sensitiveValues;
    /** The people of its rows, when the table names them. */
    std::set<std::uint32_t> persons;
};

/** Whether `group` meets `rule` on every sensitive field, computed straight from the definition. */
inline bool meetsDiversity(const GroupTally& group, const DiversityRule& rule)
{
    if (!rule.enabled())
        return true;
    for (const std::map<std::uint32_t, Count>& values : group.sensitiveValues)
    {
        if (rule.measure == DiversityRule::Measure::Distinct)
        {
            if (values.size() < rule.l)
                return false;
            continue;
        }
        double entropy = 0.0;
        for (const auto& [value, count] : values)
        {
            const double p = double(count) / double(group.records);
            entropy -= p * std::log(p);
        }
        const double required = std::log(double(rule.l));
        if (entropy < required - 1e-12 * required)
            return false;
    }
    return true;
}

/**
 * Checks the release guarantee from the raw input alone, never trusting the engine's counters:
 * recounts records per (aggregate, quasi-identifier tuple) and per sensitive value from the
 * record table and the per-row fates; checks that every released group holds k records and meets
 * `diversity`, that every group withheld for l-diversity holds k records and fails it (so it was
 * withheld for a reason), and conservation against the input's own row counts. When the table names the
 * person of every row, k and l count people: every released group holds k distinct people. A count table
 * (RecordTable::publishedRowKeys) publishes a row per (aggregate, tuple, key): every released one holds
 * k records, every one withheld as a small row fewer, and l-diversity is judged without the small ones.
 * Returns what is wrong, or an empty string. Used by the tests and by the fuzz target.
 */
inline std::string checkRelease(const RecordTable& table, const Dataset& dataset,
                                const std::vector<RecordFate>& fates, const PipelineResult& result, Count k,
                                const DiversityRule& diversity = {})
{
    if (fates.size() != table.rows())
        return "one fate per input row expected";
    const std::size_t q = table.quasiIdentifierCount;
    const std::size_t sensitive = table.sensitiveCount;
    using GroupKey = std::pair<std::uint32_t, std::vector<std::uint32_t>>;
    const auto groupOf = [&](std::size_t row) -> GroupKey
    {
        return {result.aggregation.regionAggregate[dataset.rowRegion(row)],
                std::vector<std::uint32_t>(table.codes.begin() + std::ptrdiff_t(row * q),
                                           table.codes.begin() + std::ptrdiff_t((row + 1) * q))};
    };
    const auto countOf = [&](std::size_t row)
    {
        return table.counts.empty() ? 1 : Count(table.counts[row]);
    };
    // A count table's published rows, of the groups that hold k: what a row publishes unless it is below k.
    const bool countRows = !table.publishedRowKeys.empty();
    std::map<std::pair<GroupKey, std::uint32_t>, Count> publishedRows;
    for (std::size_t row = 0; countRows && row < table.rows(); ++row)
        if (fates[row] == RecordFate::Released || fates[row] == RecordFate::SuppressedSmallRow ||
            fates[row] == RecordFate::SuppressedDiversity || fates[row] == RecordFate::SuppressedDifference)
            publishedRows[{groupOf(row), table.publishedRowKeys[row]}] += countOf(row);
    const auto rowRecords = [&](std::size_t row)
    {
        return publishedRows.at({groupOf(row), table.publishedRowKeys[row]});
    };
    std::map<GroupKey, GroupTally> releasedGroups, diversityGroups;
    Count input = 0, released = 0, suppressed = 0, withheldForDiversity = 0, dropped = 0;
    for (std::size_t row = 0; row < table.rows(); ++row)
    {
        const Count count = countOf(row);
        input += count;
        std::map<GroupKey, GroupTally>* groups = nullptr;
        switch (fates[row])
        {
        case RecordFate::Released:
            released += count;
            groups = &releasedGroups;
            if (countRows && rowRecords(row) < k)
                return "a published count row holds " + std::to_string(rowRecords(row)) + " records, below k";
            break;
        case RecordFate::SuppressedDiversity:
            suppressed += count;
            withheldForDiversity += count;
            groups = countRows && rowRecords(row) < k ? nullptr : &diversityGroups;
            break;
        case RecordFate::SuppressedSmallRow:
            suppressed += count;
            if (!countRows || rowRecords(row) >= k)
                return "a row withheld as a count row below k is in one of " +
                       std::to_string(countRows ? rowRecords(row) : 0) + " records";
            break;
        case RecordFate::SuppressedGlobally:
        case RecordFate::SuppressedLocally:
        case RecordFate::SuppressedDifference:
            suppressed += count;
            break;
        case RecordFate::Dropped:
            dropped += count;
            break;
        }
        if (groups == nullptr)
            continue;
        GroupTally& group = (*groups)[groupOf(row)];
        group.records += count;
        if (!table.persons.empty())
            group.persons.insert(table.persons[row]);
        group.sensitiveValues.resize(sensitive);
        for (std::size_t field = 0; field < sensitive; ++field)
            group.sensitiveValues[field][table.sensitiveCodes[row * sensitive + field]] += count;
    }
    for (const auto& [key, group] : releasedGroups)
    {
        if (!table.persons.empty() && group.persons.size() < k)
            return "aggregate " + std::to_string(key.first) + " releases a group of " +
                   std::to_string(group.records) + " rows of " + std::to_string(group.persons.size()) +
                   " people, below k = " + std::to_string(k);
        if (group.records < k)
            return "aggregate " + std::to_string(key.first) + " releases a group of " +
                   std::to_string(group.records) + " records, below k = " + std::to_string(k);
        if (!meetsDiversity(group, diversity))
            return "aggregate " + std::to_string(key.first) + " releases a group of " +
                   std::to_string(group.records) +
                   " records that fails l-diversity (l = " + std::to_string(diversity.l) + ")";
    }
    for (const auto& [key, group] : diversityGroups)
    {
        if (releasedGroups.count(key) != 0)
            return "aggregate " + std::to_string(key.first) + " both releases and withholds one group";
        if ((table.persons.empty() && group.records < k) || meetsDiversity(group, diversity))
            return "aggregate " + std::to_string(key.first) + " withholds a group of " +
                   std::to_string(group.records) + " records for l-diversity that is below k or meets l";
    }
    if (released + suppressed + dropped != input)
        return "released + suppressed + dropped = " + std::to_string(released + suppressed + dropped) +
               " but the input holds " + std::to_string(input);
    // The engine counts people where the table names them; its counters are then no row counts.
    if (!table.persons.empty())
        return {};
    if (result.suppression.released != released || result.suppression.suppressed() != suppressed ||
        result.suppression.diversitySuppressed != withheldForDiversity || dataset.droppedRecords() != dropped)
        return "the engine's counters disagree with the recount";
    return {};
}

/** checkRelease() with the fates the engine gives `dataset`'s rows in `result`. */
inline std::string checkRelease(const RecordTable& table, const Dataset& dataset,
                                const PipelineResult& result, Count k, const DiversityRule& diversity = {})
{
    return checkRelease(table, dataset, recordFates(dataset, result), result, k, diversity);
}

} // namespace vbas::test

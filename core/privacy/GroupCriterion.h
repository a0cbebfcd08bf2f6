#pragma once

#include "StrategyOptions.h"
#include "base/Types.h"
#include "privacy/CountLogCountSum.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace vbas
{

/** The records of one released group by value of each sensitive field (SPEC section 14). */
struct GroupValues
{
    Count records = 0;
    /** Per sensitive field: (value, records) pairs, each value once, in any order. */
    std::vector<std::vector<std::pair<std::uint32_t, Count>>> fields;
};

/**
 * What the released table holds of each sensitive field: records per value, and where the values are numbers,
 * their order, for distances between values.
 */
struct TableValues
{
    Count records = 0;
    /** Per field, the records of each value (indexed by value). */
    std::vector<std::vector<Count>> counts;
    /** Per field, each value's place in numeric order (0, 1, ...); empty for a field of categories. */
    std::vector<std::vector<std::uint32_t>> order;
};

/**
 * What the refinement's ledger keeps of a group's sensitive field as records move: its distinct values and
 * the sum of c ln c over their counts c, read only by the criteria that need it (its conversion costs as much
 * as the rest of a check).
 */
struct FieldSummary
{
    Count distinct = 0;
    const CountLogCountSum* countLogCountSum = nullptr;
};

/**
 * A privacy criterion on the sensitive values of every released group (SPEC section 14): l-diversity,
 * t-closeness... A group that fails is withheld like a group below k. One file per criterion, registered in
 * Strategies.cpp with the options it reads (front ends show them as parameters, as for strategies); a
 * criterion whose options leave it off is not created.
 */
class GroupCriterion
{
public:
    virtual ~GroupCriterion() = default;
    /** What it asks, for the log and the report: "distinct 2-diversity", "0.2-closeness". */
    virtual std::string describe() const = 0;
    /**
     * Whether `group` passes against the released table `table`. The verifier (vbas:checkanonymity) calls it
     * on the groups and values it counts from a published table alone.
     */
    virtual bool passes(const GroupValues& group, const TableValues& table) const = 0;
    /** Whether it reads the released table's values: withholding a group can then make another fail. */
    virtual bool readsTable() const { return false; }
    /**
     * Whether merging groups never makes a release withhold more (at a fixed partition, a coarser
     * generalization never withholds more records under it): the generalization search prunes on it.
     */
    virtual bool monotone() const = 0;
    /**
     * Whether passesSummaries() decides a group as passes() does, so that the refinement follows it move by
     * move; otherwise the refinement leaves it to the release, which applies it exactly.
     */
    virtual bool decidedBySummaries() const { return false; }
    virtual bool passesSummaries(Count records, const std::vector<FieldSummary>& fields) const
    {
        (void)records;
        (void)fields;
        return true;
    }
};

} // namespace vbas

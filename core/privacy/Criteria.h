#pragma once

#include "Registry.h"
#include "base/Feedback.h"
#include "data/RegionSet.h"
#include "model/Aggregation.h"
#include "privacy/GroupCriterion.h"

#include <memory>
#include <string>
#include <vector>

namespace vbas
{

/**
 * The privacy criteria a configuration turns on, besides k (SPEC section 14): made from the registry's
 * criterion entries and the options (a criterion whose options leave it off is not made). The suppression,
 * the refinement's ledger, the generalization search and the report read them from here; none of them names
 * one.
 */
class Criteria
{
public:
    Criteria() = default;
    /** The criteria `registry`'s entries make of `options`; throws Error(Option) on a bad option value. */
    static Criteria fromOptions(const Registry& registry, const StrategyOptions& options);

    bool empty() const { return mCriteria.empty(); }
    const std::vector<std::shared_ptr<const GroupCriterion>>& all() const { return mCriteria; }
    /** "distinct 2-diversity and 0.2-closeness"; empty when none is on. */
    std::string describe() const;
    /** Whether a criterion the ledger's summaries decide is on: the ledger then keeps them. */
    bool summarized() const;
    /** Whether every criterion the summaries decide passes a group of `records` with `fields`. */
    bool passesSummaries(Count records, const std::vector<FieldSummary>& fields) const;
    /** Whether every criterion is monotone under merging (GroupCriterion::monotone()). */
    bool monotone() const;
    /** Whether every criterion passes `group` in `table`. */
    bool passes(const GroupValues& group, const TableValues& table) const;

    /** Throws Error(Subject::Sensitive) when a criterion is on and `dataset` has no sensitive field. */
    void check(const Dataset& dataset) const;
    /**
     * Flags every entry of aggregation.histograms that `withheld` leaves released but whose group fails a
     * criterion (weights: the rows' weights, people when counted by person). A criterion that reads the table
     * reads the released one: after withholding, the groups are checked again until none more fails. Rows
     * flagged in `withheldRows` (when given: a count table's small published rows) are not in their group.
     * Throws as check().
     */
    std::vector<bool> failing(const RegionSet& regions, const Aggregation& aggregation,
                              const std::vector<bool>& withheld, Feedback& feedback,
                              const std::vector<bool>* withheldRows = nullptr) const;

private:
    std::vector<std::shared_ptr<const GroupCriterion>> mCriteria;
};

/**
 * The order of each value of a sensitive field when every value (NULL aside) is a number, for the distances
 * of criteria that read it (TableValues::order); empty for a field of categories.
 */
std::vector<std::uint32_t> numericOrder(const std::vector<CategoryValue>& values);

} // namespace vbas

#pragma once

#include "privacy/GroupCriterion.h"

#include <memory>

namespace vbas
{

/**
 * l-diversity of the sensitive fields (SPEC sections 10 and 14; Machanavajjhala et al. 2007): every released
 * group must show enough variety in each sensitive field, or an attacker who places a person in the group
 * learns the sensitive value anyway.
 */
struct DiversityRule
{
    /** How much variety every released group needs; 0 or 1: off. */
    Count l = 0;
    enum class Measure
    {
        Distinct,  //!< at least l distinct values
        Entropy,   //!< entropy -sum p ln p of the values at least ln(l)
        Recursive, //!< recursive (c, l): r1 < c (r_l + ... + r_m), counts in descending order
    } measure = Measure::Distinct;
    /** c of recursive (c, l)-diversity. */
    double c = 3.0;

    bool enabled() const { return l >= 2; }
};

/** The l-diversity criterion: distinct and entropy decided by the ledger's summaries, recursive by the
 * values. */
class LDiversity : public GroupCriterion
{
public:
    explicit LDiversity(DiversityRule rule);

    /** Off (not created) for l = 0; l = 1 is refused (one value is no diversity). */
    static std::unique_ptr<GroupCriterion> create(const StrategyOptions& options);
    static std::vector<OptionSpec> options();

    const DiversityRule& rule() const { return mRule; }
    std::string describe() const override;
    bool passes(const GroupValues& group, const TableValues& table) const override;
    bool monotone() const override { return mRule.measure == DiversityRule::Measure::Distinct; }
    bool decidedBySummaries() const override { return mRule.measure != DiversityRule::Measure::Recursive; }
    bool passesSummaries(Count records, const std::vector<FieldSummary>& fields) const override;

private:
    /** Whether one field's values pass: `distinct` values over `records`, `countLogCountSum` their sum c ln
     * c. */
    bool passesField(Count distinct, Count records, double countLogCountSum) const;

    DiversityRule mRule;
};

} // namespace vbas

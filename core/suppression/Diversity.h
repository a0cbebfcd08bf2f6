#pragma once

#include "Feedback.h"
#include "partition/Aggregation.h"

#include <vector>

namespace vbas
{

/**
 * l-diversity of the sensitive fields (SPEC section 10; Machanavajjhala et al. 2007): every
 * released (aggregate, class) group must show enough variety in each sensitive field, or an
 * attacker who places a person in the group learns the sensitive value anyway.
 */
struct DiversityRule
{
    /** How much variety every released group needs; 0 or 1: off. */
    Count l = 0;
    enum class Measure
    {
        Distinct, //!< at least l distinct values
        Entropy,  //!< entropy -sum p ln p of the values at least ln(l)
    } measure = Measure::Distinct;

    bool enabled() const { return l >= 2; }
};

/**
 * The sum of c ln c over the counts c of one field's values in a group (the entropy's part that depends on
 * more than the total), kept exactly: every term, the double c ln c, is a whole multiple of 2^-52 (it is 0
 * for c = 1 and at least 1 otherwise), so a sum of them scaled by 2^52 is an integer. A sum kept up to date
 * as counts change, in any order, is then bit for bit the one counted afresh.
 */
class CountLogCountSum
{
public:
    void add(Count count) { mScaled += scaled(count); }
    /** A value's count changed from `before` to `after` (0: the value is absent). */
    void change(Count before, Count after) { mScaled += scaled(after) - scaled(before); }
    /** The sum, rounded once to the nearest double. */
    double value() const;

private:
    /** Wide enough for N ln N scaled by 2^52 with N up to the largest Count. */
    __extension__ using Scaled = __int128;
    static Scaled scaled(Count count);

    Scaled mScaled = 0;
};

/**
 * Whether one field's values in a group pass `rule`: `distinct` values over `total` records, with
 * `countLogCountSum` the sum of c ln c over the values' counts c.
 */
bool passesDiversity(const DiversityRule& rule, Count distinct, Count total, double countLogCountSum);

/** Throws Error(Subject::Sensitive) when `rule` is on and `dataset` has no sensitive field. */
void checkDiversityRule(const DiversityRule& rule, const Dataset& dataset);

/**
 * Flags every entry of aggregation.histograms that `withheld` leaves released but whose records
 * fail `rule` on some sensitive field (weights: row counts); all false when the rule is off. Rows flagged
 * in `withheldRows` (when given: per input row) are withheld and count for nothing.
 * O(N log N) in the input rows. Throws as checkDiversityRule().
 */
std::vector<bool> failingDiversity(const RegionSet& regions, const Aggregation& aggregation,
                                   const std::vector<bool>& withheld, const DiversityRule& rule,
                                   Feedback& feedback, const std::vector<bool>* withheldRows = nullptr);

} // namespace vbas

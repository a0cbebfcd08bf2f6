#pragma once

#include "base/Types.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace vbas
{

/**
 * What the values of one published field (neither quasi-identifier nor region) tell about the records that
 * hold them (SPEC section 10): which records a value singles out or links in a small set.
 *
 * A value held by fewer than smallSet = max(k, 3) records singles them out (one record) or links them in a
 * small set (two records share a value: k = 2 linkage). The field identifies when the records in small sets
 * outnumber those it leaves in larger groups, not counting its most common value: a catch-all (NULL,
 * "unknown") holding half the records does not make the other values less identifying, while a coded
 * category whose rare values are a long tail beside common ones (diagnosis codes over thousands of
 * categories) keeps more records in shared values than in rare ones.
 */
struct IdentifyingValues
{
    Count records = 0;                 //!< N: every record (with its weight)
    Count smallSet = 3;                //!< a value held by fewer records than this is a small set
    Count inSmallSets = 0;             //!< S: records whose value fewer than smallSet records hold
    Count mostCommon = 0;              //!< L1: records holding the most common value
    std::size_t valuesHeldByOne = 0;   //!< values held by exactly one record
    std::size_t valuesInSmallSets = 0; //!< values held by fewer than smallSet records (by one included)

    /**
     * Records in values held by smallSet or more, the most common value left out: N - S - L1, or N - S when
     * the most common value is itself a small set (then every value is, and nothing is left in larger
     * groups).
     */
    Count inLargerGroups() const { return records - inSmallSets - (mostCommon >= smallSet ? mostCommon : 0); }
    /** Whether the field singles records out: S > inLargerGroups(). */
    bool identifies() const { return inSmallSets > inLargerGroups(); }
};

/**
 * Counts what the values of a field single out, from the records holding each value (`recordsPerValue`,
 * one entry per value, NULL a value of its own; values held by no record are ignored), for a release of
 * anonymity `k`.
 */
IdentifyingValues identifyingValues(const std::vector<Count>& recordsPerValue, Count k);

/**
 * Returns the value the most records hold (an index into `recordsPerValue`), of values tied the first in text
 * order (the lowest in `rank`, each value's rank: CategoryCoding::ranks()), so that the choice does not
 * depend on the order of the rows; recordsPerValue.size() when no value is held by any record.
 */
std::size_t mostCommonValue(const std::vector<Count>& recordsPerValue,
                            const std::vector<std::uint32_t>& rank);

/** A published field that singles records out: which one, what its values single out, its most common value.
 */
struct IdentifyingField
{
    std::size_t field = 0;           //!< its index among the fields weighed
    IdentifyingValues values;        //!< what its values single out
    std::size_t mostCommonValue = 0; //!< mostCommonValue() of the field: the value a message names beside
                                     //!< the others when values.mostCommon >= values.smallSet
};

/**
 * Returns the first of the published fields whose values single records out (IdentifyingValues::identifies()
 * for anonymity `k`), or nothing: the identifier guard, which refuses that field. `recordsPerValue` holds,
 * per field, the records holding each value; `ranks`, per field, each value's rank in text order.
 */
std::optional<IdentifyingField> firstIdentifyingField(const std::vector<std::vector<Count>>& recordsPerValue,
                                                      const std::vector<std::vector<std::uint32_t>>& ranks,
                                                      Count k);

} // namespace vbas

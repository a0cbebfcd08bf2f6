#pragma once

#include "base/Feedback.h"
#include "base/Types.h"
#include "data/Dataset.h"

#include <vector>

namespace vbas
{

/**
 * Whether a table without person ids looks like repeated persons (SPEC section 14): visits, admissions or
 * claims of one patient repeat its small area, quasi-identifiers and the values of its other fields far more
 * often than rows of different people do by chance.
 */
struct RepeatedRows
{
    Count rows = 0;
    /** Rows equal to an earlier row in small area, class and every published value. */
    Count repeats = 0;
    /** The repeats expected if each small area's rows drew their class and values independently from the
     * whole table's. */
    double expected = 0.0;

    /**
     * Repeats well beyond chance: a fifth more than expected, and the excess over 5 % of the rows (the Olinda
     * demo, a patient a row: 6,172 repeats against 6,098 expected; the same patients with 1 to 4 visits each:
     * 15,708 against 11,717).
     */
    bool likelyRepeatedPersons() const
    {
        return double(repeats) > 1.2 * expected && double(repeats) - expected > 0.05 * double(rows);
    }
};

/**
 * Counts the repeats of the rows of `dataset` (level 0) over their small area, class and the `fieldCount`
 * published codes of each row in `publishedCodes`, and the repeats chance would give.
 */
RepeatedRows repeatedRows(const Dataset& dataset, const std::vector<std::uint32_t>& publishedCodes,
                          std::size_t fieldCount, Feedback& feedback);

} // namespace vbas

#pragma once

#include "data/CategoryValue.h"

#include <string>
#include <utility>
#include <vector>

namespace vbas
{

/**
 * What a published quasi-identifier value stands for, as an outsider reads it (SPEC section 13): numbers as
 * half-open intervals of the real line (a whole number x as [x, x + 1), so that age 34 and the band "30-39"
 * = [30, 40) compare), or texts. Two releases' labels compare by the values they stand for, not by their
 * text: "25-34" overlaps "20-29" and "30-39" whatever produced them.
 */
struct ValueSet
{
    /** Sorted, disjoint [from, to) intervals; numeric when not empty. */
    std::vector<std::pair<double, double>> intervals;
    /** Sorted distinct texts (NULL as "\x1e"); used when the values are no numbers. */
    std::vector<std::string> texts;

    bool numeric() const { return !intervals.empty(); }
    /** Adds the values of `other` (of the same kind). */
    void unite(const ValueSet& other);

    bool operator==(const ValueSet& other) const
    {
        return intervals == other.intervals && texts == other.texts;
    }
};

/**
 * A published label read as the values it stands for: "34" or "34.5" a number, "30-39" (or "30–39",
 * "30 to 39") the whole numbers from 30 to 39, "90+" and ">=90" 90 and above, "<5" below 5, a date
 * (YYYY-MM-DD) its day; any other text itself.
 */
ValueSet labelValues(const std::string& label);

/** One value as read: its number or day when it has one, else its text read as a label. */
ValueSet valueSetOf(const CategoryValue& value);

/** The text of a value set, as a ledger stores it: "n:from,to;from,to" or "t:" and texts joined by \x1f. */
std::string valueSetText(const ValueSet& set);
/** The value set of valueSetText(); throws Error(Subject::Ledger) on text it did not write. */
ValueSet valueSetFromText(const std::string& text);

} // namespace vbas

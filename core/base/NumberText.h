#pragma once

#include <sstream>
#include <string>

namespace vbas
{

/** `value` with at most `significant` significant digits, as messages and labels show numbers. */
inline std::string numberText(double value, int significant)
{
    std::ostringstream text;
    text.precision(significant);
    text << value;
    return text.str();
}

/** `part` as a percentage of `whole` (0 when `whole` is 0), as percentText() writes it. */
inline double percentOf(double part, double whole)
{
    return whole > 0.0 ? 100.0 * part / whole : 0.0;
}

/** A percentage as messages and reports show it, the one rule for every share: "1", "0.25", "12.3". */
inline std::string percentText(double value)
{
    return numberText(value, 3);
}

} // namespace vbas

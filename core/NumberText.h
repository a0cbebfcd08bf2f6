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

/** A percentage as messages show it: "1", "0.25", "12.3". */
inline std::string percentText(double value)
{
    return numberText(value, 3);
}

} // namespace vbas

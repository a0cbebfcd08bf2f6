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

} // namespace vbas

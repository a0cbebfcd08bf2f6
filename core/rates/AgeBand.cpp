#include "AgeBand.h"

#include "base/Error.h"

#include <cctype>
#include <regex>

namespace vbas
{

std::string AgeBand::label() const
{
    if (to == kOpenAge)
        return std::to_string(from) + "+";
    if (to == from)
        return std::to_string(from);
    return std::to_string(from) + "-" + std::to_string(to);
}

AgeBand parseAgeBand(const std::string& text)
{
    static const std::regex range(R"(\s*(\d{1,3})\s*(?:-|to)\s*(\d{1,3})\s*(?:years?)?\s*)",
                                  std::regex::icase);
    static const std::regex open(R"(\s*(\d{1,3})\s*(?:\+|and over|or more|and older)\s*(?:years?)?\s*)",
                                 std::regex::icase);
    static const std::regex single(R"(\s*(\d{1,3})\s*(?:years?)?\s*)", std::regex::icase);
    static const std::regex underOne(R"(\s*(?:<\s*1|under 1)\s*(?:years?)?\s*)", std::regex::icase);
    std::smatch match;
    if (std::regex_match(text, match, range))
    {
        const AgeBand band{std::stoi(match[1]), std::stoi(match[2])};
        if (band.from <= band.to)
            return band;
    }
    else if (std::regex_match(text, match, open))
        return {std::stoi(match[1]), AgeBand::kOpenAge};
    else if (std::regex_match(text, match, single))
        return {std::stoi(match[1]), std::stoi(match[1])};
    else if (std::regex_match(text, underOne))
        return {0, 0};
    throw optionError("standard_population", "'" + text +
                                                 "' is not an age band; label the population's strata as "
                                                 "'0-4', '85+' or '0' (whole years, both ends included)");
}

} // namespace vbas

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

std::optional<std::size_t> bandContaining(const std::vector<AgeBand>& bands, int age)
{
    for (std::size_t b = 0; b < bands.size(); ++b)
        if (age >= bands[b].from && age <= bands[b].to)
            return b;
    return std::nullopt;
}

AgeBand parseAgeBand(const std::string& text)
{
    static const std::regex range(R"(\s*(\d{1,3})\s*(?:-|to)\s*(\d{1,3})\s*(?:years?)?\s*)",
                                  std::regex::icase);
    static const std::regex open(R"(\s*(\d{1,3})\s*(?:\+|and over|or more|and older)\s*(?:years?)?\s*)",
                                 std::regex::icase);
    static const std::regex single(R"(\s*(\d{1,3})\s*(?:years?)?\s*)", std::regex::icase);
    // "<18", "under 1": from 0 to the year before (a generalization's bottom band is written so).
    static const std::regex under(R"(\s*(?:<|under)\s*(\d{1,3})\s*(?:years?)?\s*)", std::regex::icase);
    // R's cut() writes bands half open: "[3,19)" holds 3 to 18, "[19,Inf)" 19 and over.
    static const std::regex halfOpen(R"(\s*\[\s*(\d{1,3})\s*,\s*(\d{1,3}|Inf)\s*\)\s*)", std::regex::icase);
    std::smatch match;
    if (std::regex_match(text, match, halfOpen))
    {
        const int from = std::stoi(match[1]);
        if (!std::isdigit(static_cast<unsigned char>(match.str(2)[0])))
            return {from, AgeBand::kOpenAge};
        if (const int to = std::stoi(match[2]) - 1; from <= to)
            return {from, to};
    }
    else if (std::regex_match(text, match, range))
    {
        const AgeBand band{std::stoi(match[1]), std::stoi(match[2])};
        if (band.from <= band.to)
            return band;
    }
    else if (std::regex_match(text, match, open))
        return {std::stoi(match[1]), AgeBand::kOpenAge};
    else if (std::regex_match(text, match, single))
        return {std::stoi(match[1]), std::stoi(match[1])};
    else if (std::regex_match(text, match, under) && std::stoi(match[1]) > 0)
        return {0, std::stoi(match[1]) - 1};
    throw optionError("standard_population",
                      "'" + text +
                          "' is not an age band; label the population's strata as "
                          "'0-4', '85+', '[0,5)' or '0' (whole years, both ends included)");
}

} // namespace vbas

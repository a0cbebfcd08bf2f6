#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace vbas
{

/** Ages from `from` to `to` in whole years, both included; `to` is kOpenAge for "and over" (85+). */
struct AgeBand
{
    static constexpr int kOpenAge = std::numeric_limits<int>::max();

    int from = 0;
    int to = kOpenAge;

    bool operator==(const AgeBand& other) const { return from == other.from && to == other.to; }
    /** The band as census tables write it: "0-4", "85+", "0". */
    std::string label() const;
};

/** The band of `bands` holding `age` (whole years), or none; the first when bands overlap. */
std::optional<std::size_t> bandContaining(const std::vector<AgeBand>& bands, int age);

/**
 * Reads an age band as population tables label them: "0-4", "00-04", "85+", "85 and over", "0" (one year),
 * "<1" (under one), "<18" (0-17), "[3,19)" and "[19,Inf)" (half open, as R's cut() writes them). Throws
 * Error(Option "standard_population") naming the text when it is none of these.
 */
AgeBand parseAgeBand(const std::string& text);

} // namespace vbas

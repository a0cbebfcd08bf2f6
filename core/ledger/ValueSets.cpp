#include "ValueSets.h"

#include "base/Error.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <regex>
#include <sstream>

namespace vbas
{
namespace
{
constexpr double kInfinity = std::numeric_limits<double>::infinity();

/** The interval a number stands for: a whole number x is [x, x + 1), another one itself alone. */
std::pair<double, double> numberInterval(double x)
{
    if (std::floor(x) == x)
        return {x, x + 1.0};
    return {x, std::nextafter(x, kInfinity)};
}

ValueSet numbers(double from, double to)
{
    ValueSet set;
    set.intervals.emplace_back(from, to);
    return set;
}

ValueSet text(const std::string& label)
{
    ValueSet set;
    set.texts.push_back(label);
    return set;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
long long daysFromCivil(long long y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const long long era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long long)(doe)-719468;
}

bool parseNumber(const std::string& text, double& number)
{
    if (text.empty())
        return false;
    char* end = nullptr;
    number = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isfinite(number);
}
} // namespace

void ValueSet::unite(const ValueSet& other)
{
    intervals.insert(intervals.end(), other.intervals.begin(), other.intervals.end());
    std::sort(intervals.begin(), intervals.end());
    std::vector<std::pair<double, double>> merged;
    for (const auto& interval : intervals)
    {
        if (!merged.empty() && interval.first <= merged.back().second)
            merged.back().second = std::max(merged.back().second, interval.second);
        else
            merged.push_back(interval);
    }
    intervals = std::move(merged);
    texts.insert(texts.end(), other.texts.begin(), other.texts.end());
    std::sort(texts.begin(), texts.end());
    texts.erase(std::unique(texts.begin(), texts.end()), texts.end());
}

ValueSet labelValues(const std::string& label)
{
    static const std::regex range(R"(^\s*(-?\d+)\s*(?:-|–|to)\s*(-?\d+)\s*$)");
    static const std::regex above(
        R"(^\s*(?:>=\s*|≥\s*)?(-?\d+(?:\.\d+)?)\s*\+\s*$|^\s*(?:>=|≥)\s*(-?\d+(?:\.\d+)?)\s*$)");
    static const std::regex below(R"(^\s*<\s*(-?\d+(?:\.\d+)?)\s*$)");
    static const std::regex date(R"(^(\d{4})-(\d{2})-(\d{2})$)");
    double number = 0.0;
    if (parseNumber(label, number))
        return numbers(numberInterval(number).first, numberInterval(number).second);
    std::smatch match;
    if (std::regex_match(label, match, range))
    {
        const double from = std::stod(match[1]), to = std::stod(match[2]);
        if (from <= to)
            return numbers(from, to + 1.0);
    }
    if (std::regex_match(label, match, above))
        return numbers(std::stod(match[1].matched ? match[1].str() : match[2].str()), kInfinity);
    if (std::regex_match(label, match, below))
        return numbers(-kInfinity, std::stod(match[1]));
    if (std::regex_match(label, match, date))
    {
        const double day = double(daysFromCivil(std::stoll(match[1]), unsigned(std::stoul(match[2])),
                                                unsigned(std::stoul(match[3]))));
        return numbers(day, day + 1.0);
    }
    return text(label);
}

ValueSet valueSetOf(const CategoryValue& value)
{
    if (value.null)
        return text("\x1e");
    if (value.day)
        return numbers(double(*value.day), double(*value.day) + 1.0);
    if (value.number && std::isfinite(*value.number))
        return numbers(numberInterval(*value.number).first, numberInterval(*value.number).second);
    return labelValues(value.text);
}

std::string valueSetText(const ValueSet& set)
{
    std::ostringstream out;
    out.precision(17);
    if (set.numeric())
    {
        out << "n:";
        for (std::size_t i = 0; i < set.intervals.size(); ++i)
            out << (i ? ";" : "") << set.intervals[i].first << ',' << set.intervals[i].second;
        return out.str();
    }
    out << "t:";
    for (std::size_t i = 0; i < set.texts.size(); ++i)
        out << (i ? "\x1f" : "") << set.texts[i];
    return out.str();
}

ValueSet valueSetFromText(const std::string& text)
{
    ValueSet set;
    if (text.rfind("t:", 0) == 0)
    {
        std::string part;
        std::istringstream in(text.substr(2));
        while (std::getline(in, part, '\x1f'))
            set.texts.push_back(part);
        return set;
    }
    if (text.rfind("n:", 0) != 0)
        throw Error(Subject::Ledger, "a value set of the ledger is damaged: '" + text + "'");
    std::istringstream in(text.substr(2));
    std::string interval;
    while (std::getline(in, interval, ';'))
    {
        const std::size_t comma = interval.find(',');
        double from = 0.0, to = 0.0;
        const auto parse = [](const std::string& part, double& into)
        {
            if (part == "inf" || part == "-inf")
            {
                into = part[0] == '-' ? -kInfinity : kInfinity;
                return true;
            }
            return parseNumber(part, into);
        };
        if (comma == std::string::npos || !parse(interval.substr(0, comma), from) ||
            !parse(interval.substr(comma + 1), to))
            throw Error(Subject::Ledger, "a value set of the ledger is damaged: '" + text + "'");
        set.intervals.emplace_back(from, to);
    }
    return set;
}

} // namespace vbas

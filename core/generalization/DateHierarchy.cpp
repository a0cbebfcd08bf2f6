#include "HierarchyKinds.h"
#include "base/Error.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>

namespace vbas
{
namespace
{
enum Unit
{
    Week,
    Month,
    Quarter,
    Year
};
const char* const kUnitNames[] = {"week", "month", "quarter", "year"};

struct Civil
{
    std::int64_t year;
    int month; // 1..12
    int day;   // 1..31
};

// Days since 1970-01-01 and back (H. Hinnant's algorithms for the proleptic Gregorian calendar).
std::int64_t daysFromCivil(std::int64_t y, int m, int d)
{
    y -= m <= 2 ? 1 : 0;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const std::int64_t yoe = y - era * 400;
    const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

Civil civilFromDays(std::int64_t z)
{
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const std::int64_t doe = z - era * 146097;
    const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const std::int64_t mp = (5 * doy + 2) / 153;
    const int d = int(doy - (153 * mp + 2) / 5 + 1);
    const int m = int(mp < 10 ? mp + 3 : mp - 9);
    return {yoe + era * 400 + (m <= 2 ? 1 : 0), m, d};
}

/** Monday 0 .. Sunday 6 (1970-01-01 was a Thursday). */
int weekday(std::int64_t day)
{
    return int(((day + 3) % 7 + 7) % 7);
}

std::optional<std::int64_t> parsedDate(const std::string& text)
{
    int y = 0, m = 0, d = 0;
    char rest = 0;
    const int read = std::sscanf(text.c_str(), "%4d-%2d-%2d%c", &y, &m, &d, &rest);
    if (read < 3 || text.size() < 10 || (read == 4 && rest != 'T' && rest != ' ') || m < 1 || m > 12 ||
        d < 1 || d > 31)
        return std::nullopt;
    const std::int64_t day = daysFromCivil(y, m, d);
    const Civil back = civilFromDays(day);
    if (back.month != m || back.day != d)
        return std::nullopt; // 2004-02-30
    return day;
}

/** A calendar period: its key, first day and the day after it. */
struct Period
{
    std::int64_t key;
    std::int64_t from;
    std::int64_t to;
};

Period calendarPeriod(Unit unit, std::int64_t day)
{
    const Civil c = civilFromDays(day);
    switch (unit)
    {
    case Month:
        return {c.year * 12 + c.month - 1, daysFromCivil(c.year, c.month, 1),
                c.month == 12 ? daysFromCivil(c.year + 1, 1, 1) : daysFromCivil(c.year, c.month + 1, 1)};
    case Quarter:
    {
        const int first = (c.month - 1) / 3 * 3 + 1;
        return {c.year * 4 + (first - 1) / 3, daysFromCivil(c.year, first, 1),
                first == 10 ? daysFromCivil(c.year + 1, 1, 1) : daysFromCivil(c.year, first + 3, 1)};
    }
    case Year:
        return {c.year, daysFromCivil(c.year, 1, 1), daysFromCivil(c.year + 1, 1, 1)};
    case Week:
        break;
    }
    const std::int64_t monday = day - weekday(day);
    return {monday, monday, monday + 7};
}

std::string periodLabel(Unit unit, std::int64_t day, bool weekBased)
{
    char text[48];
    const Civil c = civilFromDays(day);
    const char* suffix = weekBased ? " (ISO weeks)" : "";
    switch (unit)
    {
    case Week:
    {
        // The ISO week and its year are those of its Thursday.
        const std::int64_t thursday = day - weekday(day) + 3;
        const Civil t = civilFromDays(thursday);
        const std::int64_t week = (thursday - daysFromCivil(t.year, 1, 1)) / 7 + 1;
        std::snprintf(text, sizeof text, "%04lld-W%02lld", static_cast<long long>(t.year),
                      static_cast<long long>(week));
        break;
    }
    case Month:
        std::snprintf(text, sizeof text, "%04lld-%02d%s", static_cast<long long>(c.year), c.month, suffix);
        break;
    case Quarter:
        std::snprintf(text, sizeof text, "%04lld-Q%d%s", static_cast<long long>(c.year),
                      (c.month - 1) / 3 + 1, suffix);
        break;
    case Year:
        std::snprintf(text, sizeof text, "%04lld%s", static_cast<long long>(c.year), suffix);
        break;
    }
    return text;
}
} // namespace

Hierarchy dateHierarchy(const std::string& field, const std::vector<CategoryValue>& values,
                        const std::vector<std::string>& arguments, const std::string*)
{
    const auto fail = [&](const std::string& what)
    {
        return Error(Subject::Generalization, field + ": " + what);
    };
    std::vector<Unit> units;
    for (const std::string& word : arguments)
    {
        const auto unit = std::find(std::begin(kUnitNames), std::end(kUnitNames), word);
        if (unit == std::end(kUnitNames))
            throw fail(quotedValue(word) + " is no date level; use week, month, quarter or year");
        const Unit next = Unit(unit - std::begin(kUnitNames));
        if (!units.empty() && next <= units.back())
            throw fail("the levels do not nest: " + word + " after " + kUnitNames[units.back()] +
                       "; list them from fine to coarse (week month quarter year)");
        units.push_back(next);
    }
    if (units.empty())
        throw fail("a date hierarchy needs levels, as in 'date week month year'");

    std::vector<std::int64_t> days(values.size(), 0);
    std::int64_t min = std::numeric_limits<std::int64_t>::max();
    std::int64_t max = std::numeric_limits<std::int64_t>::min();
    std::vector<bool> dated(values.size(), false);
    for (std::size_t c = 0; c < values.size(); ++c)
    {
        if (values[c].null || isEmptyText(values[c]))
            continue;
        const std::optional<std::int64_t> day = values[c].day ? values[c].day : parsedDate(values[c].text);
        if (!day)
            throw fail(quotedValue(values[c].text) +
                       " is not a date; a date hierarchy needs dates (a date field, or text as 2004-05-19)");
        days[c] = *day;
        dated[c] = true;
        min = std::min(min, *day);
        max = std::max(max, *day);
    }
    // Days are whole: day d spans [d, d + 1).
    const double range = double(max + 1 - min);

    const bool weeks = units.front() == Week;
    std::vector<Hierarchy::Level> levels;
    for (const Unit unit : units)
    {
        // After weeks, coarser periods gather whole ISO weeks by their Thursday, so that levels nest.
        const bool weekBased = weeks && unit != Week;
        std::map<std::int64_t, std::uint32_t> groupOfKey;
        std::vector<std::int64_t> key(values.size(), 0);
        Hierarchy::Level level;
        level.name = kUnitNames[unit];
        std::map<std::int64_t, Period> periods;
        std::map<std::int64_t, std::int64_t> sample;
        for (std::size_t c = 0; c < values.size(); ++c)
        {
            if (!dated[c])
                continue;
            const std::int64_t anchor = weekBased ? days[c] - weekday(days[c]) + 3 : days[c];
            Period period = calendarPeriod(unit, anchor);
            if (weekBased)
            {
                // Mondays of the first and after the last week whose Thursday lies in the period.
                const std::int64_t firstThursday = period.from + ((3 - weekday(period.from)) % 7 + 7) % 7;
                const std::int64_t lastThursday = period.to - 1 - ((weekday(period.to - 1) - 3) % 7 + 7) % 7;
                period.from = firstThursday - 3;
                period.to = lastThursday + 4;
            }
            key[c] = period.key;
            periods.emplace(period.key, period);
            sample.emplace(period.key, anchor);
        }
        for (auto& [k, period] : periods)
        {
            groupOfKey[k] = std::uint32_t(level.labels.size());
            level.labels.push_back(periodLabel(unit, sample.at(k), weekBased));
            const double span = double(std::min(period.to, max + 1) - std::max(period.from, min));
            level.loss.push_back(max > min ? std::clamp(span / range, 0.0, 1.0) : 0.0);
        }
        level.groupOf.resize(values.size());
        for (std::size_t c = 0; c < values.size(); ++c)
            if (dated[c])
                level.groupOf[c] = groupOfKey.at(key[c]);
        addNullGroup(level, values);
        addEmptyTextGroup(level, values);
        levels.push_back(std::move(level));
    }
    return Hierarchy(field, values, std::move(levels));
}

} // namespace vbas

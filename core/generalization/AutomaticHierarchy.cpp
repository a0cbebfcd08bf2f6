#include "HierarchyKinds.h"
#include "base/Error.h"
#include "base/NumberText.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace vbas
{
namespace
{
/**
 * Bands at the finest level: at most this many over the range of the values. Twenty is the number of
 * five-year age bands over a life span ("0-4" .. "95-99"), the standard tables of epidemiology.
 */
constexpr double kFinestBands = 20.0;

/** A round width: 1, 2 or 5 times a power of ten. */
struct RoundWidth
{
    int mantissa = 1;
    int exponent = 0;

    double value() const { return double(mantissa) * std::pow(10.0, exponent); }
    RoundWidth next() const
    {
        return mantissa == 1   ? RoundWidth{2, exponent}
               : mantissa == 2 ? RoundWidth{5, exponent}
                               : RoundWidth{1, exponent + 1};
    }
};

/** The band of width `width` (bands start at 0) that holds `value`, with the interval kind's tolerance of
 * rounding errors. */
long long bandOf(double value, double width)
{
    return static_cast<long long>(std::floor(value / width + 1e-9));
}

/**
 * The widths of the levels: the smallest 1 or 5 times a power of ten that cuts the range into at most
 * kFinestBands bands (at least 1 for whole numbers; not 2, from which the next nesting width is 10, a jump
 * of five), then each larger round width that is a multiple of the one before, while narrower than the
 * range. Ages over 18..90 or 66..102: 5, 10, 20 (50 is no multiple of 20, 100 spans the range).
 */
std::vector<double> levelWidths(double range, bool integral)
{
    RoundWidth width{1, int(std::floor(std::log10(range / kFinestBands))) - 1};
    while (width.mantissa == 2 || width.value() * kFinestBands < range * (1.0 - 1e-12) ||
           (integral && width.value() < 1.0))
        width = width.next();
    std::vector<double> widths{width.value()};
    for (RoundWidth wider = width.next(); wider.value() < range; wider = wider.next())
    {
        const double ratio = wider.value() / widths.back();
        if (std::abs(ratio - std::round(ratio)) < 1e-9 * ratio)
            widths.push_back(wider.value());
    }
    return widths;
}
} // namespace

HierarchySpec automaticIntervals(const HierarchySpec& spec, const std::vector<CategoryValue>& values,
                                 const std::vector<Count>& records, Count k)
{
    const auto fail = [&](const std::string& what)
    {
        return Error(Subject::Generalization, spec.field + ": " + what);
    };
    if (!spec.arguments.empty())
        throw fail("'auto' takes no arguments: it chooses the bands from the values (give widths of your own "
                   "as 'interval 5 10 20')");
    if (records.size() != values.size())
        throw fail("the automatic bands need the records of every value");
    // The numbers and their records, in ascending order; a value no released record can hold (its records'
    // small areas are unknown) widens nothing.
    std::vector<std::pair<double, Count>> numbers;
    bool integral = true;
    for (std::size_t c = 0; c < values.size(); ++c)
    {
        if (values[c].null || isEmptyText(values[c]) || records[c] == 0)
            continue;
        const std::optional<double> number = numberOf(values[c]);
        if (!number)
            throw fail(quotedValue(values[c].text) +
                       " is not a number; the automatic bands are for numbers (use a table or prefix "
                       "hierarchy for text, or 'none' to keep the values as they are)");
        numbers.emplace_back(*number, records[c]);
        integral = integral && std::floor(*number) == *number;
    }
    std::sort(numbers.begin(), numbers.end());
    HierarchySpec resolved{spec.field, HierarchySpec::kNone, {}, spec.maxLevel};
    if (numbers.empty() || numbers.back().first <= numbers.front().first)
        return resolved;

    // Per level: its width, and the bounds of its end bands as band numbers: values below band `bottom`
    // read "<bottom", from band `top` on "top+". Each end holds at least k records: the fewest that could
    // ever be released, as fewer are below k in every region. The finer the bands, the finer the ends, so
    // a coarser level's bottom is no lower and its top no higher: the levels nest.
    std::vector<std::string> widths, bottoms, tops;
    std::size_t groupsBelow = numbers.size();
    for (std::size_t n = 1; n < numbers.size(); ++n)
        groupsBelow -= numbers[n].first == numbers[n - 1].first ? 1 : 0;
    for (const double width : levelWidths(numbers.back().first - numbers.front().first, integral))
    {
        const long long first = bandOf(numbers.front().first, width);
        const long long last = bandOf(numbers.back().first, width);
        std::vector<Count> inBand(std::size_t(last - first + 1), 0);
        for (const auto& [number, held] : numbers)
            inBand[std::size_t(bandOf(number, width) - first)] += held;
        // The lowest bound with k records below it; the highest with k from it on.
        long long bottom = first + 1;
        Count below = inBand.front();
        for (; bottom <= last && below < k; ++bottom)
            below += inBand[std::size_t(bottom - first)];
        long long top = last;
        Count above = inBand.back();
        for (; top > first && above < k; --top)
            above += inBand[std::size_t(top - 1 - first)];
        // Fewer than k records in all, or ends that meet: this width and every coarser one give at most the
        // two end groups, which the level below already gives or which remove the values.
        if (below < k || above < k || bottom > top)
            break;
        std::set<long long> bands;
        for (long long band = bottom; band < top; ++band)
            if (inBand[std::size_t(band - first)] > 0)
                bands.insert(band);
        const std::size_t groups = bands.size() + 2;
        if (groups >= groupsBelow) // merges nothing more than the level below
            continue;
        groupsBelow = groups;
        widths.push_back(numberText(width, 15));
        bottoms.push_back(numberText(double(bottom) * width, 15));
        tops.push_back(numberText(double(top) * width, 15));
    }
    if (widths.empty())
        return resolved;
    resolved.kind = "interval";
    resolved.arguments = widths;
    for (const auto& [word, bounds] : {std::pair{"bottom", &bottoms}, std::pair{"top", &tops}})
    {
        // One bound for every level when they agree (C++17 lambdas cannot capture a structured binding).
        const std::vector<std::string>& levels = *bounds;
        resolved.arguments.emplace_back(word);
        if (std::all_of(levels.begin(), levels.end(),
                        [&](const std::string& b) { return b == levels.front(); }))
            resolved.arguments.push_back(levels.front());
        else
            resolved.arguments.insert(resolved.arguments.end(), levels.begin(), levels.end());
    }
    return resolved;
}

} // namespace vbas

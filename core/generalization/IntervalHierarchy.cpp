#include "HierarchyKinds.h"
#include "base/Error.h"
#include "base/NumberText.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace vbas
{
namespace
{
std::optional<double> parsed(const std::string& text)
{
    CategoryValue value;
    value.text = text;
    return numberOf(value);
}

std::string numberText(double value)
{
    return vbas::numberText(value, 15);
}

/** A bound of the bands ("bottom" or "top"): one for every level, or one per level. */
struct Bounds
{
    std::vector<double> values;
    std::optional<double> at(std::size_t level) const
    {
        if (values.empty())
            return std::nullopt;
        return values.size() == 1 ? values.front() : values.at(level);
    }
};
} // namespace

Hierarchy intervalHierarchy(const std::string& field, const std::vector<CategoryValue>& values,
                            const std::vector<std::string>& arguments, const std::string*)
{
    const auto fail = [&](const std::string& what)
    {
        return Error(Subject::Generalization, field + ": " + what);
    };
    std::vector<std::pair<double, std::string>> widths;
    Bounds bottoms, tops;
    for (std::size_t i = 0; i < arguments.size(); ++i)
    {
        const std::string& word = arguments[i];
        if (word == "bottom" || word == "top")
        {
            Bounds& bounds = word == "bottom" ? bottoms : tops;
            // Its numbers run to the next keyword: one for every width, or one per width.
            for (; i + 1 < arguments.size() && parsed(arguments[i + 1]); ++i)
                bounds.values.push_back(*parsed(arguments[i + 1]));
            if (bounds.values.empty())
                throw fail("'" + word + "' takes a number, as in 'interval 5 10 " + word + " 90'");
            if (bounds.values.size() != 1 && bounds.values.size() != widths.size())
                throw fail("'" + word + "' takes one number, or one per width (" +
                           std::to_string(widths.size()) +
                           " here), finest first; give the widths before 'bottom' and 'top'");
            continue;
        }
        const std::optional<double> width = parsed(word);
        if (!width || *width <= 0.0)
            throw fail(quotedValue(word) + " is no width; give positive widths, as in 'interval 5 10 20'");
        if (!bottoms.values.empty() || !tops.values.empty())
            throw fail("give the widths before 'bottom' and 'top', as in 'interval 5 10 bottom 18 top 90'");
        if (!widths.empty())
        {
            const double ratio = *width / widths.back().first;
            if (ratio < 1.5 || std::abs(ratio - std::round(ratio)) > 1e-9 * ratio)
                throw fail("the levels do not nest: " + word + " is not a multiple of " +
                           widths.back().second +
                           "; give widths that each are a multiple of the one before (5 10 20)");
        }
        widths.emplace_back(*width, word);
    }
    if (widths.empty())
        throw fail("an interval hierarchy needs widths, as in 'interval 5 10 20'");
    for (std::size_t l = 0; l < widths.size(); ++l)
    {
        const std::optional<double> bottom = bottoms.at(l), top = tops.at(l);
        if (bottom && top && *bottom > *top)
            throw fail("bottom must not lie above top");
        // A coarser level's end bands hold a finer one's, so that the levels nest.
        if (l > 0 && bottom && *bottom < *bottoms.at(l - 1))
            throw fail("the levels do not nest: the bottom of width " + widths[l].second + " (" +
                       numberText(*bottom) + ") lies below that of width " + widths[l - 1].second +
                       "; give bottoms that do not decrease");
        if (l > 0 && top && *top > *tops.at(l - 1))
            throw fail("the levels do not nest: the top of width " + widths[l].second + " (" +
                       numberText(*top) + ") lies above that of width " + widths[l - 1].second +
                       "; give tops that do not increase");
    }

    std::vector<double> numbers(values.size(), 0.0);
    std::vector<bool> banded(values.size(), false);
    double min = std::numeric_limits<double>::infinity();
    double max = -min;
    bool integral = true;
    for (std::size_t c = 0; c < values.size(); ++c)
    {
        if (values[c].null || isEmptyText(values[c]))
            continue;
        const std::optional<double> number = numberOf(values[c]);
        if (!number)
            throw fail(
                quotedValue(values[c].text) +
                " is not a number; an interval hierarchy needs numbers (use a table or prefix hierarchy "
                "for text)");
        numbers[c] = *number;
        banded[c] = true;
        min = std::min(min, *number);
        max = std::max(max, *number);
        integral = integral && std::floor(*number) == *number;
    }
    const double range = max - min;

    std::vector<Hierarchy::Level> levels;
    for (std::size_t l = 0; l < widths.size(); ++l)
    {
        const double width = widths[l].first; // a plain variable: C++17 lambdas cannot capture a binding
        const std::string& name = widths[l].second;
        const std::optional<double> bottom = bottoms.at(l), top = tops.at(l);
        // Bands start at the bottom. A value a rounding error below a bound (0.6 / 0.2 = 2.999...) lies on
        // it.
        const double anchor = bottom.value_or(0.0);
        const auto band = [&](double value)
        {
            return std::floor((value - anchor) / width + 1e-9);
        };
        // Key: the lower bound of the band (bottom coding -infinity, top coding the top itself).
        std::map<double, std::uint32_t> groupOfLow;
        std::vector<double> low(values.size(), 0.0);
        for (std::size_t c = 0; c < values.size(); ++c)
        {
            if (!banded[c])
                continue;
            const double v = numbers[c];
            if (bottom && v < *bottom)
                low[c] = -std::numeric_limits<double>::infinity();
            else if (top && v >= *top)
                low[c] = *top;
            else
                low[c] = anchor + band(v) * width;
            groupOfLow.emplace(low[c], 0);
        }
        Hierarchy::Level level;
        level.name = name;
        for (auto& [lo, group] : groupOfLow)
        {
            group = std::uint32_t(level.labels.size());
            double from = lo;
            double to = 0.0;
            std::string label;
            if (std::isinf(lo))
            {
                from = min;
                to = *bottom;
                label = "<" + numberText(*bottom);
            }
            else if (top && lo == *top)
            {
                to = max;
                label = numberText(*top) + "+";
            }
            else
            {
                to = anchor + (band(lo) + 1.0) * width;
                if (top)
                    to = std::min(to, *top);
                label = integral ? numberText(lo) + "-" + numberText(to - 1.0)
                                 : "[" + numberText(lo) + ", " + numberText(to) + ")";
                if (integral && to - 1.0 == lo)
                    label = numberText(lo);
            }
            const double span = std::min(to, max) - std::max(from, min);
            level.labels.push_back(label);
            level.loss.push_back(range > 0.0 ? std::clamp(span / range, 0.0, 1.0) : 0.0);
        }
        level.groupOf.resize(values.size());
        for (std::size_t c = 0; c < values.size(); ++c)
            if (banded[c])
                level.groupOf[c] = groupOfLow.at(low[c]);
        addNullGroup(level, values);
        addEmptyTextGroup(level, values);
        levels.push_back(std::move(level));
    }
    return Hierarchy(field, values, std::move(levels));
}

} // namespace vbas

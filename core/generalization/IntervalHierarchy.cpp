#include "Error.h"
#include "HierarchyKinds.h"
#include "NumberText.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

namespace vbas
{
namespace
{
std::optional<double> parsed(const std::string& text)
{
    if (text.empty())
        return std::nullopt;
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end == nullptr || *end != '\0' || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::string numberText(double value)
{
    return vbas::numberText(value, 15);
}
} // namespace

Hierarchy intervalHierarchy(const std::string& field, const std::vector<CategoryValue>& values,
                            const std::vector<std::string>& arguments, const std::string*)
{
    const auto fail = [&](const std::string& what)
    {
        return Error(Subject::Generalization, field + ": " + what);
    };
    std::vector<std::pair<double, std::string>> widths;
    std::optional<double> bottom, top;
    for (std::size_t i = 0; i < arguments.size(); ++i)
    {
        const std::string& word = arguments[i];
        if (word == "bottom" || word == "top")
        {
            const std::optional<double> bound =
                i + 1 < arguments.size() ? parsed(arguments[i + 1]) : std::nullopt;
            if (!bound)
                throw fail("'" + word + "' takes a number, as in 'interval 5 10 " + word + " 90'");
            (word == "bottom" ? bottom : top) = bound;
            ++i;
            continue;
        }
        const std::optional<double> width = parsed(word);
        if (!width || *width <= 0.0)
            throw fail(quotedValue(word) + " is no width; give positive widths, as in 'interval 5 10 20'");
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
    if (bottom && top && *bottom >= *top)
        throw fail("bottom must be below top");

    std::vector<double> numbers(values.size(), 0.0);
    double min = std::numeric_limits<double>::infinity();
    double max = -min;
    bool integral = true;
    for (std::size_t c = 0; c < values.size(); ++c)
    {
        if (values[c].null)
            continue;
        const std::optional<double> number = values[c].number ? values[c].number : parsed(values[c].text);
        if (!number)
            throw fail(
                quotedValue(values[c].text) +
                " is not a number; an interval hierarchy needs numbers (use a table or prefix hierarchy "
                "for text)");
        numbers[c] = *number;
        min = std::min(min, *number);
        max = std::max(max, *number);
        integral = integral && std::floor(*number) == *number;
    }
    const double anchor = bottom.value_or(0.0);
    const double range = max - min;

    std::vector<Hierarchy::Level> levels;
    for (const auto& [width, name] : widths)
    {
        // Key: the lower bound of the band (bottom coding -infinity, top coding the top itself).
        std::map<double, std::uint32_t> groupOfLow;
        std::vector<double> low(values.size(), 0.0);
        for (std::size_t c = 0; c < values.size(); ++c)
        {
            if (values[c].null)
                continue;
            const double v = numbers[c];
            if (bottom && v < *bottom)
                low[c] = -std::numeric_limits<double>::infinity();
            else if (top && v >= *top)
                low[c] = *top;
            else
                low[c] = std::max(anchor + std::floor((v - anchor) / width) * width, bottom.value_or(-1e308));
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
                to = anchor + (std::floor((lo - anchor) / width) + 1.0) * width;
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
            if (!values[c].null)
                level.groupOf[c] = groupOfLow.at(low[c]);
        addNullGroup(level, values);
        levels.push_back(std::move(level));
    }
    return Hierarchy(field, values, std::move(levels));
}

} // namespace vbas

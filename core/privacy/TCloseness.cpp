#include "TCloseness.h"

#include "base/NumberText.h"

#include <algorithm>
#include <cmath>

namespace vbas
{
namespace
{
const OptionSpec& tOption()
{
    static const OptionSpec spec = OptionSpec::number("t", "t-closeness (0: off)", 0.0, 0.0, 1.0,
                                                      "every released group's distribution of each sensitive "
                                                      "field lies within this Earth Mover's Distance of "
                                                      "the whole release's (0 to 1; 0.2 is common; 0: off): "
                                                      "ordered distance for numbers, equal distance for "
                                                      "categories")
                                       .asAdvanced();
    return spec;
}
} // namespace

TCloseness::TCloseness(double t)
    : mT(t)
{
}

std::unique_ptr<GroupCriterion> TCloseness::create(const StrategyOptions& options)
{
    const double t = options.number(tOption());
    return t > 0.0 ? std::make_unique<TCloseness>(t) : nullptr;
}

std::vector<OptionSpec> TCloseness::options()
{
    return {tOption()};
}

double TCloseness::distance(const GroupValues& group, const TableValues& table, std::size_t field)
{
    const std::vector<Count>& whole = table.counts[field];
    std::vector<double> difference(whole.size(), 0.0);
    for (std::size_t v = 0; v < whole.size(); ++v)
        difference[v] = -double(whole[v]) / double(table.records);
    for (const auto& [value, count] : group.fields[field])
        difference[value] += double(count) / double(group.records);
    const std::vector<std::uint32_t>& order = table.order[field];
    if (order.empty())
    {
        double sum = 0.0;
        for (const double d : difference)
            sum += std::abs(d);
        return sum / 2.0;
    }
    // The values the table holds, in numeric order; m of them are 1 / (m - 1) apart.
    std::vector<std::pair<std::uint32_t, double>> ordered;
    for (std::size_t v = 0; v < whole.size(); ++v)
        if (whole[v] > 0)
            ordered.emplace_back(order[v], difference[v]);
    if (ordered.size() < 2)
        return 0.0;
    std::sort(ordered.begin(), ordered.end());
    double cumulated = 0.0, sum = 0.0;
    for (const auto& [place, d] : ordered)
    {
        cumulated += d;
        sum += std::abs(cumulated);
    }
    return sum / double(ordered.size() - 1);
}

std::string TCloseness::describe() const
{
    return numberText(mT, 3) + "-closeness";
}

bool TCloseness::passes(const GroupValues& group, const TableValues& table) const
{
    for (std::size_t field = 0; field < group.fields.size(); ++field)
        if (distance(group, table, field) > mT + 1e-12)
            return false;
    return true;
}

} // namespace vbas

#include "LDiversity.h"

#include "base/Error.h"
#include "base/NumberText.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace vbas
{
namespace
{
const OptionSpec& lOption()
{
    static const OptionSpec spec = OptionSpec::integer(
        "l", "Least different sensitive values per group, l (0: off)", 0.0, 0.0, 1e9,
        "when 2 or more, every released group must hold l well-represented values of every sensitive field, "
        "or "
        "it is withheld: otherwise a group of k people who share one diagnosis tells the diagnosis of each");
    return spec;
}

const OptionSpec& measureOption()
{
    static const OptionSpec spec = OptionSpec::choice(
        "l_measure", "Diversity measure", {"distinct", "entropy", "recursive"}, "distinct",
        "distinct: at least l different values in every group; entropy: the values spread as evenly as l "
        "equally "
        "common ones at least, which also refuses groups where one value dominates; recursive: the most "
        "common "
        "value holds fewer than c times the records of the l-th most common and all rarer ones");
    return spec;
}

const OptionSpec& cOption()
{
    static const OptionSpec spec =
        OptionSpec::number(
            "c", "c of recursive (c, l)-diversity", 3.0, 1e-9, 1e9,
            "with l_measure recursive: how many times the records of the l-th most common value "
            "and all rarer ones the most common value must stay below")
            .asAdvanced();
    return spec;
}
} // namespace

LDiversity::LDiversity(DiversityRule rule)
    : mRule(rule)
{
}

std::unique_ptr<GroupCriterion> LDiversity::create(const StrategyOptions& options)
{
    DiversityRule rule;
    rule.l = options.count(lOption());
    if (rule.l == 1)
        throw Error(Subject::Option,
                    "l is 1, but one value is no diversity; set l to 2 or more, or 0 to leave "
                    "l-diversity off");
    if (!rule.enabled())
        return nullptr;
    rule.measure = DiversityRule::Measure(options.choiceIndex(measureOption()));
    rule.c = options.number(cOption());
    return std::make_unique<LDiversity>(rule);
}

std::vector<OptionSpec> LDiversity::options()
{
    return {lOption(), measureOption(), cOption()};
}

std::string LDiversity::describe() const
{
    const std::string l = std::to_string(mRule.l);
    switch (mRule.measure)
    {
    case DiversityRule::Measure::Distinct:
        return "distinct " + l + "-diversity";
    case DiversityRule::Measure::Entropy:
        return "entropy " + l + "-diversity";
    case DiversityRule::Measure::Recursive:
        break;
    }
    return "recursive (" + numberText(mRule.c, 3) + ", " + l + ")-diversity";
}

bool LDiversity::passesField(Count distinct, Count records, double countLogCountSum) const
{
    if (mRule.measure == DiversityRule::Measure::Distinct)
        return distinct >= mRule.l;
    // -sum p ln p with p = c / records, rearranged to sum over counts once.
    const double entropy = std::log(double(records)) - countLogCountSum / double(records);
    // The tolerance lets exactly l equally frequent values pass despite rounding.
    const double required = std::log(double(mRule.l));
    return entropy >= required - 1e-12 * required;
}

bool LDiversity::passesSummaries(Count records, const std::vector<FieldSummary>& fields) const
{
    const bool entropy = mRule.measure == DiversityRule::Measure::Entropy;
    for (const FieldSummary& field : fields)
        if (!passesField(field.distinct, records, entropy ? field.countLogCountSum->value() : 0.0))
            return false;
    return true;
}

bool LDiversity::passes(const GroupValues& group, const TableValues&) const
{
    for (const std::vector<std::pair<std::uint32_t, Count>>& field : group.fields)
    {
        if (mRule.measure != DiversityRule::Measure::Recursive)
        {
            CountLogCountSum sum;
            for (const auto& [value, count] : field)
                sum.add(count);
            if (!passesField(field.size(), group.records, sum.value()))
                return false;
            continue;
        }
        std::vector<Count> counts;
        for (const auto& [value, count] : field)
            counts.push_back(count);
        std::sort(counts.begin(), counts.end(), std::greater<>());
        if (counts.size() < mRule.l)
            return false;
        Count rarer = 0;
        for (std::size_t i = mRule.l - 1; i < counts.size(); ++i)
            rarer += counts[i];
        if (!(double(counts.front()) < mRule.c * double(rarer)))
            return false;
    }
    return true;
}

} // namespace vbas

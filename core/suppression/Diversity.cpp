#include "Diversity.h"

#include "Error.h"
#include "PublishedRows.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace vbas
{
namespace
{

/** Records of one sensitive value in one aggregate entry. */
struct Tally
{
    std::size_t entry;
    std::uint32_t value;
    Count count;
};

} // namespace

CountLogCountSum::Scaled CountLogCountSum::scaled(Count count)
{
    return count > 1 ? Scaled(double(count) * std::log(double(count)) * 0x1p52) : 0;
}

double CountLogCountSum::value() const
{
    return double(mScaled) * 0x1p-52;
}

bool passesDiversity(const DiversityRule& rule, Count distinct, Count total, double countLogCountSum)
{
    if (rule.measure == DiversityRule::Measure::Distinct)
        return distinct >= rule.l;
    // -sum p ln p with p = c / total, rearranged to sum over counts once.
    const double entropy = std::log(double(total)) - countLogCountSum / double(total);
    // The tolerance lets exactly l equally frequent values pass despite rounding.
    const double required = std::log(double(rule.l));
    return entropy >= required - 1e-12 * required;
}

void checkDiversityRule(const DiversityRule& rule, const Dataset& dataset)
{
    if (rule.enabled() && dataset.sensitiveCount() == 0)
        throw Error(Subject::Sensitive,
                    "l-diversity (l = " + std::to_string(rule.l) +
                        ") needs at least one sensitive field; give the sensitive fields or leave l off");
}

std::vector<bool> failingDiversity(const RegionSet& regions, const Aggregation& aggregation,
                                   const std::vector<bool>& withheld, const DiversityRule& rule,
                                   Feedback& feedback, const std::vector<bool>* withheldRows)
{
    std::vector<bool> failing(aggregation.histograms.allEntries().size(), false);
    if (!rule.enabled())
        return failing;
    const Dataset& dataset = regions.dataset();
    checkDiversityRule(rule, dataset);
    const std::vector<std::size_t> rowEntry =
        aggregation.releasedEntryOfRows(dataset, withheld, withheldRows);
    std::vector<Tally> tallies;
    for (std::size_t field = 0; field < dataset.sensitiveCount(); ++field)
    {
        feedback.checkCanceled();
        tallies.clear();
        for (std::size_t row = 0; row < dataset.rows(); ++row)
            if (rowEntry[row] != HistogramTable::kNoEntry && !failing[rowEntry[row]])
                tallies.push_back({rowEntry[row], dataset.rowSensitive(row, field), dataset.rowWeight(row)});
        std::sort(tallies.begin(), tallies.end(),
                  [](const Tally& a, const Tally& b)
                  { return std::tie(a.entry, a.value) < std::tie(b.entry, b.value); });
        for (std::size_t first = 0; first < tallies.size();)
        {
            const std::size_t entry = tallies[first].entry;
            Count distinct = 0, total = 0;
            CountLogCountSum countLogCountSum;
            std::size_t next = first;
            while (next < tallies.size() && tallies[next].entry == entry)
            {
                const std::uint32_t value = tallies[next].value;
                Count count = 0;
                for (; next < tallies.size() && tallies[next].entry == entry && tallies[next].value == value;
                     ++next)
                    count += tallies[next].count;
                ++distinct;
                total += count;
                countLogCountSum.add(count);
            }
            if (!passesDiversity(rule, distinct, total, countLogCountSum.value()))
                failing[entry] = true;
            first = next;
        }
    }
    return failing;
}

} // namespace vbas

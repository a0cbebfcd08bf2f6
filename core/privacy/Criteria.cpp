#include "Criteria.h"

#include "base/Error.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace vbas
{

Criteria Criteria::fromOptions(const Registry& registry, const StrategyOptions& options)
{
    Criteria criteria;
    for (const StrategyEntry<GroupCriterion>& entry : registry.criteria)
        if (std::unique_ptr<GroupCriterion> made = entry.make(options))
            criteria.mCriteria.push_back(std::move(made));
    return criteria;
}

std::string Criteria::describe() const
{
    std::string text;
    for (std::size_t i = 0; i < mCriteria.size(); ++i)
        text += (i == 0 ? "" : i + 1 == mCriteria.size() ? " and " : ", ") + mCriteria[i]->describe();
    return text;
}

bool Criteria::summarized() const
{
    return std::any_of(mCriteria.begin(), mCriteria.end(),
                       [](const auto& criterion) { return criterion->decidedBySummaries(); });
}

bool Criteria::passesSummaries(Count records, const std::vector<FieldSummary>& fields) const
{
    return std::all_of(mCriteria.begin(), mCriteria.end(),
                       [&](const auto& criterion) {
                           return !criterion->decidedBySummaries() ||
                                  criterion->passesSummaries(records, fields);
                       });
}

bool Criteria::monotone() const
{
    return std::all_of(mCriteria.begin(), mCriteria.end(),
                       [](const auto& criterion) { return criterion->monotone(); });
}

bool Criteria::passes(const GroupValues& group, const TableValues& table) const
{
    return std::all_of(mCriteria.begin(), mCriteria.end(),
                       [&](const auto& criterion) { return criterion->passes(group, table); });
}

void Criteria::check(const Dataset& dataset) const
{
    if (!empty() && dataset.sensitiveCount() == 0)
        throw Error(Subject::Sensitive, describe() +
                                            " needs at least one sensitive field; give the sensitive "
                                            "fields or leave it off");
}

std::vector<bool> Criteria::failing(const RegionSet& regions, const Aggregation& aggregation,
                                    const std::vector<bool>& withheld, Feedback& feedback,
                                    const std::vector<bool>* withheldRows) const
{
    std::vector<bool> failing(aggregation.histograms.allEntries().size(), false);
    if (empty())
        return failing;
    const Dataset& dataset = regions.dataset();
    check(dataset);
    const std::size_t fields = dataset.sensitiveCount();
    const std::vector<std::size_t> rowEntry =
        aggregation.releasedEntryOfRows(dataset, withheld, withheldRows);
    struct Tally
    {
        std::size_t entry;
        std::uint32_t field;
        std::uint32_t value;
        Count count;
    };
    std::vector<Tally> tallies;
    std::uint32_t values = 0;
    for (std::size_t row = 0; row < dataset.rows(); ++row)
        if (rowEntry[row] != HistogramTable::kNoEntry && dataset.rowWeight(row) > 0)
            for (std::size_t field = 0; field < fields; ++field)
            {
                const std::uint32_t value = dataset.rowSensitive(row, field);
                values = std::max(values, value + 1);
                tallies.push_back({rowEntry[row], std::uint32_t(field), value, dataset.rowWeight(row)});
            }
    feedback.checkCanceled();
    std::sort(tallies.begin(), tallies.end(),
              [](const Tally& a, const Tally& b)
              { return std::tie(a.entry, a.field, a.value) < std::tie(b.entry, b.field, b.value); });
    // Each released entry's values, once.
    struct Group
    {
        std::size_t entry;
        GroupValues values;
    };
    std::vector<Group> groups;
    for (std::size_t first = 0; first < tallies.size();)
    {
        Group group{tallies[first].entry, {}};
        group.values.fields.resize(fields);
        std::size_t next = first;
        for (; next < tallies.size() && tallies[next].entry == group.entry; ++next)
        {
            auto& field = group.values.fields[tallies[next].field];
            if (field.empty() || field.back().first != tallies[next].value)
                field.emplace_back(tallies[next].value, 0);
            field.back().second += tallies[next].count;
        }
        for (const auto& [value, count] : group.values.fields[0])
            group.values.records += count;
        groups.push_back(std::move(group));
        first = next;
    }
    TableValues table;
    table.counts.assign(fields, std::vector<Count>(values, 0));
    for (std::size_t field = 0; field < fields; ++field)
        table.order.push_back(field < dataset.sensitiveValues().size()
                                  ? numericOrder(dataset.sensitiveValues()[field])
                                  : std::vector<std::uint32_t>());
    const bool readsTable = std::any_of(mCriteria.begin(), mCriteria.end(),
                                        [](const auto& criterion) { return criterion->readsTable(); });
    for (bool changed = true; changed;)
    {
        feedback.checkCanceled();
        // The released table's values: those of the groups still released.
        table.records = 0;
        for (std::vector<Count>& counts : table.counts)
            std::fill(counts.begin(), counts.end(), 0);
        for (const Group& group : groups)
            if (!failing[group.entry])
            {
                table.records += group.values.records;
                for (std::size_t field = 0; field < fields; ++field)
                    for (const auto& [value, count] : group.values.fields[field])
                        table.counts[field][value] += count;
            }
        changed = false;
        for (const Group& group : groups)
            if (!failing[group.entry] && !passes(group.values, table))
            {
                failing[group.entry] = true;
                changed = readsTable;
            }
    }
    return failing;
}

std::vector<std::uint32_t> numericOrder(const std::vector<CategoryValue>& values)
{
    std::vector<std::uint32_t> codes;
    for (std::uint32_t code = 0; code < values.size(); ++code)
    {
        if (values[code].null)
            continue;
        if (!values[code].number && !values[code].day)
            return {};
        codes.push_back(code);
    }
    const auto number = [&](std::uint32_t code)
    {
        return values[code].number ? *values[code].number : double(*values[code].day);
    };
    std::stable_sort(codes.begin(), codes.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return number(a) < number(b); });
    // NULL (and no value) after every number.
    std::vector<std::uint32_t> order(values.size(), std::uint32_t(codes.size()));
    for (std::uint32_t place = 0; place < codes.size(); ++place)
        order[codes[place]] = place;
    return order;
}

} // namespace vbas

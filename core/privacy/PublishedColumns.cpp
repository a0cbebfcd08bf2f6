#include "PublishedColumns.h"

#include "base/Error.h"
#include "base/NumberText.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace vbas
{
namespace
{
/** One published row as the judgement sorts it. */
struct Item
{
    std::uint32_t region;
    std::uint32_t cls;
    std::uint64_t value;
    std::uint32_t area;
    std::uint32_t person;
    Count weight;
};

/** The value of a field (one code) or of a pair (both codes) in row `row`. */
std::uint64_t valueOf(const PublishedRows& rows, const std::vector<std::size_t>& fields, std::size_t row)
{
    std::uint64_t value = rows.fields[fields[0]][row];
    if (fields.size() == 2)
        value = (value << 32) | rows.fields[fields[1]][row];
    return value;
}

/** The share of a group's rows placed in their small area, from the per-area counts of one group (sorted). */
class Placement
{
public:
    /** Adds the rows of one (region, value) group: `areaCounts` its rows per small area. */
    void addGroup(const std::vector<std::pair<std::uint32_t, Count>>& areaCounts,
                  const std::vector<Count>& regionAreaCount, Count regionLargest, std::uint32_t largestAreas)
    {
        Count total = 0, top = 0, second = 0;
        std::uint32_t atTop = 0, atSecond = 0;
        for (const auto& [area, count] : areaCounts)
        {
            total += count;
            if (count > top)
            {
                second = top;
                atSecond = atTop;
                top = count;
                atTop = 1;
            }
            else if (count == top)
                ++atTop;
            else if (count > second)
            {
                second = count;
                atSecond = 1;
            }
            else if (count == second)
                ++atSecond;
        }
        for (const auto& [area, count] : areaCounts)
        {
            if (total == 1)
            {
                // No other row names an area: the region's largest small area is the guess.
                if (regionAreaCount[area] == regionLargest)
                    mPlaced += 1.0 / double(largestAreas);
                continue;
            }
            // Leave the row out: its area keeps count - 1; it is placed when that is the most, ties shared.
            if (count != top || atTop > 1)
                continue;
            if (top - 1 > second)
                mPlaced += double(count);
            else if (top - 1 == second)
                mPlaced += double(count) / double(1 + atSecond);
        }
    }
    double placed() const { return mPlaced; }

private:
    double mPlaced = 0.0;
};
} // namespace

PublishedRows publishedRows(const Dataset& dataset, const Hierarchies* hierarchies,
                            const std::vector<std::size_t>& levels, const Aggregation& aggregation,
                            const std::vector<bool>& released,
                            const std::vector<std::uint32_t>& publishedCodes, std::size_t fieldCount)
{
    if (released.size() != dataset.rows() || publishedCodes.size() != dataset.rows() * fieldCount)
        throw Error(Subject::Records, "the published rows do not match the records");
    // The class each level-0 class is published as.
    const std::size_t q = dataset.schema().size();
    std::map<std::vector<std::uint32_t>, std::uint32_t> published;
    std::vector<std::uint32_t> publishedClass(dataset.classes().size());
    std::vector<std::uint32_t> codes(q);
    for (ClassId c = 0; c < publishedClass.size(); ++c)
    {
        for (std::size_t i = 0; i < q; ++i)
        {
            const std::uint32_t code = dataset.classes().codes(c)[i];
            const bool generalized = hierarchies != nullptr && !levels.empty() && levels[i] > 0 &&
                                     i < hierarchies->size() && (*hierarchies)[i];
            codes[i] = generalized ? (*hierarchies)[i]->hierarchy.group(levels[i], code) : code;
        }
        publishedClass[c] = published.emplace(codes, std::uint32_t(published.size())).first->second;
    }
    PublishedRows rows;
    rows.fields.resize(fieldCount);
    for (std::size_t row = 0; row < dataset.rows(); ++row)
    {
        if (!released[row])
            continue;
        const RegionIndex area = dataset.rowRegion(row);
        rows.region.push_back(aggregation.regionAggregate[area]);
        rows.smallArea.push_back(area);
        rows.cls.push_back(publishedClass[dataset.rowClass(row)]);
        for (std::size_t f = 0; f < fieldCount; ++f)
            rows.fields[f].push_back(publishedCodes[row * fieldCount + f]);
        if (dataset.countsPeople())
            rows.person.push_back(dataset.rowPerson(row));
        else
            rows.records.push_back(dataset.rowCount(row));
    }
    return rows;
}

std::vector<ColumnFigures> judgePublishedColumns(const PublishedRows& rows,
                                                 const std::vector<PublishedField>& fields, Count k,
                                                 Feedback& feedback)
{
    std::vector<std::vector<std::size_t>> judged;
    for (std::size_t f = 0; f < fields.size(); ++f)
        judged.push_back({f});
    for (std::size_t f = 0; f < fields.size(); ++f)
        for (std::size_t g = f + 1; g < fields.size(); ++g)
            judged.push_back({f, g});
    const std::size_t n = rows.size();
    const auto weightOf = [&](std::size_t row)
    {
        return rows.records.empty() ? Count(1) : rows.records[row];
    };

    // Per region: its rows in each small area, the largest such count and how many areas reach it.
    std::uint32_t regions = 0, areas = 0;
    for (std::size_t row = 0; row < n; ++row)
    {
        regions = std::max(regions, rows.region[row] + 1);
        areas = std::max(areas, rows.smallArea[row] + 1);
    }
    std::vector<Count> areaCount(areas, 0);
    for (std::size_t row = 0; row < n; ++row)
        areaCount[rows.smallArea[row]] += weightOf(row);
    std::vector<Count> largest(regions, 0), regionRows(regions, 0);
    std::vector<std::uint32_t> atLargest(regions, 0), regionAreas(regions, 0);
    {
        std::vector<bool> seen(areas, false);
        for (std::size_t row = 0; row < n; ++row)
        {
            const std::uint32_t area = rows.smallArea[row], region = rows.region[row];
            regionRows[region] += weightOf(row);
            if (seen[area])
                continue;
            seen[area] = true;
            ++regionAreas[region];
            if (areaCount[area] > largest[region])
            {
                largest[region] = areaCount[area];
                atLargest[region] = 1;
            }
            else if (areaCount[area] == largest[region])
                ++atLargest[region];
        }
    }
    Count placeable = 0, byLargest = 0;
    for (std::uint32_t r = 0; r < regions; ++r)
        if (regionAreas[r] > 1)
        {
            placeable += regionRows[r];
            byLargest += largest[r];
        }
    Count total = 0;
    for (std::size_t row = 0; row < n; ++row)
        total += weightOf(row);

    std::vector<ColumnFigures> figures;
    std::vector<Item> items(n);
    std::vector<std::pair<std::uint32_t, Count>> areaCounts;
    for (const std::vector<std::size_t>& fieldSet : judged)
    {
        feedback.checkCanceled();
        ColumnFigures figure;
        figure.fields = fieldSet;
        for (const std::size_t f : fieldSet)
            figure.judgedOnGroups = figure.judgedOnGroups && !fields[f].sensitive;
        for (std::size_t row = 0; row < n; ++row)
            items[row] = {rows.region[row],
                          rows.cls[row],
                          valueOf(rows, fieldSet, row),
                          rows.smallArea[row],
                          rows.person.empty() ? std::uint32_t(row) : rows.person[row],
                          weightOf(row)};

        // Placement: the rows of each (region, value) by small area.
        std::sort(items.begin(), items.end(),
                  [](const Item& a, const Item& b)
                  { return std::tie(a.region, a.value, a.area) < std::tie(b.region, b.value, b.area); });
        Placement placement;
        for (std::size_t first = 0; first < n;)
        {
            std::size_t next = first;
            areaCounts.clear();
            while (next < n && items[next].region == items[first].region &&
                   items[next].value == items[first].value)
            {
                if (areaCounts.empty() || areaCounts.back().first != items[next].area)
                    areaCounts.emplace_back(items[next].area, 0);
                areaCounts.back().second += items[next].weight;
                ++next;
            }
            if (regionAreas[items[first].region] > 1)
                placement.addGroup(areaCounts, areaCount, largest[items[first].region],
                                   atLargest[items[first].region]);
            first = next;
        }
        if (placeable > byLargest)
            figure.placement = (placement.placed() - double(byLargest)) / double(placeable - byLargest);

        // Groups: the rows of each (region, class, value), counted in people or records.
        std::sort(items.begin(), items.end(),
                  [](const Item& a, const Item& b) {
                      return std::tie(a.region, a.cls, a.value, a.person) <
                             std::tie(b.region, b.cls, b.value, b.person);
                  });
        Count belowK = 0, unique = 0;
        for (std::size_t first = 0; first < n;)
        {
            std::size_t next = first;
            Count size = 0, weight = 0;
            while (next < n && items[next].region == items[first].region &&
                   items[next].cls == items[first].cls && items[next].value == items[first].value)
            {
                const bool newPerson = next == first || items[next].person != items[next - 1].person;
                size += rows.person.empty() ? items[next].weight : Count(newPerson);
                weight += items[next].weight;
                ++next;
            }
            if (size < k)
                belowK += weight;
            if (size == 1)
                unique += weight;
            first = next;
        }
        if (total > 0)
        {
            figure.shareBelowK = double(belowK) / double(total);
            figure.shareUnique = double(unique) / double(total);
        }
        figures.push_back(figure);
    }
    return figures;
}

std::string refusalText(const ColumnFigures& figures, const std::vector<PublishedField>& fields, Count k)
{
    std::string names = "'" + fields[figures.fields[0]].name + "'";
    if (figures.fields.size() == 2)
        names += " and '" + fields[figures.fields[1]].name + "' together";
    if (figures.placement > kMaxPlacement)
        return names + (figures.fields.size() == 2 ? " place" : " places") +
               " the published rows in their small area inside their region: placement " +
               percentText(100.0 * figures.placement) + " % beyond what the region alone tells (at most " +
               percentText(100.0 * kMaxPlacement) +
               " % allowed), so the release would publish the small areas it merged. Leave it out, or "
               "publish "
               "it coarser from a field of its own";
    return names + (figures.fields.size() == 2 ? " put " : " puts ") +
           percentText(100.0 * figures.shareBelowK) +
           " % of the published rows in groups of fewer than k = " + std::to_string(k) +
           " within their region and quasi-identifiers (" + percentText(100.0 * figures.shareUnique) +
           " % unique; at most " + percentText(100.0 * kMaxShareBelowK) +
           " % allowed). Make it a quasi-identifier (QUASI_IDENTIFIERS) so that k counts it, generalize it, "
           "declare it sensitive (SENSITIVE_FIELDS, protected by l-diversity) if an outsider cannot know it, "
           "or leave it out";
}

const ColumnFigures* FieldChecks::refused() const
{
    for (const ColumnFigures& figures : columns)
        if (figures.refused())
            return &figures;
    return nullptr;
}

FieldChecks checkPublishedFields(const Dataset& dataset, const PublishedFields& published,
                                 const Hierarchies* hierarchies, const std::vector<std::size_t>& levels,
                                 const Aggregation& aggregation, const std::vector<bool>& released, Count k,
                                 Feedback& feedback)
{
    FieldChecks checks;
    if (published.fields.empty())
        return checks;
    if (published.codes == nullptr)
        throw Error(Subject::Records, "the published fields come without their values");
    const std::size_t fieldCount = published.fields.size();
    if (!dataset.countsPeople())
        checks.repeated = repeatedRows(dataset, *published.codes, fieldCount, feedback);
    if (published.rowsPublished)
        checks.columns = judgePublishedColumns(
            publishedRows(dataset, hierarchies, levels, aggregation, released, *published.codes, fieldCount),
            published.fields, k, feedback);
    return checks;
}

} // namespace vbas

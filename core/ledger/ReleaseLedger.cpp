#include "ReleaseLedger.h"

#include "Error.h"
#include "NumberText.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace vbas
{
namespace
{
/** Separates the parts of a cell key (ids and labels never hold it). */
constexpr char kCellSeparator = '\x1d';

std::string cellKey(const std::string& region, const std::string& cls)
{
    return region + kCellSeparator + cls;
}

std::string percent(double share)
{
    return percentText(100.0 * share) + " %";
}

/** Why two releases' records count as overlapping, in a user's words. */
std::string overlapText(const RecordOverlap& overlap)
{
    if (overlap.relation == RecordOverlap::Relation::Identical)
        return "the same records";
    return "records in common: about " + percent(overlap.sharedShare) +
           (overlap.byIds
                ? " of the smaller release's record ids"
                : " of the smaller release's records by small area and values (name the record id "
                  "field, RECORD_ID_FIELD, in both releases to tell new records from earlier ones)");
}
} // namespace

std::size_t LedgerEntry::regions() const
{
    std::set<std::string> ids;
    for (const auto& [area, region] : aggregation)
        ids.insert(region);
    return ids.size();
}

std::string LedgerEntry::describe() const
{
    return "release " + std::to_string(id) + " of " + recordedAt + " (" + algorithm +
           ", k = " + std::to_string(k) + ", " + std::to_string(regions()) + " regions)";
}

bool sameAggregation(const AreaRegions& a, const AreaRegions& b)
{
    if (a.size() != b.size())
        return false;
    // The same areas, and region ids that map one to one.
    std::unordered_map<std::string, std::string> forward, backward;
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        if (a[i].first != b[i].first)
            return false;
        if (forward.emplace(a[i].second, b[i].second).first->second != b[i].second ||
            backward.emplace(b[i].second, a[i].second).first->second != a[i].second)
            return false;
    }
    return true;
}

RecordOverlap compareRecords(const RecordFingerprint& earlier, const RecordFingerprint& now)
{
    RecordOverlap overlap;
    if (earlier.records == now.records && earlier.digest == now.digest)
    {
        overlap.relation = RecordOverlap::Relation::Identical;
        overlap.sharedShare = 1.0;
        overlap.byIds = earlier.hasIds() && now.hasIds();
        return overlap;
    }
    overlap.byIds = earlier.hasIds() && now.hasIds();
    const MinHashSample& a = overlap.byIds ? earlier.ids : earlier.rows;
    const MinHashSample& b = overlap.byIds ? now.ids : now.rows;
    const Count smaller = std::min(a.members, b.members);
    overlap.sharedShare = smaller == 0 ? 0.0 : std::min(1.0, sharedMembers(a, b) / double(smaller));
    overlap.relation = overlap.sharedShare > kOverlapShare ? RecordOverlap::Relation::Overlapping
                                                           : RecordOverlap::Relation::Disjoint;
    return overlap;
}

LedgerDecision checkLedger(const std::vector<LedgerEntry>& entries, const RecordFingerprint& now,
                           const AreaRegions* aggregation)
{
    LedgerDecision decision;
    for (std::size_t e = 0; e < entries.size(); ++e)
    {
        const LedgerEntry& entry = entries[e];
        const RecordOverlap overlap = compareRecords(entry.records, now);
        if (overlap.relation == RecordOverlap::Relation::Disjoint)
            continue;
        if (aggregation == nullptr || !sameAggregation(entry.aggregation, *aggregation))
            throw Error(Subject::Ledger,
                        "these records overlap those of " + entry.describe() + " (" + overlapText(overlap) +
                            "), and a second aggregation of them could be overlaid on the first to single "
                            "people out. Release them on that release's aggregation instead: "
                            "vbas:releaseonaggregation with LEDGER_ENTRY=" +
                            std::to_string(entry.id) +
                            " checks k and l again and keeps its regions; or release records that do not "
                            "overlap (new ones only, told apart by RECORD_ID_FIELD)");
        decision.keepDifferencesWith.push_back(e);
        decision.notes.push_back(
            entry.describe() + ": " + overlapText(overlap) +
            " on the same aggregation; every published count differs from its own by 0 or "
            "by at least k");
    }
    return decision;
}

std::vector<std::string> classKeys(const Dataset& dataset,
                                   const std::vector<std::vector<CategoryValue>>& values,
                                   const Hierarchies* hierarchies, const std::vector<std::size_t>& levels)
{
    const std::size_t q = dataset.schema().size();
    if (values.size() != q || (!levels.empty() && levels.size() != q))
        throw Error(Subject::QuasiIdentifier, "the values or levels do not match the quasi-identifiers");
    std::vector<std::string> keys(dataset.classes().size());
    for (ClassId c = 0; c < keys.size(); ++c)
    {
        const std::uint32_t* codes = dataset.classes().codes(c);
        std::string& key = keys[c];
        for (std::size_t i = 0; i < q; ++i)
        {
            const std::size_t level = levels.empty() ? 0 : levels[i];
            const QuasiIdentifierHierarchy* generalized =
                hierarchies != nullptr && i < hierarchies->size() && (*hierarchies)[i] ? &*(*hierarchies)[i]
                                                                                       : nullptr;
            bool null = false;
            const std::string* label = nullptr;
            if (level == 0 || generalized == nullptr)
            {
                const CategoryValue& value = values[i].at(codes[i]);
                null = value.null;
                label = &value.text;
            }
            else
            {
                const std::uint32_t group = generalized->hierarchy.group(level, codes[i]);
                null = generalized->hierarchy.isNull(level, group);
                label = &generalized->hierarchy.label(level, group);
            }
            key += null ? std::string("\x1e", 1) : *label;
            key += '\x1f';
        }
    }
    return keys;
}

std::vector<std::string> aggregateKeys(const Dataset& dataset, const Aggregation& aggregation)
{
    std::vector<std::string> keys(aggregation.size());
    for (std::size_t a = 0; a < aggregation.size(); ++a)
        for (std::size_t m = aggregation.memberOffsets[a]; m < aggregation.memberOffsets[a + 1]; ++m)
        {
            const std::string& id = dataset.regionId(aggregation.members[m]);
            if (m == aggregation.memberOffsets[a] || id < keys[a])
                keys[a] = id;
        }
    return keys;
}

std::vector<PublishedCell> publishedCells(const Dataset& dataset, const std::vector<std::string>& classKeys,
                                          const Aggregation& aggregation,
                                          const std::vector<bool>& rowReleased)
{
    // Classes that publish the same labels are one cell: count by (aggregate, label) once per row.
    std::unordered_map<std::string, std::uint32_t> labelIds;
    std::vector<std::uint32_t> labelOfClass(classKeys.size());
    std::vector<const std::string*> labels;
    for (std::size_t c = 0; c < classKeys.size(); ++c)
    {
        const auto [found, added] = labelIds.emplace(classKeys[c], std::uint32_t(labels.size()));
        if (added)
            labels.push_back(&found->first);
        labelOfClass[c] = found->second;
    }
    std::unordered_map<std::uint64_t, Count> counts;
    for (std::size_t row = 0; row < dataset.rows(); ++row)
        if (rowReleased[row])
            counts[std::uint64_t(aggregation.regionAggregate[dataset.rowRegion(row)]) * labels.size() +
                   labelOfClass[dataset.rowClass(row)]] += dataset.rowCount(row);
    const std::vector<std::string> regions = aggregateKeys(dataset, aggregation);
    std::vector<PublishedCell> cells;
    for (const auto& [key, count] : counts)
        cells.push_back({regions[key / labels.size()], *labels[key % labels.size()], count});
    std::sort(cells.begin(), cells.end(),
              [](const PublishedCell& a, const PublishedCell& b)
              { return std::tie(a.region, a.cls) < std::tie(b.region, b.cls); });
    return cells;
}

CellHistory::CellHistory(const std::vector<const std::vector<PublishedCell>*>& earlier,
                         std::vector<std::string> classKeys)
    : mReleases(earlier.size())
    , mClassKeys(std::move(classKeys))
{
    for (std::size_t r = 0; r < earlier.size(); ++r)
        for (const PublishedCell& cell : *earlier[r])
        {
            std::vector<Count>& counts = mCells[cellKey(cell.region, cell.cls)];
            counts.resize(mReleases, 0);
            counts[r] = cell.count;
        }
}

std::vector<std::vector<Count>> CellHistory::countsOfEntries(const Dataset& dataset,
                                                             const Aggregation& aggregation) const
{
    const std::vector<std::string> regions = aggregateKeys(dataset, aggregation);
    const HistogramTable& histograms = aggregation.histograms;
    std::vector<std::vector<Count>> counts(histograms.allEntries().size());
    for (std::size_t a = 0; a < aggregation.size(); ++a)
        for (std::size_t e = histograms.firstEntry(a); e < histograms.firstEntry(a + 1); ++e)
        {
            const auto found =
                mCells.find(cellKey(regions[a], mClassKeys.at(histograms.allEntries()[e].cls)));
            if (found != mCells.end())
                counts[e] = found->second;
        }
    return counts;
}

} // namespace vbas

#include "ReleaseLedger.h"

#include "base/Error.h"
#include "base/NumberText.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>

namespace vbas
{
namespace
{
std::string percent(double share)
{
    return percentText(100.0 * share) + " %";
}

/** The label texts of a cell's class key, one per quasi-identifier. */
std::vector<std::string> labelsOfKey(const std::string& key)
{
    std::vector<std::string> labels;
    std::string label;
    for (const char c : key)
    {
        if (c == '\x1f')
        {
            labels.push_back(label);
            label.clear();
        }
        else
            label += c;
    }
    return labels;
}

/** Small areas of several releases matched by id or by place: each gets the number of the area it is. */
class AreaMatcher
{
public:
    /** The number of the area `id` at `location` (empty: unknown), matching any area added before. */
    std::size_t add(const std::string& id, const std::string& location)
    {
        const std::size_t node = mParent.size();
        mParent.push_back(node);
        const auto join = [&](std::unordered_map<std::string, std::size_t>& index, const std::string& key)
        {
            const auto [found, added] = index.emplace(key, node);
            if (!added)
                mParent[find(node)] = find(found->second);
        };
        join(mById, id);
        if (!location.empty())
            join(mByLocation, location);
        return node;
    }
    /** The area added as `node`, or an earlier one it matched. */
    std::size_t find(std::size_t node)
    {
        while (mParent[node] != node)
            node = mParent[node] = mParent[mParent[node]];
        return node;
    }
    /** Whether `id` or `location` names an area added before. */
    std::optional<std::size_t> lookup(const std::string& id, const std::string& location)
    {
        if (const auto found = mById.find(id); found != mById.end())
            return find(found->second);
        if (!location.empty())
            if (const auto found = mByLocation.find(location); found != mByLocation.end())
                return find(found->second);
        return std::nullopt;
    }

private:
    std::vector<std::size_t> mParent;
    std::unordered_map<std::string, std::size_t> mById, mByLocation;
};

std::string locationOf(const std::vector<std::string>& locations, std::size_t i)
{
    return i < locations.size() ? locations[i] : std::string();
}

/** The share of the smaller of two samples' sets that they share. */
double sharedShare(const MinHashSample& a, const MinHashSample& b)
{
    const Count smaller = std::min(a.members, b.members);
    return smaller == 0 ? 0.0 : std::min(1.0, sharedMembers(a, b) / double(smaller));
}

/** Whether two fingerprints' rows can be compared: the same quasi-identifiers, their values coded alike. */
bool comparableRows(const RecordFingerprint& a, const RecordFingerprint& b)
{
    if (a.domains.size() != b.domains.size())
        return false;
    for (const auto& domainOfA : a.domains)
    {
        const auto other = std::find_if(b.domains.begin(), b.domains.end(),
                                        [&](const auto& domain) { return domain.first == domainOfA.first; });
        if (other == b.domains.end())
            return false;
        // Coded alike: most values of the smaller domain are values of the other.
        if (sharedShare(domainOfA.second, other->second) < 0.5)
            return false;
    }
    return true;
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

std::string RecordComparison::text() const
{
    if (relation == RecordRelation::Identical && !byIds && shareOfEarlier >= 1.0 && shareOfNow >= 1.0)
        return "the same records";
    if (incomparable)
        return "records that cannot be told apart from the earlier ones: their quasi-identifiers or their "
               "values are coded otherwise, so nothing shows they are other people's";
    if (relation == RecordRelation::Disjoint)
        return byIds ? "no record id in common" : "no record alike";
    const std::string shares = "about " + percent(shareOfEarlier) + " of the earlier release's records and " +
                               percent(shareOfNow) + " of these";
    return byIds ? shares + " by record id"
                 : shares + " by small area and values (compared by value; RECORD_ID_FIELD in both releases "
                            "tells new records from earlier ones)";
}

RecordComparison compareRecords(const RecordFingerprint& earlier, const RecordFingerprint& now)
{
    RecordComparison comparison;
    if (earlier.records == now.records && earlier.digest == now.digest)
    {
        comparison.relation = RecordRelation::Identical;
        comparison.shareOfEarlier = comparison.shareOfNow = 1.0;
        return comparison;
    }
    const bool comparable = comparableRows(earlier, now);
    const double rowShare = comparable ? sharedShare(earlier.rows, now.rows) : 0.0;
    if (earlier.hasIds() && now.hasIds() && sharedShare(earlier.ids, now.ids) > kOverlapShare)
    {
        comparison.byIds = true;
        comparison.shareOfEarlier = shareWithin(earlier.ids, now.ids);
        comparison.shareOfNow = shareWithin(now.ids, earlier.ids);
    }
    else if (comparable && rowShare > ((earlier.hasIds() && now.hasIds()) ? kSameRowsShare : kOverlapShare))
    {
        // Without ids, or the same rows under other ids.
        comparison.shareOfEarlier = shareWithin(earlier.rows, now.rows);
        comparison.shareOfNow = shareWithin(now.rows, earlier.rows);
    }
    else if (!comparable)
    {
        comparison.incomparable = true;
        comparison.relation = RecordRelation::Partial;
        return comparison;
    }
    else
    {
        comparison.byIds = earlier.hasIds() && now.hasIds();
        comparison.relation = RecordRelation::Disjoint;
        return comparison;
    }
    // The same records told by ids may carry other values (other bands, or a correction, which the difference
    // audit finds when the counts cannot be the same records').
    const bool earlierWithin = comparison.shareOfEarlier >= kWithinShare;
    const bool nowWithin = comparison.shareOfNow >= kWithinShare;
    comparison.relation = earlierWithin && nowWithin ? RecordRelation::Identical
                          : earlierWithin            ? RecordRelation::Within
                          : nowWithin                ? RecordRelation::Containing
                                                     : RecordRelation::Partial;
    return comparison;
}

LedgerDecision checkLedger(const std::vector<LedgerEntry>& entries, const RecordFingerprint& now,
                           const ReleaseTerritory& territory, bool ownAggregation,
                           const std::vector<std::int64_t>& otherPeople)
{
    LedgerDecision decision;
    // This release's small areas, to match each entry's against.
    AreaMatcher areas;
    std::vector<std::size_t> nowArea;
    for (std::size_t i = 0; i < territory.areas.size(); ++i)
        nowArea.push_back(areas.add(territory.areas[i].first, locationOf(territory.locations, i)));
    std::set<std::string> nowIds;
    for (const auto& [area, region] : territory.areas)
        nowIds.insert(area);
    std::vector<std::vector<std::string>> overlayKey(nowArea.size());

    for (std::size_t e = 0; e < entries.size(); ++e)
    {
        const LedgerEntry& entry = entries[e];
        if (entry.withdrawn())
            continue;
        // The entry's region of each of this release's small areas it covers.
        std::unordered_map<std::size_t, std::string> regionOfArea;
        std::size_t byPlace = 0;
        for (std::size_t i = 0; i < entry.aggregation.size(); ++i)
        {
            const std::string location = locationOf(entry.locations, i);
            std::optional<std::size_t> area = areas.lookup(entry.aggregation[i].first, location);
            if (!area)
                continue;
            byPlace += nowIds.count(entry.aggregation[i].first) == 0 ? 1 : 0;
            regionOfArea.emplace(*area, entry.aggregation[i].second);
        }
        if (regionOfArea.empty())
            continue;
        const RecordComparison records = compareRecords(entry.records, now);
        const std::string shared =
            std::to_string(regionOfArea.size()) + " of these small areas" +
            (byPlace > 0 ? " (" + std::to_string(byPlace) + " by place under other ids)" : "");
        if (std::find(otherPeople.begin(), otherPeople.end(), entry.id) != otherPeople.end())
        {
            if (records.overlapping())
                throw Error(
                    Subject::Ledger,
                    "OTHER_PEOPLE states that " + entry.describe() +
                        " holds other people's records, but these records and its have " + records.text() +
                        ". Release them on its aggregation (vbas:releaseonaggregation with LEDGER_ENTRY=" +
                        std::to_string(entry.id) + ")");
            decision.notes.push_back(
                entry.describe() + " covers " + shared +
                "; its records are other people's, as OTHER_PEOPLE states, and share none "
                "with these by content");
            continue;
        }
        if (ownAggregation)
            throw Error(
                Subject::Ledger,
                entry.describe() + " aggregated " + shared +
                    " already; a second aggregation of them could be overlaid on the first to single people "
                    "out, "
                    "whatever the records (" +
                    records.text() +
                    "). Release on its aggregation instead: vbas:releaseonaggregation with LEDGER_ENTRY=" +
                    std::to_string(entry.id) +
                    " checks k and l again and keeps its regions. If these records are other people's "
                    "(another "
                    "register), say so with OTHER_PEOPLE=" +
                    std::to_string(entry.id) + "; if release " + std::to_string(entry.id) +
                    " was never published, withdraw it with vbas:withdrawrelease");
        for (std::size_t i = 0; i < nowArea.size(); ++i)
        {
            const auto found = regionOfArea.find(areas.find(nowArea[i]));
            overlayKey[i].push_back(found == regionOfArea.end() ? std::string() : "\x1d" + found->second);
        }
        decision.bound.push_back({e, records});
        if (records.overlapping())
            decision.kFloor = std::max(decision.kFloor, entry.k);
        decision.notes.push_back(entry.describe() + " covers " + shared +
                                 "; its records and these: " + records.text());
    }
    // The overlay of the entries that bind: none of its parts may be split by this release's regions.
    std::map<std::vector<std::string>, std::pair<std::string, std::size_t>> regionOfPart;
    for (std::size_t i = 0; i < nowArea.size() && !decision.bound.empty(); ++i)
    {
        const std::vector<std::string>& key = overlayKey[i];
        if (std::all_of(key.begin(), key.end(), [](const std::string& part) { return part.empty(); }))
            continue;
        const auto [found, added] = regionOfPart.emplace(key, std::make_pair(territory.areas[i].second, i));
        if (!added && found->second.first != territory.areas[i].second)
        {
            std::size_t binding = 0;
            while (key[binding].empty())
                ++binding;
            throw Error(Subject::Ledger,
                        "the aggregation puts small areas " + territory.areas[found->second.second].first +
                            " and " + territory.areas[i].first + " in different regions, which " +
                            entries[decision.bound[binding].entry].describe() +
                            " published as one: the two together would show a smaller area. Release on that "
                            "release's aggregation or on a coarsening of it (whole regions merged)");
        }
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

std::vector<LabelValues> releasedLabelValues(const std::vector<std::string>& names,
                                             const std::vector<std::vector<CategoryValue>>& values,
                                             const Hierarchies* hierarchies,
                                             const std::vector<std::size_t>& levels)
{
    std::vector<LabelValues> released;
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        const std::size_t level = levels.empty() ? 0 : levels[i];
        const QuasiIdentifierHierarchy* generalized =
            hierarchies != nullptr && i < hierarchies->size() && (*hierarchies)[i] ? &*(*hierarchies)[i]
                                                                                   : nullptr;
        std::map<std::string, ValueSet> byLabel;
        for (std::uint32_t code = 0; code < values[i].size(); ++code)
        {
            const CategoryValue& value = values[i][code];
            std::string label = value.null ? std::string("\x1e", 1) : value.text;
            if (level > 0 && generalized != nullptr)
            {
                const std::uint32_t group = generalized->hierarchy.group(level, code);
                label = generalized->hierarchy.isNull(level, group)
                            ? std::string("\x1e", 1)
                            : generalized->hierarchy.label(level, group);
            }
            byLabel[label].unite(valueSetOf(value));
        }
        released.push_back({names[i], {byLabel.begin(), byLabel.end()}});
    }
    return released;
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
    // With persons, a cell counts each of its people once.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> cellPersons;
    for (std::size_t row = 0; row < dataset.rows(); ++row)
        if (rowReleased[row])
        {
            const std::uint64_t cell =
                std::uint64_t(aggregation.regionAggregate[dataset.rowRegion(row)]) * labels.size() +
                labelOfClass[dataset.rowClass(row)];
            if (dataset.countsPeople())
                cellPersons.emplace_back(cell, dataset.rowPerson(row));
            else
                counts[cell] += dataset.rowCount(row);
        }
    std::sort(cellPersons.begin(), cellPersons.end());
    cellPersons.erase(std::unique(cellPersons.begin(), cellPersons.end()), cellPersons.end());
    for (const auto& [cell, person] : cellPersons)
        ++counts[cell];
    const std::vector<std::string> regions = aggregateKeys(dataset, aggregation);
    std::vector<PublishedCell> cells;
    for (const auto& [key, count] : counts)
        cells.push_back({regions[key / labels.size()], *labels[key % labels.size()], count});
    std::sort(cells.begin(), cells.end(),
              [](const PublishedCell& a, const PublishedCell& b)
              { return std::tie(a.region, a.cls) < std::tie(b.region, b.cls); });
    return cells;
}

DifferenceRule::DifferenceRule(const std::vector<LedgerEntry>& entries,
                               const std::vector<BoundRelease>& bound, const Dataset& dataset,
                               const ReleaseTerritory& territory, const std::vector<LabelValues>& labels,
                               std::vector<std::vector<std::uint32_t>> classLabels)
    : mClassLabels(std::move(classLabels))
{
    // The quasi-identifiers of the audit: this release's, then the others' by name.
    std::vector<std::string> names;
    for (const LabelValues& released : labels)
        names.push_back(released.quasiIdentifier);
    for (const BoundRelease& b : bound)
        for (const std::string& name : entries[b.entry].quasiIdentifiers)
            if (std::find(names.begin(), names.end(), name) == names.end())
                names.push_back(name);
    const auto qiIndex = [&](const std::string& name)
    {
        return std::size_t(std::find(names.begin(), names.end(), name) - names.begin());
    };

    // Areas of every release matched by id or place; a region atom is the areas that share every release's
    // region (this release's and each earlier one's).
    AreaMatcher areas;
    std::vector<std::size_t> nowArea(dataset.regionCount());
    std::unordered_map<std::string, std::size_t> territoryIndex;
    for (std::size_t i = 0; i < territory.areas.size(); ++i)
        territoryIndex.emplace(territory.areas[i].first, i);
    for (RegionIndex r = 0; r < dataset.regionCount(); ++r)
    {
        const auto found = territoryIndex.find(dataset.regionId(r));
        nowArea[r] = areas.add(dataset.regionId(r), found == territoryIndex.end()
                                                        ? std::string()
                                                        : locationOf(territory.locations, found->second));
    }
    std::vector<std::vector<std::size_t>> entryArea(bound.size());
    for (std::size_t b = 0; b < bound.size(); ++b)
    {
        const LedgerEntry& entry = entries[bound[b].entry];
        for (std::size_t i = 0; i < entry.aggregation.size(); ++i)
            entryArea[b].push_back(areas.add(entry.aggregation[i].first, locationOf(entry.locations, i)));
    }
    std::map<std::size_t, std::vector<std::string>> signature; // area -> its region in each release
    for (RegionIndex r = 0; r < dataset.regionCount(); ++r)
    {
        const auto found = territoryIndex.find(dataset.regionId(r));
        std::vector<std::string>& key = signature[areas.find(nowArea[r])];
        key.resize(bound.size() + 1);
        key[bound.size()] =
            found == territoryIndex.end() ? dataset.regionId(r) : territory.areas[found->second].second;
    }
    for (std::size_t b = 0; b < bound.size(); ++b)
        for (std::size_t i = 0; i < entryArea[b].size(); ++i)
        {
            std::vector<std::string>& key = signature[areas.find(entryArea[b][i])];
            key.resize(bound.size() + 1);
            key[b] = entries[bound[b].entry].aggregation[i].second;
        }
    std::map<std::vector<std::string>, std::uint32_t> atomOfSignature;
    std::map<std::size_t, std::uint32_t> atomOfArea;
    for (const auto& [area, key] : signature)
        atomOfArea[area] = atomOfSignature.emplace(key, std::uint32_t(atomOfSignature.size())).first->second;
    mRegionAtom.resize(dataset.regionCount());
    for (RegionIndex r = 0; r < dataset.regionCount(); ++r)
        mRegionAtom[r] = atomOfArea.at(areas.find(nowArea[r]));

    // Each earlier release's cells over the atoms.
    for (std::size_t b = 0; b < bound.size(); ++b)
    {
        const LedgerEntry& entry = entries[bound[b].entry];
        AuditedRelease release;
        release.k = entry.k;
        release.labels.resize(names.size());
        std::vector<std::map<std::string, std::uint32_t>> labelIndex(names.size());
        std::vector<std::size_t> entryQi;
        for (const std::string& name : entry.quasiIdentifiers)
            entryQi.push_back(qiIndex(name));
        for (const LabelValues& released : entry.labelValues)
        {
            const std::size_t i = qiIndex(released.quasiIdentifier);
            for (const auto& [label, values] : released.labels)
            {
                labelIndex[i].emplace(label, std::uint32_t(release.labels[i].size()));
                release.labels[i].push_back(values);
            }
        }
        std::map<std::string, std::string> keyOfRegion; // region id -> its smallest small area id
        std::map<std::string, std::set<std::uint32_t>> atomsOfKey;
        for (const auto& [area, region] : entry.aggregation)
        {
            auto [found, added] = keyOfRegion.emplace(region, area);
            if (!added && area < found->second)
                found->second = area;
        }
        for (std::size_t i = 0; i < entry.aggregation.size(); ++i)
            atomsOfKey[keyOfRegion[entry.aggregation[i].second]].insert(
                atomOfArea.at(areas.find(entryArea[b][i])));
        for (const PublishedCell& cell : entry.cells)
        {
            AuditedRelease::Cell audited;
            const auto atoms = atomsOfKey.find(cell.region);
            const std::vector<std::string> cellLabels = labelsOfKey(cell.cls);
            if (atoms == atomsOfKey.end() || cellLabels.size() != entryQi.size())
                throw Error(Subject::Ledger, entry.describe() +
                                                 " holds a cell that does not parse; the ledger is "
                                                 "damaged");
            audited.regionAtoms.assign(atoms->second.begin(), atoms->second.end());
            audited.labels.assign(names.size(), 0);
            for (std::size_t j = 0; j < entryQi.size(); ++j)
            {
                const auto found = labelIndex[entryQi[j]].find(cellLabels[j]);
                if (found == labelIndex[entryQi[j]].end())
                    throw Error(Subject::Ledger,
                                entry.describe() + " publishes label '" + cellLabels[j] +
                                    "' without the values it stands for; the ledger is damaged");
                audited.labels[entryQi[j]] = found->second;
            }
            audited.count = cell.count;
            release.cells.push_back(std::move(audited));
        }
        mEarlier.push_back(std::move(release));
    }
    const std::size_t n = bound.size() + 1;
    mRelations.assign(n, std::vector<RecordRelation>(n, RecordRelation::Identical));
    for (std::size_t a = 0; a < bound.size(); ++a)
    {
        for (std::size_t b = 0; b < bound.size(); ++b)
            if (a != b)
                mRelations[a][b] =
                    compareRecords(entries[bound[a].entry].records, entries[bound[b].entry].records).relation;
        mRelations[a][n - 1] = bound[a].records.relation;
        mRelations[n - 1][a] = reversed(bound[a].records.relation);
    }
    mLabels.resize(names.size());
    for (std::size_t i = 0; i < labels.size(); ++i)
        for (const auto& [label, values] : labels[i].labels)
            mLabels[i].push_back(values);
    for (std::vector<std::uint32_t>& classLabel : mClassLabels)
        classLabel.resize(names.size(), 0);
}

std::vector<bool> DifferenceRule::withhold(const RegionSet&, const Aggregation& aggregation,
                                           const std::vector<bool>& withheld,
                                           const std::vector<Count>& published, Count k,
                                           Feedback& feedback) const
{
    const HistogramTable& histograms = aggregation.histograms;
    std::vector<bool> flagged(histograms.allEntries().size(), false);
    if (mEarlier.empty())
        return flagged;
    AuditedRelease now;
    now.k = k;
    now.labels = mLabels;
    std::vector<std::size_t> entryOfCell;
    for (std::size_t a = 0; a < aggregation.size(); ++a)
    {
        std::set<std::uint32_t> atoms;
        for (std::size_t m = aggregation.memberOffsets[a]; m < aggregation.memberOffsets[a + 1]; ++m)
            atoms.insert(mRegionAtom[aggregation.members[m]]);
        for (std::size_t e = histograms.firstEntry(a); e < histograms.firstEntry(a + 1); ++e)
        {
            if (withheld[e])
                continue;
            now.cells.push_back({{atoms.begin(), atoms.end()},
                                 mClassLabels.at(histograms.allEntries()[e].cls),
                                 published[e]});
            entryOfCell.push_back(e);
        }
    }
    std::vector<AuditedRelease> releases = mEarlier;
    releases.push_back(std::move(now));
    const AuditOutcome outcome = auditReleases(releases, mRelations, feedback);
    for (std::size_t c = 0; c < outcome.withheld.size(); ++c)
        if (outcome.withheld[c])
            flagged[entryOfCell[c]] = true;
    return flagged;
}

} // namespace vbas

#include "Dataset.h"

#include "base/NumberText.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <unordered_map>

namespace vbas
{
namespace
{

std::string quoted(const std::string& text)
{
    return "'" + text + "'";
}

std::unordered_map<std::string, RegionIndex> indexRegionIds(const std::vector<RegionInput>& regions)
{
    std::unordered_map<std::string, RegionIndex> index;
    index.reserve(regions.size());
    std::size_t duplicates = 0;
    std::string firstDuplicate;
    for (RegionIndex r = 0; r < regions.size(); ++r)
    {
        if (!index.emplace(regions[r].id, r).second)
        {
            if (duplicates++ == 0)
                firstDuplicate = regions[r].id;
        }
    }
    if (duplicates > 0)
        throw Error(Subject::Regions,
                    std::to_string(duplicates) +
                        " region(s) repeat an id already used (first: " + quoted(firstDuplicate) +
                        "); region ids must be unique: pick a unique id field or dissolve "
                        "the duplicates first");
    return index;
}

void checkCounts(const RecordTable& records)
{
    if (records.counts.empty())
        return;
    if (records.counts.size() != records.rows())
        throw Error(Subject::RecordCount, "the count column has " + std::to_string(records.counts.size()) +
                                              " values for " + std::to_string(records.rows()) + " records");
    std::size_t bad = 0;
    std::size_t firstBad = 0;
    for (std::size_t row = 0; row < records.counts.size(); ++row)
        if (records.counts[row] <= 0 && bad++ == 0)
            firstBad = row;
    if (bad > 0)
        throw Error(Subject::RecordCount,
                    std::to_string(bad) + " record(s) have a count of zero or less (first: row " +
                        std::to_string(firstBad + 1) + ", count " + std::to_string(records.counts[firstBad]) +
                        "); counts must be positive whole numbers: fix or remove those rows");
}

/**
 * What each row adds to its group when rows are people's (Dataset::rowWeight()): 1 for the first row of its
 * person in its (region, class), 0 for the others and for rows without a region.
 */
std::shared_ptr<const std::vector<Count>> personWeights(const std::vector<RegionIndex>& rowRegion,
                                                        const std::vector<ClassId>& rowClass,
                                                        const std::vector<std::uint32_t>& persons)
{
    struct Seen
    {
        std::uint32_t person;
        RegionIndex region;
        ClassId cls;
        std::uint32_t row;
    };
    std::vector<Seen> seen;
    seen.reserve(rowRegion.size());
    for (std::size_t row = 0; row < rowRegion.size(); ++row)
        if (rowRegion[row] != kNoRegion && rowClass[row] != kNoClass)
            seen.push_back({persons[row], rowRegion[row], rowClass[row], std::uint32_t(row)});
    std::sort(
        seen.begin(), seen.end(),
        [](const Seen& a, const Seen& b)
        { return std::tie(a.person, a.region, a.cls, a.row) < std::tie(b.person, b.region, b.cls, b.row); });
    auto weights = std::make_shared<std::vector<Count>>(rowRegion.size(), 0);
    for (std::size_t i = 0; i < seen.size(); ++i)
        if (i == 0 || std::tie(seen[i].person, seen[i].region, seen[i].cls) !=
                          std::tie(seen[i - 1].person, seen[i - 1].region, seen[i - 1].cls))
            (*weights)[seen[i].row] = 1;
    return weights;
}

} // namespace

Dataset Dataset::build(std::vector<RegionInput> regions, Schema schema, const RecordTable& records,
                       const DatasetOptions& options, Feedback& feedback)
{
    if (regions.empty())
        throw Error(Subject::Regions, "there are no regions; give a layer with at least one polygon");
    if (records.rows() == 0)
        throw Error(Subject::Records, "there are no records to release; give a table with at least one row");
    if (records.quasiIdentifierCount != schema.size() ||
        records.codes.size() != records.rows() * records.quasiIdentifierCount)
        throw Error(Subject::QuasiIdentifier, "the record codes do not match the " +
                                                  std::to_string(schema.size()) +
                                                  " quasi-identifiers of the schema");
    if (!records.quasiIdentifierValues.empty() && records.quasiIdentifierValues.size() != schema.size())
        throw Error(Subject::QuasiIdentifier,
                    "the values are given for " + std::to_string(records.quasiIdentifierValues.size()) +
                        " quasi-identifiers, not the " + std::to_string(schema.size()) + " of the schema");
    if (records.sensitiveCodes.size() != records.rows() * records.sensitiveCount)
        throw Error(Subject::Sensitive, "the sensitive codes hold " +
                                            std::to_string(records.sensitiveCodes.size()) + " values, not " +
                                            std::to_string(records.sensitiveCount) + " per record for " +
                                            std::to_string(records.rows()) + " records");
    if (!records.publishedRowKeys.empty() && records.publishedRowKeys.size() != records.rows())
        throw Error(Subject::Records, "the published row keys hold " +
                                          std::to_string(records.publishedRowKeys.size()) +
                                          " values, not one per "
                                          "row for " +
                                          std::to_string(records.rows()) + " rows");
    const auto regionIndex = indexRegionIds(regions);
    for (const RegionInput& region : regions)
        if (!std::isfinite(region.point.x) || !std::isfinite(region.point.y))
            throw Error(Subject::Regions,
                        "region " + quoted(region.id) +
                            " has no usable representative point (empty or broken geometry); "
                            "repair or remove it");
    checkCounts(records);
    if (!records.persons.empty() && records.persons.size() != records.rows())
        throw Error(Subject::Records, "the persons hold " + std::to_string(records.persons.size()) +
                                          " values for " + std::to_string(records.rows()) + " records");
    feedback.checkCanceled();

    Dataset dataset;
    const auto kept = std::make_shared<Kept>();
    // Resolve each distinct region key once.
    std::vector<RegionIndex> keyRegion(records.regionKeys.size(), kNoRegion);
    for (std::size_t key = 0; key < records.regionKeys.size(); ++key)
    {
        const auto found = regionIndex.find(records.regionKeys[key]);
        if (found != regionIndex.end())
            keyRegion[key] = found->second;
    }
    const std::size_t rows = records.rows();
    kept->rowRegion.resize(rows);
    std::size_t unknownRows = 0;
    Count unknownRecords = 0;
    std::size_t firstUnknownKey = 0;
    for (std::size_t row = 0; row < rows; ++row)
    {
        const std::uint32_t key = records.regionKey[row];
        const RegionIndex region = key < keyRegion.size() ? keyRegion[key] : kNoRegion;
        kept->rowRegion[row] = region;
        if (region == kNoRegion)
        {
            if (unknownRows++ == 0)
                firstUnknownKey = key;
            unknownRecords += records.counts.empty() ? 1 : Count(records.counts[row]);
        }
    }
    if (unknownRows > 0)
    {
        const std::string first = firstUnknownKey < records.regionKeys.size()
                                      ? quoted(records.regionKeys[firstUnknownKey])
                                      : "(no id)";
        const std::string what = std::to_string(unknownRecords) + " record(s) in " +
                                 std::to_string(unknownRows) +
                                 " row(s) name regions that are not among the regions (first: " + first + ")";
        if (options.unknownRegions == UnknownRegionPolicy::Fail)
            throw Error(Subject::RecordRegion,
                        what + "; fix the region ids of those records or choose to drop unknown regions");
        Count total = 0;
        for (std::size_t row = 0; row < rows; ++row)
            total += records.counts.empty() ? 1 : Count(records.counts[row]);
        if (double(unknownRecords) > options.maxDroppedShare * double(total))
            throw Error(
                Subject::RecordRegion,
                what + ", " + percentText(percentOf(double(unknownRecords), double(total))) +
                    " % of the records: more than the " + percentText(100.0 * options.maxDroppedShare) +
                    " % that may be dropped (MAX_DROPPED). So many unknown ids mean the region fields "
                    "do not correspond; fix the ids or choose the right fields rather than drop them");
        feedback.warning(what + "; they are dropped and not released");
        dataset.mDroppedRows = unknownRows;
        dataset.mDroppedRecords = unknownRecords;
        if (unknownRows == rows)
            throw Error(Subject::RecordRegion,
                        "no record names a known region (first unknown: " + first +
                            "); check that the record region field matches the region id field");
    }

    // Observed category counts: codes are category indices, so the largest code + 1.
    const std::size_t q = schema.size();
    std::vector<std::uint64_t> observed(q, 0);
    for (std::size_t row = 0; row < rows; ++row)
    {
        if (kept->rowRegion[row] == kNoRegion)
            continue;
        const std::uint32_t* codes = records.codes.data() + row * q;
        for (std::size_t j = 0; j < q; ++j)
            observed[j] = std::max<std::uint64_t>(observed[j], std::uint64_t(codes[j]) + 1);
    }
    std::vector<std::uint64_t> categories(q);
    for (std::size_t j = 0; j < q; ++j)
    {
        schema.setObservedCategories(j, observed[j]);
        categories[j] = schema.categories(j);
    }
    feedback.checkCanceled();

    kept->sensitiveCount = records.sensitiveCount;
    kept->sensitiveCodes = records.sensitiveCodes;
    kept->sensitiveValues = records.sensitiveValues;
    kept->publishedRowKeys = records.publishedRowKeys;
    dataset.mQuasiIdentifierValues = records.quasiIdentifierValues;
    if (!records.counts.empty())
        kept->rowCount.assign(records.counts.begin(), records.counts.end());
    kept->persons = records.persons;
    dataset.mClasses = ClassDictionary::build(categories, records.codes.data(), rows, kept->rowRegion.data(),
                                              dataset.mRowClass, feedback);
    if (!kept->persons.empty())
        dataset.mRowWeight = personWeights(kept->rowRegion, dataset.mRowClass, kept->persons);
    const std::vector<Count>* weights = dataset.mRowWeight       ? dataset.mRowWeight.get()
                                        : kept->rowCount.empty() ? nullptr
                                                                 : &kept->rowCount;
    dataset.mHistograms =
        HistogramTable::fromRows(kept->rowRegion, dataset.mRowClass, weights ? weights->data() : nullptr,
                                 regions.size(), dataset.mClasses.size(), feedback);

    kept->regionIds.reserve(regions.size());
    kept->points.reserve(regions.size());
    for (RegionInput& region : regions)
    {
        kept->regionIds.push_back(std::move(region.id));
        kept->points.push_back(region.point);
    }
    dataset.mSchema = std::move(schema);
    dataset.mKept = kept;
    return dataset;
}

Dataset Dataset::generalized(const std::vector<std::vector<std::uint32_t>>& codeMap,
                             const std::vector<std::vector<CategoryValue>>& groupValues) const
{
    const std::size_t q = mSchema.size();
    if (codeMap.size() != q || groupValues.size() != q)
        throw Error(Subject::QuasiIdentifier, "a generalization needs a code map for each of the " +
                                                  std::to_string(q) + " quasi-identifiers");
    std::vector<QuasiIdentifier> quasiIdentifiers;
    std::vector<std::uint64_t> categories(q);
    for (std::size_t j = 0; j < q; ++j)
    {
        const bool mapped = !codeMap[j].empty();
        categories[j] = mapped ? groupValues[j].size() : mSchema.categories(j);
        quasiIdentifiers.push_back({mSchema.at(j).name, mapped ? 0 : mSchema.at(j).declaredCategories});
    }
    // Every class of this dataset becomes one "row" of generalized codes; interning them gives the
    // generalized class of each class.
    const std::size_t classCount = mClasses.size();
    std::vector<std::uint32_t> codes(classCount * q);
    for (ClassId c = 0; c < classCount; ++c)
        for (std::size_t j = 0; j < q; ++j)
        {
            const std::uint32_t code = mClasses.codes(c)[j];
            codes[std::size_t(c) * q + j] = codeMap[j].empty() ? code : codeMap[j].at(code);
        }
    const std::vector<RegionIndex> anyRegion(classCount, 0);
    std::vector<ClassId> classMap;
    Feedback quiet;
    Dataset dataset;
    dataset.mClasses =
        ClassDictionary::build(categories, codes.data(), classCount, anyRegion.data(), classMap, quiet);
    dataset.mRowClass.resize(mRowClass.size());
    for (std::size_t row = 0; row < mRowClass.size(); ++row)
        dataset.mRowClass[row] = mRowClass[row] == kNoClass ? kNoClass : classMap[mRowClass[row]];
    if (countsPeople())
    {
        // A person's rows in two classes that merge count once in the merged class: counted again.
        dataset.mRowWeight = personWeights(mKept->rowRegion, dataset.mRowClass, mKept->persons);
        dataset.mHistograms =
            HistogramTable::fromRows(mKept->rowRegion, dataset.mRowClass, dataset.mRowWeight->data(),
                                     regionCount(), dataset.mClasses.size(), quiet);
    }
    else
        dataset.mHistograms = mHistograms.remapClasses(classMap);
    dataset.mSchema = Schema(std::move(quasiIdentifiers));
    for (std::size_t j = 0; j < q; ++j)
        dataset.mSchema.setObservedCategories(j, categories[j]);
    dataset.mKept = mKept;
    if (!mQuasiIdentifierValues.empty())
        for (std::size_t j = 0; j < q; ++j)
            dataset.mQuasiIdentifierValues.push_back(codeMap[j].empty() ? mQuasiIdentifierValues[j]
                                                                        : groupValues[j]);
    dataset.mDroppedRows = mDroppedRows;
    dataset.mDroppedRecords = mDroppedRecords;
    return dataset;
}

} // namespace vbas

#pragma once

#include "ClassDictionary.h"
#include "HistogramTable.h"
#include "RecordTable.h"
#include "Schema.h"
#include "base/Feedback.h"
#include "base/Types.h"

#include <memory>
#include <string>
#include <vector>

namespace vbas
{

/** An initial region (small area): unique id and representative point. */
struct RegionInput
{
    std::string id;
    Point point;
};

/** What to do with records whose region id names no region. */
enum class UnknownRegionPolicy
{
    Fail, //!< stop with an error naming the first unknown id
    Drop, //!< leave those records out of the release and report how many
};

struct DatasetOptions
{
    UnknownRegionPolicy unknownRegions = UnknownRegionPolicy::Fail;
    /**
     * The largest share of the records (0..1) that UnknownRegionPolicy::Drop may drop: more means the region
     * ids do not correspond, and dropping them would release the wrong records.
     */
    double maxDroppedShare = 0.01;
};

/**
 * Validated input of one release: regions, schema, and every record reduced to its region and
 * equivalence class, with the per-region class histograms built (SPEC section 2, step 1).
 * Keeps the per-row mapping so a front end can tell the fate of each input row.
 */
class Dataset
{
public:
    /**
     * Validates and loads. Throws Error on: no regions; duplicate region ids; no records; a count
     * that is zero or negative; a code beyond a declared category count; records naming unknown
     * regions (unless options drop them; the number dropped is reported through feedback);
     * sensitive codes that do not fill rows() * sensitiveCount.
     */
    static Dataset build(std::vector<RegionInput> regions, Schema schema, const RecordTable& records,
                         const DatasetOptions& options, Feedback& feedback);

    /**
     * The same records with code c of quasi-identifier i read as codeMap[i][c], a group of
     * groupValues[i] (the value each group publishes; an empty codeMap[i] keeps quasi-identifier i as it
     * is): generalized values (SPEC section 12). Classes, histograms and the class of every row are re-keyed
     * from this dataset's, without reading records again; declared category counts give way to the group
     * counts, and the values of a mapped quasi-identifier (when this dataset has values) to its groups'.
     */
    Dataset generalized(const std::vector<std::vector<std::uint32_t>>& codeMap,
                        const std::vector<std::vector<CategoryValue>>& groupValues) const;

    std::size_t regionCount() const { return mKept->regionIds.size(); }
    const std::string& regionId(RegionIndex r) const { return mKept->regionIds[r]; }
    const std::vector<Point>& points() const { return mKept->points; }
    const Schema& schema() const { return mSchema; }
    const ClassDictionary& classes() const { return mClasses; }
    /** Per-region class histograms of every loaded record (before any suppression). */
    const HistogramTable& regionHistograms() const { return mHistograms; }
    /** N: records loaded (weighted; people, when the dataset counts people), without dropped ones. */
    Count totalRecords() const { return mHistograms.grandTotal(); }

    std::size_t rows() const { return mKept->rowRegion.size(); }
    /** Region of an input row, or kNoRegion when the row was dropped. */
    RegionIndex rowRegion(std::size_t row) const { return mKept->rowRegion[row]; }
    ClassId rowClass(std::size_t row) const { return mRowClass[row]; }
    /** The records an input row stands for (1, or its count in a pre-aggregated table). */
    Count rowCount(std::size_t row) const { return mKept->rowCount.empty() ? 1 : mKept->rowCount[row]; }
    /**
     * What an input row adds to the count of its (region, class) group: rowCount(), or, when the dataset
     * counts people, 1 for the first row of its person in the group and 0 for the others.
     */
    Count rowWeight(std::size_t row) const { return mRowWeight ? (*mRowWeight)[row] : rowCount(row); }
    /** Whether every count is a count of distinct people (RecordTable::persons). */
    bool countsPeople() const { return !mKept->persons.empty(); }
    /** The person of an input row, when the dataset counts people. */
    std::uint32_t rowPerson(std::size_t row) const { return mKept->persons[row]; }
    /** Number of sensitive fields (SPEC section 10). */
    std::size_t sensitiveCount() const { return mKept->sensitiveCount; }
    /** Code of sensitive field `field` in an input row. */
    /** The value behind every code of each sensitive field (RecordTable::sensitiveValues); empty when not
     * known. */
    const std::vector<std::vector<CategoryValue>>& sensitiveValues() const { return mKept->sensitiveValues; }
    std::uint32_t rowSensitive(std::size_t row, std::size_t field) const
    {
        return mKept->sensitiveCodes[row * mKept->sensitiveCount + field];
    }
    /**
     * The value behind every category code of each quasi-identifier (RecordTable::quasiIdentifierValues);
     * empty when not known.
     */
    const std::vector<std::vector<CategoryValue>>& quasiIdentifierValues() const
    {
        return mQuasiIdentifierValues;
    }
    /** Whether the release publishes count rows (RecordTable::publishedRowKeys). */
    bool publishesCountRows() const { return !mKept->publishedRowKeys.empty(); }
    /** The key of an input row's other published values, when publishesCountRows(). */
    std::uint32_t publishedRowKey(std::size_t row) const { return mKept->publishedRowKeys[row]; }
    std::size_t droppedRows() const { return mDroppedRows; }
    Count droppedRecords() const { return mDroppedRecords; }

private:
    /** What generalizing leaves as it is, shared by a dataset, its copies and its generalizations. */
    struct Kept
    {
        std::vector<std::string> regionIds;
        std::vector<Point> points;
        std::vector<RegionIndex> rowRegion;
        std::vector<Count> rowCount;
        std::vector<std::uint32_t> persons;
        std::size_t sensitiveCount = 0;
        std::vector<std::uint32_t> sensitiveCodes;
        std::vector<std::vector<CategoryValue>> sensitiveValues;
        std::vector<std::uint32_t> publishedRowKeys;
    };

    std::shared_ptr<const Kept> mKept = std::make_shared<const Kept>();
    Schema mSchema;
    ClassDictionary mClasses;
    HistogramTable mHistograms;
    std::vector<ClassId> mRowClass;
    /** rowWeight() of every row when the dataset counts people (it depends on the classes); else null. */
    std::shared_ptr<const std::vector<Count>> mRowWeight;
    std::vector<std::vector<CategoryValue>> mQuasiIdentifierValues;
    std::size_t mDroppedRows = 0;
    Count mDroppedRecords = 0;
};

} // namespace vbas

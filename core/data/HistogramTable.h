#pragma once

#include "base/Feedback.h"
#include "base/Types.h"

#include <cstdint>
#include <vector>

namespace vbas
{

/** How many records of one equivalence class a region (or aggregate) holds. */
struct ClassCount
{
    ClassId cls;
    Count count;
};

/**
 * Equivalence-class histograms of many regions in one compressed table (CSR): the entries of
 * histogram i are entries(i), sorted by class id, every count > 0.
 *
 * Each histogram's anonymity (its smallest class count) and the number of classes at that count
 * are kept beside it, so reading a region's anonymity is O(1). Merging regions into aggregates
 * (mergeGroups) is linear in the number of entries.
 */
class HistogramTable
{
public:
    /** A contiguous run of entries. */
    struct Range
    {
        const ClassCount* first;
        const ClassCount* last;
        const ClassCount* begin() const { return first; }
        const ClassCount* end() const { return last; }
        std::size_t size() const { return std::size_t(last - first); }
    };

    /**
     * Counts rows into `histograms` histograms: row r adds rowCount[r] (1 when rowCount is null)
     * records of class rowClass[r] to histogram rowHistogram[r]; rows with kNoRegion are skipped.
     */
    static HistogramTable fromRows(const std::vector<RegionIndex>& rowHistogram,
                                   const std::vector<ClassId>& rowClass, const Count* rowCount,
                                   std::size_t histograms, std::size_t classCount, Feedback& feedback);

    /**
     * Sums histograms into groups: histogram i goes to group groupOf[i] (kNoSite: nowhere).
     * When `entryTarget` is given it receives, for every entry of this table, the index (into
     * the merged table's entries) of the entry it was added to, or kNoEntry.
     */
    HistogramTable mergeGroups(const std::vector<std::uint32_t>& groupOf, std::size_t groups,
                               std::size_t classCount, std::vector<std::size_t>* entryTarget = nullptr) const;

    /** The same histograms without the entries `keepEntry` rejects (by entry index). */
    HistogramTable filterEntries(const std::vector<bool>& keepEntry) const;

    /**
     * The same histograms with every class c counted as classMap[c] (ids below `classCount`): classes
     * mapped to one id are summed. Generalizing quasi-identifiers re-keys histograms this way, without
     * reading the records again.
     */
    HistogramTable remapClasses(const std::vector<ClassId>& classMap) const;

    /** Total count of each class over all histograms. */
    std::vector<Count> classTotals(std::size_t classCount) const;

    std::size_t size() const { return mTotals.size(); }
    Range entries(std::size_t i) const
    {
        return {mEntries.data() + mOffsets[i], mEntries.data() + mOffsets[i + 1]};
    }
    /** Index of the first entry of histogram i in allEntries(). */
    std::size_t firstEntry(std::size_t i) const { return mOffsets[i]; }
    const std::vector<ClassCount>& allEntries() const { return mEntries; }
    /** Records in histogram i. */
    Count total(std::size_t i) const { return mTotals[i]; }
    /** Smallest non-zero class count of histogram i; 0 when it holds no records. */
    Count anonymity(std::size_t i) const { return mAnonymity[i]; }
    /** Number of classes of histogram i whose count equals its anonymity. */
    std::uint32_t classesAtAnonymity(std::size_t i) const { return mAtAnonymity[i]; }
    /** Sum of all histograms. */
    Count grandTotal() const;

    static constexpr std::size_t kNoEntry = static_cast<std::size_t>(-1);

private:
    /** Fills totals and the anonymity index from the entries. */
    void index();

    std::vector<std::size_t> mOffsets{0};
    std::vector<ClassCount> mEntries;
    std::vector<Count> mTotals;
    std::vector<Count> mAnonymity;
    std::vector<std::uint32_t> mAtAnonymity;
};

} // namespace vbas

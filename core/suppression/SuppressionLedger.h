#pragma once

#include "data/ClassHistogram.h"
#include "data/OpenHashMap.h"
#include "data/RegionSet.h"
#include "partition/IncrementalPartition.h"
#include "privacy/Criteria.h"
#include "privacy/KMap.h"

#include <vector>

namespace vbas
{

/**
 * The suppression refinement's bookkeeping over an incremental partition: the class histogram of
 * every site's aggregate, the records it withholds (classes with fewer than k records, or under k-map fewer
 * than k people of the population, and with the l-diversity rule on, classes whose sensitive values fail it)
 * and how many sites form an aggregate or release records, so that a move costs only the entries of the
 * regions it moved.
 *
 * With the l-diversity rule on, every (site, class) group keeps per sensitive field its number of distinct
 * values and their sum of c ln c, updated as records move, so that a check reads no value: its memory grows
 * with the (group, value) pairs that hold records, never with groups times the values a field has.
 */
class SuppressionLedger
{
public:
    /**
     * `criteria`: those besides k (null: none); the ledger follows those its summaries decide. `population`:
     * under k-map, the people k counts (every region's move carries its people in every class); null: k
     * counts records.
     */
    SuppressionLedger(const RegionSet& regions, const IncrementalPartition& partition, Count k,
                      const Criteria* criteria = nullptr, const ClassPopulation* population = nullptr);
    /** The same over a fixed assignment: `regionSite` gives a region one of `sites` sites (or kNoSite). */
    SuppressionLedger(const RegionSet& regions, const std::vector<SiteIndex>& regionSite, std::size_t sites,
                      Count k, const Criteria* criteria = nullptr,
                      const ClassPopulation* population = nullptr);

    /** Moves the records of the changed regions between their aggregates. */
    void apply(const std::vector<IncrementalPartition::Change>& changes);
    /** Undoes apply() of the same changes. */
    void revert(const std::vector<IncrementalPartition::Change>& changes);

    /** Records in classes below k or failing l-diversity in their aggregate, over all aggregates. */
    Count withheld() const { return mWithheld; }
    Count withheld(SiteIndex s) const { return mSiteWithheld[s]; }
    /** Sites that receive at least one region (the aggregates formed). */
    std::size_t formed() const { return mFormed; }
    /** Sites whose aggregate releases at least one record. */
    std::size_t releasing() const { return mReleasing; }
    /** Records of class `cls` in the aggregate of site s. */
    Count count(SiteIndex s, ClassId cls) const
    {
        return mDense ? mCounts[std::size_t(s) * mClasses + cls] : mHistograms[s].count(cls);
    }
    /** Records of `region` that its aggregate would withhold if it held the histogram of site s. */
    Count withheldOf(RegionIndex region, SiteIndex s) const;
    /** Whether the aggregate of site s withholds none of its records of class `cls` (true when it has none).
     */
    bool releasesClass(SiteIndex s, ClassId cls) const { return withheldPart(s, cls, count(s, cls)) == 0; }
    /** What k is compared with for class `cls` in the aggregate of site s: its records, or under k-map its
     * people. */
    Count kCount(SiteIndex s, ClassId cls) const
    {
        return mPopulation != nullptr ? mPeople[std::size_t(s) * mClasses + cls] : count(s, cls);
    }
    /** kCount() were `region`, holding `records` of class `cls`, to join the aggregate of site s. */
    Count kCountJoined(SiteIndex s, RegionIndex region, ClassId cls, Count records) const
    {
        return kCount(s, cls) + (mPopulation != nullptr ? mPopulation->people(region, cls) : records);
    }
    /** Whether the aggregate of site s holds records of class `cls` but below k (by kCount()). */
    bool belowK(SiteIndex s, ClassId cls) const { return below(s, cls, count(s, cls)); }
    /**
     * The aggregate of site s's part of the non-uniform entropy (SPEC section 7) were `members` its regions,
     * at the ledger's class counts: N log2 N - sum over members of n log2 n, n the records a region keeps
     * released and N their sum. Summed over all sites, the entropy of the release.
     */
    double entropyTerm(SiteIndex s, const std::vector<RegionIndex>& members) const;
    /** Smallest class count of an aggregate with records, before suppression; 0 when none has records. */
    Count globalAnonymity() const;
    /**
     * (site, sensitive value of a class) pairs with records that the l-diversity bookkeeping stores: those of
     * values that more than one region holds.
     */
    std::size_t sensitiveCells() const { return mCells.size(); }
    /** Slots the l-diversity bookkeeping allocated (cells and per-field figures): its memory grows with them.
     */
    std::size_t sensitiveSlots() const { return mCells.capacity() + mFieldValues.capacity(); }

private:
    /**
     * Records of one sensitive value of one class in a region; a value is one (class, field, code), numbered
     * in that order.
     */
    struct SensitiveTally
    {
        ClassId cls;
        std::uint32_t field;
        std::uint32_t value;
        /**
         * Whether other regions hold the value too. A value of one region is all in one group, so its cell is
         * this tally's count, never stored (with many rare values, most of them).
         */
        bool shared;
        Count count;
    };
    /** One sensitive field in one (site, class) group with records: what the l-diversity rule reads. */
    struct FieldValues
    {
        Count distinct = 0;
        CountLogCountSum countLogCountSum;
    };

    void moveRecords(RegionIndex region, SiteIndex from, SiteIndex to);
    /** moveRecords()'s class counts with l-diversity or hash tables; `source`, `target`: dense rows or null.
     */
    void moveClasses(RegionIndex region, SiteIndex from, SiteIndex to, Count* source, Count* target);
    /**
     * Moves the sensitive values of class `cls` in `region` (its tallies from `tally` on, which it advances
     * past them) from the group of site `from` (kNoSite: from none) to that of site `to`.
     */
    void moveTallies(RegionIndex region, std::size_t& tally, ClassId cls, SiteIndex from, SiteIndex to);
    /** Whether `count` records of class `cls` in the aggregate of site s are below k. */
    bool below(SiteIndex s, ClassId cls, Count count) const
    {
        return count > 0 && (mPopulation != nullptr ? mPeople[std::size_t(s) * mClasses + cls] : count) < mK;
    }
    /** The records of class `cls`, `count` of them in the aggregate of site s, that it withholds. */
    Count withheldPart(SiteIndex s, ClassId cls, Count count) const
    {
        return below(s, cls, count) || (count > 0 && mSummarized && !diverse(s, cls, count)) ? count : 0;
    }
    /** Under k-map, moves the people of `region` in every class between the aggregates of two sites. */
    void movePeople(RegionIndex region, SiteIndex from, SiteIndex to);
    /** Whether the `count` records of class `cls` in the aggregate of site s pass the criteria it follows. */
    bool diverse(SiteIndex s, ClassId cls, Count count) const;
    void tallySensitiveValues();
    std::uint64_t groupKey(SiteIndex s, ClassId cls) const { return std::uint64_t(s) * mClasses + cls; }
    std::uint64_t cellKey(SiteIndex s, std::uint32_t value) const
    {
        return std::uint64_t(s) * mValues + value;
    }
    std::uint64_t fieldKey(SiteIndex s, ClassId cls, std::size_t field) const
    {
        return groupKey(s, cls) * mFields + field;
    }
    bool releases(SiteIndex s) const { return mSiteRecords[s] > mSiteWithheld[s]; }

    const RegionSet& mRegions;
    Count mK;
    std::size_t mClasses;
    /** Counts in one sites x classes table when it is small enough: a probe is then one read. */
    bool mDense;
    std::vector<Count> mCounts;
    std::vector<ClassHistogram> mHistograms;
    std::vector<Count> mSiteRecords;
    std::vector<Count> mSiteWithheld;
    std::vector<std::uint32_t> mRegionCount;
    /** Under k-map: the people k counts, and per site and class (sites x classes) their sum over its regions.
     */
    const ClassPopulation* mPopulation;
    std::vector<Count> mPeople;
    Count mWithheld = 0;
    std::size_t mFormed = 0;
    std::size_t mReleasing = 0;

    const Criteria* mCriteria;
    /** Whether a criterion the summaries decide is on: the ledger keeps them (else counts alone decide). */
    bool mSummarized;
    /** The summaries of one check, kept to allocate nothing per check. */
    mutable std::vector<FieldSummary> mSummaries;
    std::size_t mFields = 0;
    /** Sensitive values (class, field, code) that some region holds. */
    std::uint32_t mValues = 0;
    /** Per region (mTallyStart[r] .. mTallyStart[r + 1]), by value (so by class, then field). */
    std::vector<std::size_t> mTallyStart;
    std::vector<SensitiveTally> mTallies;
    /**
     * Records of every (site, shared value) that has some, by cellKey(): at most one cell per tally, however
     * many values a field has (a dense row per group would grow with groups times values).
     */
    OpenHashMap<std::uint64_t, Count> mCells;
    /** By fieldKey(), for every (site, class) group with records, kept up to date by every move. */
    OpenHashMap<std::uint64_t, FieldValues> mFieldValues;
};

} // namespace vbas

#pragma once

#include "data/ClassHistogram.h"
#include "data/RegionSet.h"
#include "partition/IncrementalPartition.h"
#include "suppression/Diversity.h"

#include <unordered_map>
#include <vector>

namespace vbas
{

/**
 * The suppression refinement's bookkeeping over an incremental partition: the class histogram of
 * every site's aggregate, the records it withholds (classes with fewer than k records, and with the
 * l-diversity rule on, classes whose sensitive values fail it) and how many sites form an aggregate
 * or release records, so that a move costs only the entries of the regions it moved.
 */
class SuppressionLedger
{
public:
    SuppressionLedger(const RegionSet& regions, const IncrementalPartition& partition, Count k,
                      const DiversityRule& diversity = {});
    /** The same over a fixed assignment: `regionSite` gives a region one of `sites` sites (or kNoSite). */
    SuppressionLedger(const RegionSet& regions, const std::vector<SiteIndex>& regionSite, std::size_t sites,
                      Count k, const DiversityRule& diversity = {});

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
    /** Whether class count `count` is below k (0 < count < k). */
    bool isWithheld(Count count) const { return count > 0 && count < mK; }
    /**
     * The aggregate of site s's part of the non-uniform entropy (SPEC section 7) were `members` its regions,
     * at the ledger's class counts: N log2 N - sum over members of n log2 n, n the records a region keeps
     * released and N their sum. Summed over all sites, the entropy of the release.
     */
    double entropyTerm(SiteIndex s, const std::vector<RegionIndex>& members) const;
    /** Smallest class count of an aggregate with records, before suppression; 0 when none has records. */
    Count globalAnonymity() const;

private:
    /** Records of one sensitive value (a slot: a field's first slot plus the value) of one class in a region.
     */
    struct SensitiveTally
    {
        ClassId cls;
        std::uint32_t slot;
        Count count;
    };

    void moveRecords(RegionIndex region, SiteIndex from, SiteIndex to);
    /** moveRecords()'s class counts with l-diversity or hash tables; `source`, `target`: dense rows or null.
     */
    void moveClasses(RegionIndex region, SiteIndex from, SiteIndex to, Count* source, Count* target);
    /** The records of class `cls`, `count` of them in the aggregate of site s, that it withholds. */
    Count withheldPart(SiteIndex s, ClassId cls, Count count) const
    {
        return isWithheld(count) || (count > 0 && mDiversity.enabled() && !diverse(s, cls, count)) ? count
                                                                                                   : 0;
    }
    /** Whether the `count` records of class `cls` in the aggregate of site s pass the l-diversity rule. */
    bool diverse(SiteIndex s, ClassId cls, Count count) const;
    void tallySensitiveValues();
    std::uint64_t groupKey(SiteIndex s, ClassId cls) const { return std::uint64_t(s) * mClasses + cls; }
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
    Count mWithheld = 0;
    std::size_t mFormed = 0;
    std::size_t mReleasing = 0;

    DiversityRule mDiversity;
    /** First slot of every sensitive field, and the end. */
    std::vector<std::uint32_t> mFieldSlots;
    /** Per region (mTallyStart[r] .. mTallyStart[r + 1]), by class then slot. */
    std::vector<std::size_t> mTallyStart;
    std::vector<SensitiveTally> mTallies;
    /** Per (site, class) group with records: the records of every slot. */
    std::unordered_map<std::uint64_t, std::vector<Count>> mSensitive;
};

} // namespace vbas

#pragma once

#include "data/ClassHistogram.h"
#include "data/RegionSet.h"
#include "partition/IncrementalPartition.h"

#include <map>
#include <vector>

namespace vbas
{

/**
 * ADC's bookkeeping over an incremental partition: the class histogram of every site's aggregate
 * and how many aggregates sit at each anonymity, so that the objective
 * v = alpha |S| - |S_alpha| (SPEC section 6; S = aggregates with records) costs only the
 * aggregates a move touched.
 */
class AdcLedger
{
public:
    // alpha |S| can pass 2^63 only with absurd inputs; 128 bits keep the comparison exact anyway.
    __extension__ using Objective = __int128;

    AdcLedger(const RegionSet& regions, const IncrementalPartition& partition);

    /** Moves the records of the changed regions between their aggregates. */
    void apply(const std::vector<IncrementalPartition::Change>& changes);
    /** Undoes apply() of the same changes. */
    void revert(const std::vector<IncrementalPartition::Change>& changes);

    Objective objective() const;
    /** alpha: smallest anonymity of an aggregate with records; 0 when none has records. */
    Count globalAnonymity() const { return mAnonymities.empty() ? 0 : mAnonymities.begin()->first; }
    const ClassHistogram& histogram(SiteIndex s) const { return mHistograms[s]; }
    Count anonymity(SiteIndex s) const { return mAnonymity[s]; }

private:
    void moveRecords(RegionIndex region, SiteIndex from, SiteIndex to);
    /** Re-reads the anonymity of the touched sites into the tally. */
    void settle();
    void tally(Count anonymity, int delta);

    const RegionSet& mRegions;
    std::vector<ClassHistogram> mHistograms;
    /** Anonymity of each site as counted in mAnonymities. */
    std::vector<Count> mAnonymity;
    std::map<Count, std::uint32_t> mAnonymities;
    std::size_t mWithRecords = 0;
    std::vector<SiteIndex> mTouched;
};

} // namespace vbas

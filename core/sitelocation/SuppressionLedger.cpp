#include "SuppressionLedger.h"

namespace vbas
{
namespace
{
/** Largest sites x classes table kept dense (32 MiB of counts); larger ones use hash tables. */
constexpr std::size_t kDenseLimit = std::size_t(1) << 22;
} // namespace

SuppressionLedger::SuppressionLedger(const RegionSet& regions, const IncrementalPartition& partition, Count k)
    : mRegions(regions)
    , mK(k)
    , mClasses(regions.classCount())
    , mDense(partition.sites().size() * regions.classCount() <= kDenseLimit)
    , mSiteRecords(partition.sites().size(), 0)
    , mSiteWithheld(partition.sites().size(), 0)
    , mRegionCount(partition.sites().size(), 0)
{
    const std::size_t sites = partition.sites().size();
    if (mDense)
        mCounts.assign(sites * mClasses, 0);
    else
        mHistograms.resize(sites);
    const std::vector<SiteIndex>& regionSite = partition.regionSite();
    for (RegionIndex r = 0; r < regions.size(); ++r)
    {
        const SiteIndex s = regionSite[r];
        const HistogramTable::Range entries = regions.histograms().entries(r);
        if (mDense)
            for (const ClassCount& entry : entries)
                mCounts[std::size_t(s) * mClasses + entry.cls] += entry.count;
        else
            mHistograms[s].add(entries);
        mSiteRecords[s] += regions.records(r);
        ++mRegionCount[s];
    }
    for (SiteIndex s = 0; s < sites; ++s)
    {
        mFormed += mRegionCount[s] > 0;
        // Every withheld record lies in exactly one member region's entry of its class.
        for (RegionIndex r : partition.members(s))
            mSiteWithheld[s] += withheldOf(r, s);
        mWithheld += mSiteWithheld[s];
        mReleasing += releases(s);
    }
}

void SuppressionLedger::moveRecords(RegionIndex region, SiteIndex from, SiteIndex to)
{
    mFormed -= --mRegionCount[from] == 0;
    mFormed += mRegionCount[to]++ == 0;
    const HistogramTable::Range entries = mRegions.histograms().entries(region);
    if (entries.size() == 0)
        return;
    mReleasing -= releases(from) + releases(to);
    Count* source = mDense ? mCounts.data() + std::size_t(from) * mClasses : nullptr;
    Count* target = mDense ? mCounts.data() + std::size_t(to) * mClasses : nullptr;
    for (const ClassCount& entry : entries)
    {
        const Count before = mDense ? source[entry.cls] : mHistograms[from].count(entry.cls);
        const Count after = mDense ? target[entry.cls] : mHistograms[to].count(entry.cls);
        // Unsigned wrap-around adds the signed differences exactly.
        const Count sourceChange = withheldPart(before - entry.count) - withheldPart(before);
        const Count targetChange = withheldPart(after + entry.count) - withheldPart(after);
        mSiteWithheld[from] += sourceChange;
        mSiteWithheld[to] += targetChange;
        mWithheld += sourceChange + targetChange;
        if (mDense)
        {
            source[entry.cls] = before - entry.count;
            target[entry.cls] = after + entry.count;
        }
    }
    if (!mDense)
    {
        mHistograms[from].remove(entries);
        mHistograms[to].add(entries);
    }
    const Count records = mRegions.records(region);
    mSiteRecords[from] -= records;
    mSiteRecords[to] += records;
    mReleasing += releases(from) + releases(to);
}

void SuppressionLedger::apply(const std::vector<IncrementalPartition::Change>& changes)
{
    for (const auto& change : changes)
        moveRecords(change.region, change.from, change.to);
}

void SuppressionLedger::revert(const std::vector<IncrementalPartition::Change>& changes)
{
    for (auto change = changes.rbegin(); change != changes.rend(); ++change)
        moveRecords(change->region, change->to, change->from);
}

Count SuppressionLedger::withheldOf(RegionIndex region, SiteIndex s) const
{
    Count sum = 0;
    for (const ClassCount& entry : mRegions.histograms().entries(region))
        if (isWithheld(count(s, entry.cls)))
            sum += entry.count;
    return sum;
}

Count SuppressionLedger::globalAnonymity() const
{
    Count alpha = 0;
    for (SiteIndex s = 0; s < mSiteRecords.size(); ++s)
    {
        Count anonymity = 0;
        if (mDense)
        {
            for (std::size_t c = 0; c < mClasses; ++c)
            {
                const Count n = mCounts[std::size_t(s) * mClasses + c];
                if (n > 0 && (anonymity == 0 || n < anonymity))
                    anonymity = n;
            }
        }
        else
            anonymity = mHistograms[s].anonymity();
        if (anonymity > 0 && (alpha == 0 || anonymity < alpha))
            alpha = anonymity;
    }
    return alpha;
}

} // namespace vbas

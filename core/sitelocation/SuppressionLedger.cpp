#include "SuppressionLedger.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace vbas
{
namespace
{
/** Largest sites x classes table kept dense (32 MiB of counts); larger ones use hash tables. */
constexpr std::size_t kDenseLimit = std::size_t(1) << 22;
} // namespace

SuppressionLedger::SuppressionLedger(const RegionSet& regions, const IncrementalPartition& partition, Count k,
                                     const DiversityRule& diversity)
    : SuppressionLedger(regions, partition.regionSite(), partition.sites().size(), k, diversity)
{
}

SuppressionLedger::SuppressionLedger(const RegionSet& regions, const std::vector<SiteIndex>& regionSite,
                                     std::size_t sites, Count k, const DiversityRule& diversity)
    : mRegions(regions)
    , mK(k)
    , mClasses(regions.classCount())
    , mDense(sites * regions.classCount() <= kDenseLimit)
    , mSiteRecords(sites, 0)
    , mSiteWithheld(sites, 0)
    , mRegionCount(sites, 0)
    , mDiversity(diversity)
{
    if (mDense)
        mCounts.assign(sites * mClasses, 0);
    else
        mHistograms.resize(sites);
    for (RegionIndex r = 0; r < regions.size(); ++r)
    {
        const SiteIndex s = regionSite[r];
        if (s == kNoSite)
            continue;
        const HistogramTable::Range entries = regions.histograms().entries(r);
        if (mDense)
            for (const ClassCount& entry : entries)
                mCounts[std::size_t(s) * mClasses + entry.cls] += entry.count;
        else
            mHistograms[s].add(entries);
        mSiteRecords[s] += regions.records(r);
        ++mRegionCount[s];
    }
    if (mDiversity.enabled())
    {
        tallySensitiveValues();
        for (RegionIndex r = 0; r < regions.size(); ++r)
            for (std::size_t t = mTallyStart[r]; regionSite[r] != kNoSite && t < mTallyStart[r + 1]; ++t)
            {
                std::vector<Count>& slots = mSensitive[groupKey(regionSite[r], mTallies[t].cls)];
                slots.resize(mFieldSlots.back(), 0);
                slots[mTallies[t].slot] += mTallies[t].count;
            }
    }
    // Every withheld record lies in exactly one member region's entry of its class.
    for (RegionIndex r = 0; r < regions.size(); ++r)
        if (regionSite[r] != kNoSite)
            mSiteWithheld[regionSite[r]] += withheldOf(r, regionSite[r]);
    for (SiteIndex s = 0; s < sites; ++s)
    {
        mFormed += mRegionCount[s] > 0;
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
    if (mDense && !mDiversity.enabled())
    {
        // The refinement's inner loop (most of its time): counts alone decide what is withheld.
        const auto below = [k = mK](Count count) -> Count
        {
            return count > 0 && count < k ? count : 0;
        };
        Count sourceChange = 0, targetChange = 0; // unsigned wrap-around adds signed differences exactly
        for (const ClassCount& entry : entries)
        {
            const Count before = source[entry.cls];
            const Count after = target[entry.cls];
            source[entry.cls] = before - entry.count;
            target[entry.cls] = after + entry.count;
            sourceChange += below(before - entry.count) - below(before);
            targetChange += below(after + entry.count) - below(after);
        }
        mSiteWithheld[from] += sourceChange;
        mSiteWithheld[to] += targetChange;
        mWithheld += sourceChange + targetChange;
    }
    else
        moveClasses(region, from, to, source, target);
    const Count records = mRegions.records(region);
    mSiteRecords[from] -= records;
    mSiteRecords[to] += records;
    mReleasing += releases(from) + releases(to);
}

void SuppressionLedger::moveClasses(RegionIndex region, SiteIndex from, SiteIndex to, Count* source,
                                    Count* target)
{
    const HistogramTable::Range entries = mRegions.histograms().entries(region);
    const bool diversity = mDiversity.enabled();
    std::size_t tally = diversity ? mTallyStart[region] : 0;
    for (const ClassCount& entry : entries)
    {
        const Count before = mDense ? source[entry.cls] : mHistograms[from].count(entry.cls);
        const Count after = mDense ? target[entry.cls] : mHistograms[to].count(entry.cls);
        const Count sourceBefore = withheldPart(from, entry.cls, before);
        const Count targetBefore = withheldPart(to, entry.cls, after);
        if (diversity)
        {
            // The class's sensitive values move with its records (tallies and entries both by class).
            std::vector<Count>& sourceSlots = mSensitive[groupKey(from, entry.cls)];
            std::vector<Count>& targetSlots = mSensitive[groupKey(to, entry.cls)];
            targetSlots.resize(mFieldSlots.back(), 0);
            for (; tally < mTallyStart[region + 1] && mTallies[tally].cls == entry.cls; ++tally)
            {
                sourceSlots[mTallies[tally].slot] -= mTallies[tally].count;
                targetSlots[mTallies[tally].slot] += mTallies[tally].count;
            }
            if (before == entry.count)
                mSensitive.erase(groupKey(from, entry.cls));
        }
        // Unsigned wrap-around adds the signed differences exactly.
        const Count sourceChange = withheldPart(from, entry.cls, before - entry.count) - sourceBefore;
        const Count targetChange = withheldPart(to, entry.cls, after + entry.count) - targetBefore;
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
        if (withheldPart(s, entry.cls, count(s, entry.cls)) > 0)
            sum += entry.count;
    return sum;
}

double SuppressionLedger::entropyTerm(SiteIndex s, const std::vector<RegionIndex>& members) const
{
    const auto nLogN = [](Count n)
    {
        return n > 0 ? double(n) * std::log2(double(n)) : 0.0;
    };
    double term = 0.0;
    Count released = 0;
    for (const RegionIndex region : members)
    {
        Count kept = 0;
        for (const ClassCount& entry : mRegions.histograms().entries(region))
            if (withheldPart(s, entry.cls, count(s, entry.cls)) == 0)
                kept += entry.count;
        term -= nLogN(kept);
        released += kept;
    }
    return term + nLogN(released);
}

bool SuppressionLedger::diverse(SiteIndex s, ClassId cls, Count count) const
{
    const auto group = mSensitive.find(groupKey(s, cls));
    if (group == mSensitive.end())
        return false;
    const std::vector<Count>& slots = group->second;
    for (std::size_t field = 0; field + 1 < mFieldSlots.size(); ++field)
    {
        Count distinct = 0;
        double countLogCountSum = 0.0;
        for (std::uint32_t slot = mFieldSlots[field]; slot < mFieldSlots[field + 1]; ++slot)
            if (slots[slot] > 0)
            {
                ++distinct;
                countLogCountSum += double(slots[slot]) * std::log(double(slots[slot]));
            }
        if (!passesDiversity(mDiversity, distinct, count, countLogCountSum))
            return false;
    }
    return true;
}

void SuppressionLedger::tallySensitiveValues()
{
    const Dataset& dataset = mRegions.dataset();
    const std::size_t fields = dataset.sensitiveCount();
    mFieldSlots.assign(fields + 1, 0);
    for (std::size_t field = 0; field < fields; ++field)
    {
        std::uint32_t values = 0;
        for (std::size_t row = 0; row < dataset.rows(); ++row)
            values = std::max(values, dataset.rowSensitive(row, field) + 1);
        mFieldSlots[field + 1] = mFieldSlots[field] + values;
    }
    std::vector<std::pair<RegionIndex, SensitiveTally>> tallies;
    for (std::size_t row = 0; row < dataset.rows(); ++row)
    {
        const RegionIndex region = dataset.rowRegion(row);
        if (region == kNoRegion)
            continue;
        const ClassId cls = dataset.rowClass(row);
        // A class global suppression withheld is in no region's histogram.
        const HistogramTable::Range entries = mRegions.histograms().entries(region);
        const ClassCount* entry = std::lower_bound(entries.begin(), entries.end(), cls,
                                                   [](const ClassCount& e, ClassId c) { return e.cls < c; });
        if (entry == entries.end() || entry->cls != cls)
            continue;
        for (std::size_t field = 0; field < fields; ++field)
            tallies.push_back(
                {region,
                 {cls, mFieldSlots[field] + dataset.rowSensitive(row, field), dataset.rowCount(row)}});
    }
    std::sort(tallies.begin(), tallies.end(),
              [](const auto& a, const auto& b) {
                  return std::tie(a.first, a.second.cls, a.second.slot) <
                         std::tie(b.first, b.second.cls, b.second.slot);
              });
    mTallyStart.assign(mRegions.size() + 1, 0);
    for (std::size_t t = 0; t < tallies.size(); ++t)
    {
        const auto& [region, tally] = tallies[t];
        if (!mTallies.empty() && t > 0 && tallies[t - 1].first == region &&
            mTallies.back().cls == tally.cls && mTallies.back().slot == tally.slot)
            mTallies.back().count += tally.count;
        else
        {
            mTallies.push_back(tally);
            ++mTallyStart[region + 1];
        }
    }
    for (RegionIndex r = 0; r < mRegions.size(); ++r)
        mTallyStart[r + 1] += mTallyStart[r];
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

#include "AdcLedger.h"

#include <algorithm>

namespace vbas
{

AdcLedger::AdcLedger(const RegionSet& regions, const IncrementalPartition& partition)
    : mRegions(regions)
    , mHistograms(partition.sites().size())
    , mAnonymity(partition.sites().size(), 0)
{
    const std::vector<SiteIndex>& regionSite = partition.regionSite();
    for (RegionIndex r = 0; r < regions.size(); ++r)
        mHistograms[regionSite[r]].add(regions.histograms().entries(r));
    for (SiteIndex s = 0; s < mHistograms.size(); ++s)
    {
        mAnonymity[s] = mHistograms[s].anonymity();
        tally(mAnonymity[s], +1);
    }
}

void AdcLedger::tally(Count anonymity, int delta)
{
    if (anonymity == 0)
        return;
    if (delta > 0)
    {
        ++mAnonymities[anonymity];
        ++mWithRecords;
        return;
    }
    auto it = mAnonymities.find(anonymity);
    if (--it->second == 0)
        mAnonymities.erase(it);
    --mWithRecords;
}

void AdcLedger::moveRecords(RegionIndex region, SiteIndex from, SiteIndex to)
{
    const HistogramTable::Range entries = mRegions.histograms().entries(region);
    if (entries.size() == 0)
        return;
    mHistograms[from].remove(entries);
    mHistograms[to].add(entries);
    mTouched.push_back(from);
    mTouched.push_back(to);
}

void AdcLedger::settle()
{
    std::sort(mTouched.begin(), mTouched.end());
    mTouched.erase(std::unique(mTouched.begin(), mTouched.end()), mTouched.end());
    for (SiteIndex s : mTouched)
    {
        tally(mAnonymity[s], -1);
        mAnonymity[s] = mHistograms[s].anonymity();
        tally(mAnonymity[s], +1);
    }
    mTouched.clear();
}

void AdcLedger::apply(const std::vector<IncrementalPartition::Change>& changes)
{
    for (const auto& change : changes)
        moveRecords(change.region, change.from, change.to);
    settle();
}

void AdcLedger::revert(const std::vector<IncrementalPartition::Change>& changes)
{
    for (auto change = changes.rbegin(); change != changes.rend(); ++change)
        moveRecords(change->region, change->to, change->from);
    settle();
}

AdcLedger::Objective AdcLedger::objective() const
{
    if (mAnonymities.empty())
        return 0;
    const auto& [alpha, atAlpha] = *mAnonymities.begin();
    return Objective(alpha) * Objective(mWithRecords) - Objective(atAlpha);
}

} // namespace vbas

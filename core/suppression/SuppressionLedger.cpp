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
                                     const Criteria* criteria, const ClassPopulation* population)
    : SuppressionLedger(regions, partition.regionSite(), partition.sites().size(), k, criteria, population)
{
}

SuppressionLedger::SuppressionLedger(const RegionSet& regions, const std::vector<SiteIndex>& regionSite,
                                     std::size_t sites, Count k, const Criteria* criteria,
                                     const ClassPopulation* population)
    : mRegions(regions)
    , mK(k)
    , mClasses(regions.classCount())
    , mDense(sites * regions.classCount() <= kDenseLimit)
    , mSiteRecords(sites, 0)
    , mSiteWithheld(sites, 0)
    , mRegionCount(sites, 0)
    , mPopulation(population)
    , mCriteria(criteria)
    , mSummarized(criteria != nullptr && criteria->summarized())
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
    if (mPopulation != nullptr)
    {
        mPeople.assign(sites * mClasses, 0);
        for (RegionIndex r = 0; r < regions.size(); ++r)
            if (regionSite[r] != kNoSite)
                for (ClassId cls = 0; cls < mClasses; ++cls)
                    mPeople[std::size_t(regionSite[r]) * mClasses + cls] += mPopulation->people(r, cls);
    }
    if (mSummarized)
    {
        tallySensitiveValues();
        for (RegionIndex r = 0; r < regions.size(); ++r)
            for (std::size_t t = mTallyStart[r]; regionSite[r] != kNoSite && t < mTallyStart[r + 1];)
                moveTallies(r, t, mTallies[t].cls, kNoSite, regionSite[r]);
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
    // Under k-map a region without records still carries people, who may release the records of others.
    if (entries.size() == 0 && mPopulation == nullptr)
        return;
    mReleasing -= releases(from) + releases(to);
    if (mPopulation != nullptr)
        movePeople(region, from, to);
    Count* source = mDense ? mCounts.data() + std::size_t(from) * mClasses : nullptr;
    Count* target = mDense ? mCounts.data() + std::size_t(to) * mClasses : nullptr;
    if (mDense && !mSummarized && mPopulation == nullptr)
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
    const bool diversity = mSummarized;
    std::size_t tally = diversity ? mTallyStart[region] : 0;
    for (const ClassCount& entry : entries)
    {
        const Count before = mDense ? source[entry.cls] : mHistograms[from].count(entry.cls);
        const Count after = mDense ? target[entry.cls] : mHistograms[to].count(entry.cls);
        const Count sourceBefore = withheldPart(from, entry.cls, before);
        const Count targetBefore = withheldPart(to, entry.cls, after);
        // The class's sensitive values move with its records (tallies and entries both by class).
        if (diversity)
            moveTallies(region, tally, entry.cls, from, to);
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

void SuppressionLedger::movePeople(RegionIndex region, SiteIndex from, SiteIndex to)
{
    const Count* people = mPopulation->row(region);
    for (ClassId cls = 0; cls < mClasses; ++cls)
    {
        if (people[cls] == 0)
            continue;
        // The records stay; what is withheld of them changes with the people they hide among.
        const Count sourceCount = count(from, cls), targetCount = count(to, cls);
        const Count sourceBefore = withheldPart(from, cls, sourceCount);
        const Count targetBefore = withheldPart(to, cls, targetCount);
        mPeople[std::size_t(from) * mClasses + cls] -= people[cls];
        mPeople[std::size_t(to) * mClasses + cls] += people[cls];
        // Unsigned wrap-around adds the signed differences exactly.
        const Count sourceChange = withheldPart(from, cls, sourceCount) - sourceBefore;
        const Count targetChange = withheldPart(to, cls, targetCount) - targetBefore;
        mSiteWithheld[from] += sourceChange;
        mSiteWithheld[to] += targetChange;
        mWithheld += sourceChange + targetChange;
    }
}

void SuppressionLedger::moveTallies(RegionIndex region, std::size_t& tally, ClassId cls, SiteIndex from,
                                    SiteIndex to)
{
    const std::size_t end = mTallyStart[region + 1];
    while (tally < end && mTallies[tally].cls == cls)
    {
        const std::uint32_t field = mTallies[tally].field;
        // The target's figures first: adding an entry may move the others, finding one moves none.
        FieldValues& target = mFieldValues.insert(fieldKey(to, cls, field));
        FieldValues* source = from == kNoSite ? nullptr : mFieldValues.find(fieldKey(from, cls, field));
        for (; tally < end && mTallies[tally].cls == cls && mTallies[tally].field == field; ++tally)
        {
            const SensitiveTally& moved = mTallies[tally];
            if (!moved.shared)
            {
                if (source != nullptr)
                {
                    --source->distinct;
                    source->countLogCountSum.change(moved.count, 0);
                }
                ++target.distinct;
                target.countLogCountSum.add(moved.count);
                continue;
            }
            if (source != nullptr)
            {
                Count* cell = mCells.find(cellKey(from, moved.value));
                source->countLogCountSum.change(*cell, *cell - moved.count);
                *cell -= moved.count;
                if (*cell == 0)
                {
                    --source->distinct;
                    mCells.erase(cellKey(from, moved.value));
                }
            }
            Count& cell = mCells.insert(cellKey(to, moved.value));
            target.distinct += cell == 0;
            target.countLogCountSum.change(cell, cell + moved.count);
            cell += moved.count;
        }
        if (source != nullptr && source->distinct == 0)
            mFieldValues.erase(fieldKey(from, cls, field));
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
    mSummaries.resize(mFields);
    for (std::size_t field = 0; field < mFields; ++field)
    {
        const FieldValues* values = mFieldValues.find(fieldKey(s, cls, field));
        if (values == nullptr)
            return false;
        mSummaries[field] = {values->distinct, &values->countLogCountSum};
    }
    return mCriteria->passesSummaries(count, mSummaries);
}

void SuppressionLedger::tallySensitiveValues()
{
    const Dataset& dataset = mRegions.dataset();
    mFields = dataset.sensitiveCount();
    struct RowValue
    {
        RegionIndex region;
        ClassId cls;
        std::uint32_t field;
        std::uint32_t code;
        Count count;
        std::uint32_t value;
    };
    std::vector<RowValue> rowValues;
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
        for (std::size_t field = 0; field < mFields; ++field)
            rowValues.push_back({region, cls, std::uint32_t(field), dataset.rowSensitive(row, field),
                                 dataset.rowWeight(row), 0});
    }
    // Values numbered in (class, field, code) order: a region's tallies by value then run class by class,
    // as its histogram entries do, and within a class field by field.
    std::sort(rowValues.begin(), rowValues.end(),
              [](const RowValue& a, const RowValue& b)
              { return std::tie(a.cls, a.field, a.code) < std::tie(b.cls, b.field, b.code); });
    for (std::size_t i = 0; i < rowValues.size(); ++i)
    {
        const bool same =
            i > 0 && std::tie(rowValues[i].cls, rowValues[i].field, rowValues[i].code) ==
                         std::tie(rowValues[i - 1].cls, rowValues[i - 1].field, rowValues[i - 1].code);
        if (!same)
            ++mValues;
        rowValues[i].value = mValues - 1;
    }
    std::sort(rowValues.begin(), rowValues.end(),
              [](const RowValue& a, const RowValue& b)
              { return std::tie(a.region, a.value) < std::tie(b.region, b.value); });
    mTallyStart.assign(mRegions.size() + 1, 0);
    std::vector<std::uint32_t> regionsOfValue(mValues, 0);
    for (std::size_t i = 0; i < rowValues.size(); ++i)
    {
        const RowValue& row = rowValues[i];
        if (i > 0 && rowValues[i - 1].region == row.region && rowValues[i - 1].value == row.value)
            mTallies.back().count += row.count;
        else
        {
            mTallies.push_back({row.cls, row.field, row.value, false, row.count});
            ++mTallyStart[row.region + 1];
            ++regionsOfValue[row.value];
        }
    }
    for (RegionIndex r = 0; r < mRegions.size(); ++r)
        mTallyStart[r + 1] += mTallyStart[r];
    for (SensitiveTally& tally : mTallies)
        tally.shared = regionsOfValue[tally.value] > 1;
}

Count SuppressionLedger::globalAnonymity() const
{
    Count alpha = 0;
    if (mPopulation != nullptr)
    {
        // Under k-map, the fewest people any group with records hides among.
        for (SiteIndex s = 0; s < mSiteRecords.size(); ++s)
            for (ClassId cls = 0; cls < mClasses; ++cls)
                if (count(s, cls) > 0 && (alpha == 0 || kCount(s, cls) < alpha))
                    alpha = kCount(s, cls);
        return alpha;
    }
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

#include "HistogramTable.h"

#include "base/CompressedLists.h"

#include <algorithm>
#include <numeric>

namespace vbas
{
namespace
{

constexpr std::uint32_t kUnsetSlot = static_cast<std::uint32_t>(-1);

/** Counting sort: items grouped by key, stable; returns offsets (keys + 1) and the order. */
void groupByKey(const std::vector<std::uint32_t>& keyOf, std::size_t keys, std::vector<std::size_t>& offsets,
                std::vector<std::uint32_t>& order)
{
    fillCompressedLists(
        keys,
        [&](auto&& emit)
        {
            for (std::size_t item = 0; item < keyOf.size(); ++item)
                if (keyOf[item] < keys)
                    emit(keyOf[item], static_cast<std::uint32_t>(item));
        },
        offsets, order);
}

/**
 * Sums (class, count) items of one group at a time into entries sorted by class. After flush(),
 * positionOf() tells where each class of the group landed, until reset() clears the group.
 */
class Accumulator
{
public:
    explicit Accumulator(std::size_t classCount)
        : mSlot(classCount, kUnsetSlot)
    {
    }

    void add(ClassId cls, Count count)
    {
        if (mSlot[cls] == kUnsetSlot)
        {
            mSlot[cls] = static_cast<std::uint32_t>(mTouched.size());
            mTouched.push_back({cls, 0});
        }
        mTouched[mSlot[cls]].count += count;
    }

    void flush(std::vector<ClassCount>& out)
    {
        std::sort(mTouched.begin(), mTouched.end(),
                  [](const ClassCount& a, const ClassCount& b) { return a.cls < b.cls; });
        mBase = out.size();
        for (std::size_t i = 0; i < mTouched.size(); ++i)
        {
            out.push_back(mTouched[i]);
            mSlot[mTouched[i].cls] = static_cast<std::uint32_t>(i);
        }
    }

    std::size_t positionOf(ClassId cls) const { return mBase + mSlot[cls]; }

    void reset()
    {
        for (const ClassCount& entry : mTouched)
            mSlot[entry.cls] = kUnsetSlot;
        mTouched.clear();
    }

private:
    std::vector<std::uint32_t> mSlot;
    std::vector<ClassCount> mTouched;
    std::size_t mBase = 0;
};

} // namespace

HistogramTable HistogramTable::fromRows(const std::vector<RegionIndex>& rowHistogram,
                                        const std::vector<ClassId>& rowClass, const Count* rowCount,
                                        std::size_t histograms, std::size_t classCount, Feedback& feedback)
{
    std::vector<std::size_t> rowOffsets;
    std::vector<std::uint32_t> rowOrder;
    groupByKey(rowHistogram, histograms, rowOffsets, rowOrder);

    HistogramTable table;
    table.mOffsets.assign(1, 0);
    table.mOffsets.reserve(histograms + 1);
    Accumulator accumulator(classCount);
    for (std::size_t h = 0; h < histograms; ++h)
    {
        if (h % 4096 == 0)
            feedback.checkCanceled();
        for (std::size_t i = rowOffsets[h]; i < rowOffsets[h + 1]; ++i)
        {
            const std::uint32_t row = rowOrder[i];
            accumulator.add(rowClass[row], rowCount != nullptr ? rowCount[row] : 1);
        }
        accumulator.flush(table.mEntries);
        accumulator.reset();
        table.mOffsets.push_back(table.mEntries.size());
    }
    table.index();
    return table;
}

HistogramTable HistogramTable::mergeGroups(const std::vector<std::uint32_t>& groupOf, std::size_t groups,
                                           std::size_t classCount,
                                           std::vector<std::size_t>* entryTarget) const
{
    std::vector<std::size_t> memberOffsets;
    std::vector<std::uint32_t> members;
    groupByKey(groupOf, groups, memberOffsets, members);
    if (entryTarget != nullptr)
        entryTarget->assign(mEntries.size(), kNoEntry);

    HistogramTable merged;
    merged.mOffsets.assign(1, 0);
    merged.mOffsets.reserve(groups + 1);
    Accumulator accumulator(classCount);
    for (std::size_t g = 0; g < groups; ++g)
    {
        for (std::size_t m = memberOffsets[g]; m < memberOffsets[g + 1]; ++m)
            for (const ClassCount& entry : entries(members[m]))
                accumulator.add(entry.cls, entry.count);
        accumulator.flush(merged.mEntries);
        if (entryTarget != nullptr)
            for (std::size_t m = memberOffsets[g]; m < memberOffsets[g + 1]; ++m)
                for (std::size_t e = mOffsets[members[m]]; e < mOffsets[members[m] + 1]; ++e)
                    (*entryTarget)[e] = accumulator.positionOf(mEntries[e].cls);
        accumulator.reset();
        merged.mOffsets.push_back(merged.mEntries.size());
    }
    merged.index();
    return merged;
}

HistogramTable HistogramTable::filterEntries(const std::vector<bool>& keepEntry) const
{
    HistogramTable filtered;
    filtered.mOffsets.assign(1, 0);
    filtered.mOffsets.reserve(mOffsets.size());
    filtered.mEntries.reserve(mEntries.size());
    for (std::size_t h = 0; h + 1 < mOffsets.size(); ++h)
    {
        for (std::size_t e = mOffsets[h]; e < mOffsets[h + 1]; ++e)
            if (keepEntry[e])
                filtered.mEntries.push_back(mEntries[e]);
        filtered.mOffsets.push_back(filtered.mEntries.size());
    }
    filtered.index();
    return filtered;
}

HistogramTable HistogramTable::remapClasses(const std::vector<ClassId>& classMap) const
{
    HistogramTable remapped;
    remapped.mOffsets.assign(1, 0);
    remapped.mOffsets.reserve(mOffsets.size());
    remapped.mEntries.reserve(mEntries.size());
    std::vector<ClassCount> histogram;
    for (std::size_t h = 0; h + 1 < mOffsets.size(); ++h)
    {
        histogram.clear();
        for (std::size_t e = mOffsets[h]; e < mOffsets[h + 1]; ++e)
            histogram.push_back({classMap[mEntries[e].cls], mEntries[e].count});
        std::sort(histogram.begin(), histogram.end(),
                  [](const ClassCount& a, const ClassCount& b) { return a.cls < b.cls; });
        for (const ClassCount& entry : histogram)
        {
            if (remapped.mEntries.size() > remapped.mOffsets.back() &&
                remapped.mEntries.back().cls == entry.cls)
                remapped.mEntries.back().count += entry.count;
            else
                remapped.mEntries.push_back(entry);
        }
        remapped.mOffsets.push_back(remapped.mEntries.size());
    }
    remapped.index();
    return remapped;
}

std::vector<Count> HistogramTable::classTotals(std::size_t classCount) const
{
    std::vector<Count> totals(classCount, 0);
    for (const ClassCount& entry : mEntries)
        totals[entry.cls] += entry.count;
    return totals;
}

Count HistogramTable::grandTotal() const
{
    return std::accumulate(mTotals.begin(), mTotals.end(), Count(0));
}

void HistogramTable::index()
{
    const std::size_t histograms = mOffsets.size() - 1;
    mTotals.assign(histograms, 0);
    mAnonymity.assign(histograms, 0);
    mAtAnonymity.assign(histograms, 0);
    for (std::size_t h = 0; h < histograms; ++h)
    {
        Count total = 0;
        Count smallest = 0;
        std::uint32_t atSmallest = 0;
        for (std::size_t e = mOffsets[h]; e < mOffsets[h + 1]; ++e)
        {
            const Count count = mEntries[e].count;
            total += count;
            if (smallest == 0 || count < smallest)
            {
                smallest = count;
                atSmallest = 1;
            }
            else if (count == smallest)
                ++atSmallest;
        }
        mTotals[h] = total;
        mAnonymity[h] = smallest;
        mAtAnonymity[h] = atSmallest;
    }
}

} // namespace vbas

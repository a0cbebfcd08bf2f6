#include "ClassHistogram.h"

#include <algorithm>

namespace vbas
{
namespace
{
std::size_t hashOf(ClassId cls)
{
    return std::size_t(cls) * 0x9E3779B97F4A7C15ULL >> 16;
}
} // namespace

ClassHistogram::ClassHistogram()
    : mKeys(16, kEmpty)
    , mCounts(16, 0)
{
}

void ClassHistogram::add(HistogramTable::Range entries)
{
    for (const ClassCount& entry : entries)
        change(entry.cls, entry.count, true);
}

void ClassHistogram::remove(HistogramTable::Range entries)
{
    for (const ClassCount& entry : entries)
        change(entry.cls, entry.count, false);
}

std::size_t ClassHistogram::slotOf(ClassId cls) const
{
    const std::size_t mask = mKeys.size() - 1;
    std::size_t slot = hashOf(cls) & mask;
    while (mKeys[slot] != kEmpty && mKeys[slot] != cls)
        slot = (slot + 1) & mask;
    return slot;
}

Count ClassHistogram::count(ClassId cls) const
{
    const std::size_t slot = slotOf(cls);
    return mKeys[slot] == cls ? mCounts[slot] : 0;
}

void ClassHistogram::change(ClassId cls, Count amount, bool adding)
{
    if (adding && (mSize + 1) * 2 > mKeys.size())
        grow();
    const std::size_t slot = slotOf(cls);
    const Count before = mKeys[slot] == cls ? mCounts[slot] : 0;
    const Count after = adding ? before + amount : before - amount;
    mAnonymityKnown = false;
    mRecords = adding ? mRecords + amount : mRecords - amount;
    if (after == 0)
    {
        erase(slot);
        return;
    }
    if (mKeys[slot] != cls)
    {
        mKeys[slot] = cls;
        ++mSize;
    }
    mCounts[slot] = after;
}

void ClassHistogram::erase(std::size_t slot)
{
    // Backward-shift deletion keeps probe sequences intact without tombstones.
    const std::size_t mask = mKeys.size() - 1;
    mKeys[slot] = kEmpty;
    --mSize;
    std::size_t hole = slot;
    for (std::size_t next = (slot + 1) & mask; mKeys[next] != kEmpty; next = (next + 1) & mask)
    {
        const std::size_t home = hashOf(mKeys[next]) & mask;
        // Move `next` into the hole when its home lies cyclically outside (hole, next].
        const bool movable = hole <= next ? (home <= hole || home > next) : (home <= hole && home > next);
        if (movable)
        {
            mKeys[hole] = mKeys[next];
            mCounts[hole] = mCounts[next];
            mKeys[next] = kEmpty;
            hole = next;
        }
    }
}

void ClassHistogram::grow()
{
    std::vector<ClassId> keys(mKeys.size() * 2, kEmpty);
    std::vector<Count> counts(keys.size(), 0);
    keys.swap(mKeys);
    counts.swap(mCounts);
    for (std::size_t i = 0; i < keys.size(); ++i)
        if (keys[i] != kEmpty)
        {
            const std::size_t slot = slotOf(keys[i]);
            mKeys[slot] = keys[i];
            mCounts[slot] = counts[i];
        }
}

Count ClassHistogram::anonymity() const
{
    if (!mAnonymityKnown)
    {
        mAnonymity = 0;
        for (std::size_t slot = 0; slot < mKeys.size(); ++slot)
            if (mKeys[slot] != kEmpty && (mAnonymity == 0 || mCounts[slot] < mAnonymity))
                mAnonymity = mCounts[slot];
        mAnonymityKnown = true;
    }
    return mAnonymity;
}

std::vector<ClassId> ClassHistogram::classesAt(Count cardinality) const

{
    std::vector<ClassId> found;
    for (std::size_t slot = 0; slot < mKeys.size(); ++slot)
        if (mKeys[slot] != kEmpty && mCounts[slot] == cardinality)
            found.push_back(mKeys[slot]);
    std::sort(found.begin(), found.end());
    return found;
}

} // namespace vbas

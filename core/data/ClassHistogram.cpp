#include "ClassHistogram.h"

#include <algorithm>

namespace vbas
{
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

Count ClassHistogram::count(ClassId cls) const
{
    const Count* count = mCounts.find(cls);
    return count != nullptr ? *count : 0;
}

void ClassHistogram::change(ClassId cls, Count amount, bool adding)
{
    Count& count = mCounts.insert(cls);
    count = adding ? count + amount : count - amount;
    mAnonymityKnown = false;
    mRecords = adding ? mRecords + amount : mRecords - amount;
    if (count == 0)
        mCounts.erase(cls);
}

Count ClassHistogram::anonymity() const
{
    if (!mAnonymityKnown)
    {
        mAnonymity = 0;
        mCounts.forEach(
            [this](ClassId, Count count)
            {
                if (mAnonymity == 0 || count < mAnonymity)
                    mAnonymity = count;
            });
        mAnonymityKnown = true;
    }
    return mAnonymity;
}

std::vector<ClassId> ClassHistogram::classesAt(Count cardinality) const
{
    std::vector<ClassId> found;
    mCounts.forEach(
        [&](ClassId cls, Count count)
        {
            if (count == cardinality)
                found.push_back(cls);
        });
    std::sort(found.begin(), found.end());
    return found;
}

} // namespace vbas

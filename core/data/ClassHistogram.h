#pragma once

#include "HistogramTable.h"
#include "OpenHashMap.h"
#include "base/Types.h"

#include <cstdint>
#include <vector>

namespace vbas
{

/**
 * A mutable class histogram of one aggregate that follows region moves (ADC): counts by class in
 * an open-addressing table. Adding or removing a region's entries costs one probe per entry; the
 * anonymity is recomputed on the first read after a change (one scan), because ADC reads it once
 * per move for the few aggregates a move touched.
 */
class ClassHistogram
{
public:
    void add(HistogramTable::Range entries);
    void remove(HistogramTable::Range entries);

    /** Smallest non-zero class count; 0 when empty. */
    Count anonymity() const;
    Count count(ClassId cls) const;
    Count records() const { return mRecords; }
    std::size_t classes() const { return mCounts.size(); }
    /** Classes whose count equals `cardinality`, in class-id (key) order. */
    std::vector<ClassId> classesAt(Count cardinality) const;

private:
    void change(ClassId cls, Count amount, bool adding);

    OpenHashMap<ClassId, Count> mCounts;
    Count mRecords = 0;
    mutable Count mAnonymity = 0;
    mutable bool mAnonymityKnown = true;
};

} // namespace vbas

#pragma once

#include "Dataset.h"

namespace vbas
{

/**
 * The initial regions as the stages see them: points and class histograms after global
 * suppression (SPEC section 2, step 2). Site counters, locators and partitioners read only this.
 */
class RegionSet
{
public:
    RegionSet(const Dataset& dataset, HistogramTable histograms);

    const Dataset& dataset() const { return *mDataset; }
    std::size_t size() const { return mHistograms.size(); }
    const std::vector<Point>& points() const { return mDataset->points(); }
    const Point& point(RegionIndex r) const { return mDataset->points()[r]; }
    const HistogramTable& histograms() const { return mHistograms; }
    Count records(RegionIndex r) const { return mHistograms.total(r); }
    /** N after global suppression. */
    Count totalRecords() const { return mTotalRecords; }
    /** Regions that still hold records. */
    std::size_t nonEmptyCount() const { return mNonEmpty; }
    std::size_t classCount() const { return mDataset->classes().size(); }
    /** Records of each class over the whole data set (after global suppression). */
    const std::vector<Count>& classTotals() const { return mClassTotals; }
    long double maxCombs() const { return mDataset->schema().maxCombs(); }

private:
    const Dataset* mDataset;
    HistogramTable mHistograms;
    std::vector<Count> mClassTotals;
    Count mTotalRecords = 0;
    std::size_t mNonEmpty = 0;
};

} // namespace vbas

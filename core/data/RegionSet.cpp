#include "RegionSet.h"

namespace vbas
{

RegionSet::RegionSet(const Dataset& dataset, HistogramTable histograms)
    : mDataset(&dataset)
    , mHistograms(std::move(histograms))
    , mClassTotals(mHistograms.classTotals(dataset.classes().size()))
    , mTotalRecords(mHistograms.grandTotal())
{
    for (std::size_t r = 0; r < mHistograms.size(); ++r)
        if (mHistograms.total(r) > 0)
            ++mNonEmpty;
}

} // namespace vbas

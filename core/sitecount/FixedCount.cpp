#include "FixedCount.h"

#include "StrategyOptions.h"

namespace vbas
{

FixedCount::FixedCount(std::uint64_t count)
    : mCount(count)
{
    if (mCount == 0)
        throw Error(Subject::SiteCount, "a fixed site count must be at least 1");
}

std::unique_ptr<SiteCounter> FixedCount::create(const StrategyOptions& options)
{
    return std::make_unique<FixedCount>(options.fixedSiteCount);
}

std::uint64_t FixedCount::estimate(const RegionSet&, Count, Feedback&) const
{
    return mCount;
}

} // namespace vbas

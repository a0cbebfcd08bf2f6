#include "NaiveAnonymityCount.h"

#include "StrategyOptions.h"

#include <cmath>

namespace vbas
{

NaiveAnonymityCount::NaiveAnonymityCount(double offset)
    : mOffset(distributionOffset(offset, 0.2))
{
}

std::unique_ptr<SiteCounter> NaiveAnonymityCount::create(const StrategyOptions& options)
{
    return std::make_unique<NaiveAnonymityCount>(options.number(siteCountOffsetOption()));
}

std::vector<OptionSpec> NaiveAnonymityCount::options()
{
    return {siteCountOffsetOption()};
}

std::uint64_t NaiveAnonymityCount::estimate(const RegionSet& regions, Count k, ReleaseProbe&, Feedback&) const
{
    const long double n = static_cast<long double>(regions.totalRecords());
    if (n <= 0)
        return 0;
    const long double regionCount = static_cast<long double>(regions.size());
    // r = ceil(k / a) with a = N / (|R| e), i.e. ceil(k |R| e / N); written so that exact
    // integer quotients stay exact.
    const long double regionsPerAggregate =
        std::ceil(static_cast<long double>(k) * regionCount * regions.maxCombs() / n);
    if (!std::isfinite(regionsPerAggregate))
        return 0;
    return floorDecimal(regionCount * static_cast<long double>(mOffset) / regionsPerAggregate);
}

} // namespace vbas

#include "GapsMaxCombsCount.h"

namespace vbas
{

std::unique_ptr<SiteCounter> GapsMaxCombsCount::create(const StrategyOptions& options)
{
    return std::make_unique<GapsMaxCombsCount>(options);
}

double GapsMaxCombsCount::modelInput(const RegionSet& regions) const
{
    return static_cast<double>(regions.maxCombs());
}

} // namespace vbas

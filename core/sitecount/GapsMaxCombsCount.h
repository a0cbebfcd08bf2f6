#pragma once

#include "GapsCount.h"

#include <memory>

namespace vbas
{

/** sitecount.gaps_maxcombs: GAPS with x = MaxCombs e, the product of the category counts. */
class GapsMaxCombsCount : public GapsCount
{
public:
    using GapsCount::GapsCount;
    static std::unique_ptr<SiteCounter> create(const StrategyOptions& options);

protected:
    double modelInput(const RegionSet& regions) const override;
};

} // namespace vbas

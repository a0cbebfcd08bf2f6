#include "SiteCounter.h"

#include <algorithm>
#include <cmath>

namespace vbas
{

std::uint64_t clampSiteCount(std::uint64_t estimate, const RegionSet& regions)
{
    const std::uint64_t upper = std::max<std::uint64_t>(1, regions.nonEmptyCount());
    return std::clamp<std::uint64_t>(estimate, 1, upper);
}

double distributionOffset(double configured, double fallback)
{
    if (std::isnan(configured))
        return fallback;
    if (!(configured > 0.0 && configured <= 1.0))
        throw Error(Subject::SiteCount, "the distribution offset must lie in (0, 1], got " +
                                            std::to_string(configured) + "; leave it empty for the default");
    return configured;
}

std::uint64_t floorDecimal(long double value)
{
    if (!(value > 0))
        return 0;
    return static_cast<std::uint64_t>(std::floor(value * (1.0L + 1e-12L)));
}

} // namespace vbas

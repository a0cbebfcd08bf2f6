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

OptionSpec siteCountOffsetOption()
{
    return OptionSpec::number("site_count_offset", "Site-count offset d (0: default)", 0.0, 0.0, 1.0,
                              "Scales the estimate, in (0, 1]; 0: the method's default, 0.9 for GAPS, 0.2 "
                              "for naive. Lower: fewer, larger regions and less suppression.")
        .asAdvanced();
}

double distributionOffset(double configured, double fallback)
{
    if (std::isnan(configured) || configured == 0.0)
        return fallback;
    if (!(configured > 0.0 && configured <= 1.0))
        throw optionError("site_count_offset", "the distribution offset must lie in (0, 1], got " +
                                                   std::to_string(configured) + "; give 0 for the default");
    return configured;
}

std::uint64_t floorDecimal(long double value)
{
    if (!(value > 0))
        return 0;
    return static_cast<std::uint64_t>(std::floor(value * (1.0L + 1e-12L)));
}

} // namespace vbas

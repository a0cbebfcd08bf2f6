#include "FixedCount.h"

#include "StrategyOptions.h"

namespace vbas
{
namespace
{
const OptionSpec& siteCountOption()
{
    static const OptionSpec spec = OptionSpec::integer(
        "site_count", "Site count (sitecount.fixed only)", 0, 0, std::numeric_limits<double>::infinity(),
        "The number of sites (merged regions) sitecount.fixed asks for; the other methods ignore it.");
    return spec;
}
} // namespace

std::vector<OptionSpec> FixedCount::options()
{
    return {siteCountOption()};
}

FixedCount::FixedCount(std::uint64_t count)
    : mCount(count)
{
    if (mCount == 0)
        throw Error(Subject::SiteCount, "a fixed site count must be at least 1");
}

std::unique_ptr<SiteCounter> FixedCount::create(const StrategyOptions& options)
{
    const std::uint64_t count = options.count(siteCountOption());
    if (count == 0)
        throw optionError("site_count", "sitecount.fixed needs the number of sites; set it to 1 or more");
    return std::make_unique<FixedCount>(count);
}

std::uint64_t FixedCount::estimate(const RegionSet&, Count, ReleaseProbe&, Feedback&) const
{
    return mCount;
}

} // namespace vbas

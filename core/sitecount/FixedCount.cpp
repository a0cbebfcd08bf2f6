#include "FixedCount.h"

#include "StrategyOptions.h"

namespace vbas
{
namespace
{
const OptionSpec& siteCountOption()
{
    static const OptionSpec spec =
        OptionSpec::integer(
            "site_count", "Number of regions (with the fixed number)", 0, 0,
            std::numeric_limits<double>::infinity(),
            "How many regions the fixed-number method makes; the other ways choose their own number.")
            .asAdvanced();
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

#pragma once

#include "SiteCounter.h"

#include <memory>

namespace vbas
{

class StrategyOptions;

/** sitecount.fixed: the site count the user gives. */
class FixedCount : public SiteCounter
{
public:
    explicit FixedCount(std::uint64_t count);
    static std::unique_ptr<SiteCounter> create(const StrategyOptions& options);
    /** "site_count": the number of sites, 1 or more (0, the default, is refused). */
    static std::vector<OptionSpec> options();
    std::uint64_t estimate(const RegionSet& regions, Count k, ReleaseProbe& release,
                           Feedback& feedback) const override;

private:
    std::uint64_t mCount;
};

} // namespace vbas

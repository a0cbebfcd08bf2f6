#pragma once

#include "SiteCounter.h"

#include <memory>

namespace vbas
{

class StrategyOptions;

/**
 * sitecount.naive_anonymity (thesis L440-486, SPEC section 3): expected anonymity
 * a = N / (|R| e); regions per aggregate r = ceil(k / a) (the thesis prints k/e, which is wrong);
 * s = floor(|R| d / r), offset d default 0.2.
 */
class NaiveAnonymityCount : public SiteCounter
{
public:
    explicit NaiveAnonymityCount(double offset);
    static std::unique_ptr<SiteCounter> create(const StrategyOptions& options);
    /** "site_count_offset". */
    static std::vector<OptionSpec> options();
    std::uint64_t estimate(const RegionSet& regions, Count k, ReleaseProbe& release,
                           Feedback& feedback) const override;

private:
    double mOffset;
};

} // namespace vbas

#pragma once

#include "GapsCount.h"

#include <memory>

namespace vbas
{

/**
 * sitecount.gaps_entropy: GAPS with x = H = -sum_E (|E|/N) ln(|E|/N) over the quasi-identifier
 * classes of the whole data set after global suppression (SPEC section 3).
 */
class GapsEntropyCount : public GapsCount
{
public:
    using GapsCount::GapsCount;
    static std::unique_ptr<SiteCounter> create(const StrategyOptions& options);
    /** H of the class totals (natural logarithm); 0 for no records. */
    static double entropy(const std::vector<Count>& classTotals);

protected:
    double modelInput(const RegionSet& regions) const override;
};

} // namespace vbas

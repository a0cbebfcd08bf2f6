#pragma once

#include "SiteCounter.h"
#include "StrategyOptions.h"

namespace vbas
{

/** GAPS cutoff models of thesis Table 2 (L527-529); Canada takes the largest of the three. */
enum class GapsModel
{
    Western,
    Central,
    Eastern,
    Canada,
    Custom,
};

/**
 * The dynamic GAPS estimators (thesis L488-537, L1107-1115): a population cutoff
 * c * x^b from a regression model of uniqueness, and s = floor(d N / cutoff), offset d default 0.9.
 * Subclasses give the model input x (MaxCombs or entropy).
 */
class GapsCount : public SiteCounter
{
public:
    explicit GapsCount(const StrategyOptions& options);
    /**
     * "site_count_offset", "gaps_model" (western, central, eastern, canada, custom; mapped to GapsModel
     * here), "gaps_c" and "gaps_b" (the custom model's c > 0 and finite b).
     */
    static std::vector<OptionSpec> options();
    std::uint64_t estimate(const RegionSet& regions, Count k, ReleaseProbe& release,
                           Feedback& feedback) const override;

    /** Cutoff of `model` at input x; Canada is the largest of Western, Central and Eastern. */
    static double cutoff(GapsModel model, double x, double customC, double customB);

protected:
    virtual double modelInput(const RegionSet& regions) const = 0;

private:
    double mOffset;
    GapsModel mModel;
    double mCustomC;
    double mCustomB;
};

} // namespace vbas

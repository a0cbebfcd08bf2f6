#include "GapsCount.h"

#include <algorithm>
#include <cmath>

namespace vbas
{
namespace
{
struct Coefficients
{
    double c;
    double b;
};
// Thesis Table 2; the source prints the same coefficients for both regressors.
constexpr Coefficients kWestern{1588.0, 0.42};
constexpr Coefficients kCentral{1436.0, 0.43};
constexpr Coefficients kEastern{1978.0, 0.304};

double evaluate(Coefficients model, double x)
{
    return model.c * std::pow(x, model.b);
}
} // namespace

GapsCount::GapsCount(const StrategyOptions& options)
    : mOffset(distributionOffset(options.siteCountOffset, 0.9))
    , mModel(options.gapsModel)
    , mCustomC(options.gapsCustomC)
    , mCustomB(options.gapsCustomB)
{
    if (mModel == GapsModel::Custom && !(mCustomC > 0.0 && std::isfinite(mCustomB)))
        throw Error(Subject::SiteCount, "the custom GAPS model needs a positive coefficient c and a finite "
                                        "exponent b (cutoff = c * x^b)");
}

double GapsCount::cutoff(GapsModel model, double x, double customC, double customB)
{
    switch (model)
    {
    case GapsModel::Western:
        return evaluate(kWestern, x);
    case GapsModel::Central:
        return evaluate(kCentral, x);
    case GapsModel::Eastern:
        return evaluate(kEastern, x);
    case GapsModel::Canada:
        return std::max({evaluate(kWestern, x), evaluate(kCentral, x), evaluate(kEastern, x)});
    case GapsModel::Custom:
        return evaluate({customC, customB}, x);
    }
    return 0.0;
}

std::uint64_t GapsCount::estimate(const RegionSet& regions, Count, Feedback&) const
{
    const double populationCutoff = cutoff(mModel, modelInput(regions), mCustomC, mCustomB);
    if (!(populationCutoff > 0.0) || !std::isfinite(populationCutoff))
        return 0;
    return floorDecimal(static_cast<long double>(mOffset) * static_cast<long double>(regions.totalRecords()) /
                        static_cast<long double>(populationCutoff));
}

} // namespace vbas

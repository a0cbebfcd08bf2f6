#include "GapsCount.h"

#include <algorithm>
#include <cmath>
#include <limits>

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

constexpr double kInfinity = std::numeric_limits<double>::infinity();

const OptionSpec& modelOption()
{
    // In the order of GapsModel: a choice's index is its enum value.
    static const OptionSpec spec =
        OptionSpec::choice(
            "gaps_model", "GAPS cutoff model", {"western", "central", "eastern", "canada", "custom"},
            "canada",
            "Regression of the population a region needs, fitted on Canadian census data: canada takes the "
            "largest cutoff of western, central and eastern; custom uses gaps_c and gaps_b "
            "(cutoff = c * x^b).")
            .asAdvanced();
    return spec;
}

const OptionSpec& customCOption()
{
    static const OptionSpec spec =
        OptionSpec::number("gaps_c", "Custom GAPS coefficient c", kWestern.c, -kInfinity, kInfinity,
                           "Coefficient c of the custom GAPS model (cutoff = c * x^b); must be positive.")
            .asAdvanced();
    return spec;
}

const OptionSpec& customBOption()
{
    static const OptionSpec spec =
        OptionSpec::number("gaps_b", "Custom GAPS exponent b", kWestern.b, -kInfinity, kInfinity,
                           "Exponent b of the custom GAPS model (cutoff = c * x^b).")
            .asAdvanced();
    return spec;
}
} // namespace

std::vector<OptionSpec> GapsCount::options()
{
    return {siteCountOffsetOption(), modelOption(), customCOption(), customBOption()};
}

GapsCount::GapsCount(const StrategyOptions& options)
    : mOffset(distributionOffset(options.number(siteCountOffsetOption()), 0.9))
    , mModel(GapsModel(options.choiceIndex(modelOption())))
    , mCustomC(options.number(customCOption()))
    , mCustomB(options.number(customBOption()))
{
    if (mModel != GapsModel::Custom)
        return;
    if (!(mCustomC > 0.0) || !std::isfinite(mCustomC))
        throw optionError("gaps_c",
                          "the custom GAPS model needs a positive coefficient c (cutoff = c * x^b)");
    if (!std::isfinite(mCustomB))
        throw optionError("gaps_b", "the custom GAPS model needs a finite exponent b (cutoff = c * x^b)");
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

std::uint64_t GapsCount::estimate(const RegionSet& regions, Count, ReleaseProbe&, Feedback&) const
{
    const double populationCutoff = cutoff(mModel, modelInput(regions), mCustomC, mCustomB);
    if (!(populationCutoff > 0.0) || !std::isfinite(populationCutoff))
        return 0;
    return floorDecimal(static_cast<long double>(mOffset) * static_cast<long double>(regions.totalRecords()) /
                        static_cast<long double>(populationCutoff));
}

} // namespace vbas

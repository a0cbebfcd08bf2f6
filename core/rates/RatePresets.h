#pragma once

#include "StrategyOptions.h"

#include <cstddef>
#include <string>
#include <vector>

namespace vbas
{

/** A figure a region's rate release publishes (RegionRates holds them). */
enum class RateFigure
{
    Cases,         //!< the count of cases
    Population,    //!< the population (and the expected cases, computed from it alone)
    CrudeRate,     //!< the crude rate and its interval
    AdjustedRate,  //!< the directly age-standardized rate and its interval
    Ratio,         //!< the standardized incidence ratio and its interval
    SmoothedRates, //!< the global and local empirical Bayes rates
};
inline constexpr std::size_t kRateFigureCount = 6;

/** Every figure computed from a region's own count of cases (so from which the count can be worked back). */
std::vector<RateFigure> figuresFromCases();

/**
 * One small-number rule: when a region's count of cases (or its population) is at least `from` and below
 * `below`, the figures listed are withheld (Suppress) or published with a warning (Flag).
 */
struct SmallNumberRule
{
    enum class Measure
    {
        Cases,
        Population,
    };
    enum class Action
    {
        Flag,
        Suppress,
    };
    Measure measure = Measure::Cases;
    double from = 0.0;
    double below = 0.0;
    Action action = Action::Flag;
    std::vector<RateFigure> figures;
    /** Why, in a few words a legend or a log shows: "fewer than 20 cases: unreliable". */
    std::string reason;

    bool appliesTo(double cases, double population) const;
};

/**
 * An agency's stability flags and small-number rules, as one choice (SPEC section 15): a stable id (stored in
 * saved models: never rename), a name, one sentence saying what it does and to which published figures, and
 * its source.
 */
struct RatePreset
{
    std::string id;
    std::string name;
    std::string sentence;
    std::string source;
    std::vector<SmallNumberRule> rules;
};

/** The presets, in the order a dialog lists them: none, cdc_unstable, cdc_wonder, us_cancer_statistics,
    nhs_digital, ons, statistics_canada, hipaa_safe_harbor. */
const std::vector<RatePreset>& ratePresets();

/** The preset `id`; throws Error(Option "rate_preset") naming the known ids. */
const RatePreset& findRatePreset(const std::string& id);

/** The option choosing it ("rate_preset", a Choice of the ids, default cdc_unstable). */
const OptionSpec& ratePresetOption();

} // namespace vbas

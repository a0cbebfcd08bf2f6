#include "RatePresets.h"

#include "base/Error.h"

#include <cmath>
#include <limits>

namespace vbas
{
namespace
{
/** The bound below which a measure of `most` or less lies ("20,000 people or fewer"; populations may be
    fractional estimates). */
double orFewer(double most)
{
    return std::nextafter(most, std::numeric_limits<double>::infinity());
}
using Measure = SmallNumberRule::Measure;
using Action = SmallNumberRule::Action;

std::vector<RateFigure> ratesFromCases()
{
    return {RateFigure::CrudeRate, RateFigure::AdjustedRate, RateFigure::Ratio};
}

std::vector<RateFigure> everyFigure()
{
    return {RateFigure::Cases,        RateFigure::Population, RateFigure::CrudeRate,
            RateFigure::AdjustedRate, RateFigure::Ratio,      RateFigure::SmoothedRates};
}

std::vector<RateFigure> everyFigureButPopulation()
{
    std::vector<RateFigure> figures = everyFigure();
    figures.erase(figures.begin() + 1);
    return figures;
}

/** The table of presets: one entry each, its sentence and its source beside its rules. */
std::vector<RatePreset> makePresets()
{
    return {
        {"none", "No small-number rule", "Publishes every figure of every region, without flags.", "", {}},
        {"cdc_unstable",
         "CDC/NCHS: unstable rates",
         "Flags the crude and age-standardized rates and the SIR of a region with fewer than 20 cases as "
         "unreliable (their relative standard error is 23 % or more); nothing is withheld.",
         "National Center for Health Statistics, National Vital Statistics Reports, technical notes on "
         "random "
         "variation: rates based on fewer than 20 deaths are considered unreliable.",
         {{Measure::Cases, 0, 20, Action::Flag, ratesFromCases(), "fewer than 20 cases: unreliable"}}},
        {"cdc_wonder",
         "CDC WONDER",
         "Withholds the count of a region with 9 or fewer cases and every figure computed from it (rates, "
         "SIR, "
         "smoothed rates); flags the rates of a region with fewer than 20 cases as unreliable.",
         "CDC WONDER data use restrictions: for sub-national geography, do not present or publish death "
         "counts "
         "of 9 or fewer or death rates based on counts of nine or fewer; rates based on fewer than 20 deaths "
         "are marked unreliable.",
         {{Measure::Cases, 0, 10, Action::Suppress, figuresFromCases(), "9 or fewer cases: not published"},
          {Measure::Cases, 10, 20, Action::Flag, ratesFromCases(), "fewer than 20 cases: unreliable"}}},
        {"us_cancer_statistics",
         "U.S. Cancer Statistics",
         "Withholds the count of a region with fewer than 16 cases and every figure computed from it.",
         "CDC, U.S. Cancer Statistics technical notes, Suppression of Rates and Counts: rates and counts are "
         "not "
         "shown when the case or death counts are below 16.",
         {{Measure::Cases, 0, 16, Action::Suppress, figuresFromCases(),
           "fewer than 16 cases: not published"}}},
        {"nhs_digital",
         "NHS Digital (HES)",
         "Withholds the count of a region with 1 to 7 cases and every figure computed from it (the "
         "methodology "
         "also rounds other counts to the nearest 5, which this preset does not do).",
         "NHS Digital, Disclosure control methodology for Hospital Episode Statistics and the Emergency Care "
         "Data Set (from September 2018): counts of 1 to 7 are suppressed.",
         {{Measure::Cases, 1, 8, Action::Suppress, figuresFromCases(), "1 to 7 cases: not published"}}},
        {"ons",
         "ONS (England and Wales)",
         "Withholds the crude rate of a region with fewer than 3 cases and its age-standardized rate below "
         "10 "
         "cases; flags rates based on fewer than 20 cases as unreliable.",
         "Office for National Statistics, User guide to mortality statistics, section 15: age-standardised "
         "rates "
         "are not calculated where there are fewer than 10 deaths and crude rates not where there are fewer "
         "than 3; rates based on fewer than 20 deaths are marked (u), unreliable.",
         {{Measure::Cases,
           0,
           3,
           Action::Suppress,
           {RateFigure::CrudeRate},
           "fewer than 3 cases: not calculated"},
          {Measure::Cases,
           0,
           10,
           Action::Suppress,
           {RateFigure::AdjustedRate},
           "fewer than 10 cases: not calculated"},
          {Measure::Cases, 0, 20, Action::Flag, ratesFromCases(), "fewer than 20 cases: unreliable"}}},
        {"statistics_canada",
         "Statistics Canada: area suppression",
         "Withholds every figure but the population of a region of fewer than 40 people.",
         "Statistics Canada, census area and data suppression: areas with a population of less than 40 "
         "persons "
         "are suppressed; only their total population is available.",
         {{Measure::Population, 0, 40, Action::Suppress, everyFigureButPopulation(),
           "fewer than 40 people: not published"}}},
        {"hipaa_safe_harbor",
         "HIPAA Safe Harbor: 20,000 people",
         "Withholds every figure of a region of 20,000 people or fewer, its population too: the area may not "
         "be "
         "published at all.",
         "HIPAA Privacy Rule, 45 CFR 164.514(b)(2)(i)(B): a geographic unit (three-digit ZIP code) may be "
         "released only if it contains more than 20,000 people.",
         {{Measure::Population, 0, orFewer(20000), Action::Suppress, everyFigure(),
           "20,000 people or fewer: not published"}}},
    };
}
} // namespace

std::vector<RateFigure> figuresFromCases()
{
    return {RateFigure::Cases, RateFigure::CrudeRate, RateFigure::AdjustedRate, RateFigure::Ratio,
            RateFigure::SmoothedRates};
}

bool SmallNumberRule::appliesTo(double cases, double population) const
{
    const double value = measure == Measure::Cases ? cases : population;
    return value >= from && value < below;
}

const std::vector<RatePreset>& ratePresets()
{
    static const std::vector<RatePreset> presets = makePresets();
    return presets;
}

const RatePreset& findRatePreset(const std::string& id)
{
    std::string known;
    for (const RatePreset& preset : ratePresets())
    {
        if (preset.id == id)
            return preset;
        known += (known.empty() ? "" : ", ") + preset.id;
    }
    throw optionError("rate_preset", "unknown small-number rule '" + id + "'; use one of: " + known);
}

const OptionSpec& ratePresetOption()
{
    static const OptionSpec spec = []
    {
        std::vector<std::string> ids;
        std::string help = "The agency rule that flags unstable rates and withholds small numbers:";
        for (const RatePreset& preset : ratePresets())
        {
            ids.push_back(preset.id);
            help += " " + preset.id + ": " + preset.sentence;
        }
        return OptionSpec::choice("rate_preset", "Small-number rule", ids, "cdc_unstable", help);
    }();
    return spec;
}

} // namespace vbas

#pragma once

#include "AgeBand.h"
#include "DirectStandardization.h"
#include "EmpiricalBayes.h"
#include "IndirectStandardization.h"
#include "RatePresets.h"
#include "StrategyOptions.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace vbas
{

/**
 * The data of a rate release (SPEC section 15): cases and population per small area, optionally per stratum
 * (age band, or age band by sex) in the bands of a population table, the aggregation of small areas into
 * regions and the regions' adjacency.
 */
struct RateInputs
{
    /** Population strata per small area (1: a population total per small area). */
    std::size_t strata = 1;
    /** Population by small area and stratum, small-area-major: population[area * strata + stratum]. */
    std::vector<double> population;
    /** Cases by small area and stratum like `population`, or one total per small area (casesByStratum false).
     */
    std::vector<double> cases;
    bool casesByStratum = false;
    /** The age band of each stratum (a band repeats for strata by sex), for a named standard population;
        empty when the strata are not age bands. */
    std::vector<AgeBand> strataAges;
    /** The label of each stratum, for messages ("85+", "85+ female"); empty: "stratum N". */
    std::vector<std::string> strataLabels;
    /** The id of each small area, for messages; empty: "small area N" (1-based). */
    std::vector<std::string> areaIds;
    /** The region (0 .. regionCount - 1) of each small area. */
    std::vector<std::size_t> regionOfArea;
    std::size_t regionCount = 0;
    /** The id of each region, for messages; empty: "region N" (1-based). */
    std::vector<std::string> regionIds;
    /** The regions bordering each region (not itself, none twice): the local smoothing's neighbourhoods. */
    std::vector<std::vector<std::size_t>> regionNeighbours;
};

/** How the figures are computed and which agency rule flags them; options() declares them for a front end. */
struct RateSettings
{
    /** Rates are per this many people (crude, age-standardized, smoothed). */
    double multiplier = 100000.0;
    /** The confidence level of every interval. */
    double confidence = 0.95;
    /** The standard population (an id of standardPopulations()) mapped onto RateInputs::strataAges. */
    std::string standardPopulation = "us2000";
    /** Standard populations per stratum given directly (any scale); when set, standardPopulation is unused.
     */
    std::vector<double> standardWeights;
    /** Reference rates per stratum and person for the expected cases; empty: the study's own. */
    std::vector<double> referenceRates;
    /** The small-number rule, an id of ratePresets(). */
    std::string preset = "cdc_unstable";
    LocalVariance localVariance = LocalVariance::Spdep;

    /** rate_multiplier, confidence_level, standard_population, rate_preset, local_smoothing. */
    static std::vector<OptionSpec> options();
    /** Returns the settings `values` set (defaults elsewhere); throws Error(Option) for a bad value. */
    static RateSettings fromOptions(const StrategyOptions& values);
};

/** Whether a published figure of a region is withheld or flagged by the preset, and why. */
struct FigureStatus
{
    bool suppressed = false;
    bool flagged = false;
    /** The reasons of every rule that applied, joined by "; ". */
    std::string reasons;
};

/** Every figure of one region. Rates are per RateSettings::multiplier people. */
struct RegionRates
{
    double cases = 0.0;
    double population = 0.0;
    double crudeRate = 0.0;
    ConfidenceInterval crudeInterval; //!< exact Poisson
    /** The directly age-standardized rate with its Fay-Feuer interval; absent with adjustedNote saying why.
     */
    std::optional<StandardizedRate> adjusted;
    std::string adjustedNote;
    /** Expected cases and SIR with its exact interval; absent with ratioNote saying why. */
    std::optional<StandardizedRatio> ratio;
    std::string ratioNote;
    double globalSmoothedRate = 0.0; //!< empirical Bayes toward the study's rate
    double localSmoothedRate = 0.0;  //!< empirical Bayes toward the neighbourhood's rate
    std::array<FigureStatus, kRateFigureCount> status;

    const FigureStatus& statusOf(RateFigure figure) const { return status[std::size_t(figure)]; }
    /** This region as it may be published: every suppressed figure NaN (a NULL field), absent where optional.
     */
    RegionRates published() const;
};

/** The result of computeRegionRates(). */
struct RateReport
{
    std::vector<RegionRates> regions;
    /** The reference rates per stratum and person the expected cases used (given or the study's own). */
    std::vector<double> referenceRates;
    /** The standard population per stratum the age-standardized rates used; empty when there were none. */
    std::vector<double> standardWeights;
    /** The prior of the global smoothing (per person). */
    double globalPriorMean = 0.0;
    double globalPriorVariance = 0.0;
    /** What could not be computed for every region, and why, for the log. */
    std::vector<std::string> notes;
};

/**
 * Computes per region, in one call, every figure of SPEC section 15 and the flags of the preset: the cases
 * and population summed over the region's small areas (by stratum), the crude rate with its exact Poisson
 * interval (poisson.test), the directly standardized rate with the Fay-Feuer interval
 * (epitools::ageadjust.direct), expected cases by indirect standardization and the SIR with its exact
 * interval (poisson.test), the global and local empirical Bayes rates (spdep::EBest, spdep::EBlocal over
 * `regionNeighbours`). Throws Error naming what to fix: Subject::Cases for counts that are not whole numbers
 * of 0 or more (or cases where no one lives), Subject::Population for a negative population or a region
 * without people, Subject::Regions for an aggregation or adjacency that does not fit, Error(Option) for a bad
 * setting.
 */
RateReport computeRegionRates(const RateInputs& inputs, const RateSettings& settings);

} // namespace vbas

#pragma once

#include <cstdint>
#include <limits>

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

/** Where balanced density puts the site of a cell. */
enum class CellCentre
{
    Mean,         //!< mean of the cell's points (the thesis, L777-783)
    WeightedMean, //!< mean weighted by record count
    Median,       //!< coordinate-wise median
};

/**
 * Options of every built-in strategy, set once per run. A strategy reads only the fields it
 * documents; defaults are SPEC.md's.
 */
struct StrategyOptions
{
    /** Distribution offset d of the site-count estimators; NaN means the estimator's default. */
    double siteCountOffset = std::numeric_limits<double>::quiet_NaN();
    GapsModel gapsModel = GapsModel::Canada;
    /** Coefficients c, b of the Custom GAPS model: cutoff = c * x^b. */
    double gapsCustomC = 1588.0;
    double gapsCustomB = 0.42;
    /** Site count of sitecount.fixed. */
    std::uint64_t fixedSiteCount = 0;

    CellCentre cellCentre = CellCentre::Mean;
    /** ADC limits: moves tried and seconds; 0 means no limit. */
    std::uint64_t adcMaxMoves = 0;
    double adcMaxSeconds = 0.0;

    /** Seed of every random choice. */
    std::uint64_t seed = 1;
};

} // namespace vbas

#pragma once

#include "PoissonInterval.h"

#include <vector>

namespace vbas
{

/** A standardized incidence (or mortality) ratio observed / expected with its exact Poisson interval. */
struct StandardizedRatio
{
    double expected = 0.0;
    double ratio = 0.0;
    ConfidenceInterval interval;
};

/**
 * Returns the reference rate of each stratum, sum of its cases over sum of its population across `areas`
 * areas (`cases` and `population` area-major, `strata` values per area): indirect standardization against
 * the study's own rates (SPEC section 15). A stratum without population anywhere gets 0 (no one to expect
 * cases of).
 */
std::vector<double> studyReferenceRates(const std::vector<double>& cases,
                                        const std::vector<double>& population, std::size_t strata);

/** Returns the expected cases sum_i n_i lambda_i of a population by stratum under reference rates lambda_i.
 */
double expectedCases(const double* population, const std::vector<double>& referenceRates);

/**
 * Returns SIR = cases / expected with the exact Poisson interval [Gamma(cases) at alpha/2,
 * Gamma(cases + 1) at 1 - alpha/2] / expected: R's poisson.test(cases, expected, conf.level = confidence).
 * `expected` > 0, else std::domain_error.
 */
StandardizedRatio standardizedRatio(double cases, double expected, double confidence);

} // namespace vbas

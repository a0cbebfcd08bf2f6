#pragma once

#include "PoissonInterval.h"

#include <vector>

namespace vbas
{

/** A directly standardized rate (per person) with its Fay-Feuer interval. */
struct StandardizedRate
{
    double rate = 0.0;
    double variance = 0.0;
    ConfidenceInterval interval;
};

/**
 * Returns the rate of `cases` over `population` directly standardized to the standard population
 * `standard` (one entry per stratum, any scale: the weights are w_i = standard_i / sum(standard)), with the
 * Fay-Feuer (1997) gamma interval at `confidence` (SPEC section 15): R = sum w_i d_i / n_i,
 * V = sum w_i^2 d_i / n_i^2, lower = Gamma(R^2 / V, scale V / R) at alpha/2, upper =
 * Gamma((R + w_M)^2 / (V + w_M^2), scale (V + w_M^2) / (R + w_M)) at 1 - alpha/2, w_M = max_i w_i / n_i.
 * This is R's epitools::ageadjust.direct(cases, population, stdpop = standard, conf.level = confidence),
 * except with no case in any stratum, where R gives NaN for the lower bound and this gives 0 (the limit).
 * Every population must be positive, cases at least 0, standards at least 0 with a positive sum, the sizes
 * equal: else std::domain_error (a caller that can meet a stratum without population checks first).
 */
StandardizedRate directlyStandardizedRate(const std::vector<double>& cases,
                                          const std::vector<double>& population,
                                          const std::vector<double>& standard, double confidence);

} // namespace vbas

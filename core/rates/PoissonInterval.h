#pragma once

namespace vbas
{

/** A two-sided confidence interval. */
struct ConfidenceInterval
{
    double lower = 0.0;
    double upper = 0.0;
};

/**
 * Returns the exact (Garwood) interval of a Poisson mean `cases` / `exposure` at `confidence` (SPEC section
 * 15): [Gamma(cases) at alpha/2, Gamma(cases + 1) at 1 - alpha/2] / exposure, the lower bound 0 when there
 * are no cases. It is R's poisson.test(cases, exposure, conf.level = confidence)$conf.int; unlike R it
 * accepts a fractional count (callers check whole counts where they require them). `cases` >= 0, `exposure` >
 * 0 and 0 < `confidence` < 1, else std::domain_error.
 */
ConfidenceInterval exactPoissonInterval(double cases, double exposure, double confidence);

} // namespace vbas

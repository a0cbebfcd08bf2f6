#pragma once

namespace vbas
{

/**
 * The gamma distribution as rates need it (SPEC section 15): its regularized incomplete gamma functions and
 * its quantiles, written here because the engine may use only the standard library, CGAL and GEOS. Accurate
 * to about 1e-14 relative wherever the result is a normal double: the Poisson density that scales both series
 * is Loader's saddle-point form (as R's dpois_raw), not exp(a log x - x - lgamma(a)), which loses digits for
 * large shapes.
 */

/** Returns P(shape, x), the regularized lower incomplete gamma function (R: pgamma(x, shape)). */
double regularizedGammaP(double shape, double x);

/** Returns Q(shape, x) = 1 - P(shape, x), computed directly where it is small (R: pgamma(x, shape, lower =
 * FALSE)). */
double regularizedGammaQ(double shape, double x);

/**
 * Returns the `probability` quantile of the gamma distribution of `shape` and `scale` (R: qgamma(probability,
 * shape, scale = scale)): 0 for a shape of 0 (all mass at 0) or a probability of 0, infinity for a
 * probability of 1. Throws std::domain_error for a negative or NaN shape, a scale that is not positive and
 * finite, or a probability outside [0, 1].
 */
double gammaQuantile(double probability, double shape, double scale = 1.0);

} // namespace vbas

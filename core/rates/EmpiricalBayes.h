#pragma once

#include <cstddef>
#include <vector>

namespace vbas
{

/**
 * Empirical Bayes smoothed rates (Marshall 1991, moment estimators; SPEC section 15). Each region's raw rate
 * r_j = d_j / n_j is shrunk toward a prior mean m by C_j = a / (a + m / n_j), a the prior variance
 * s^2 - m / nbar (0 when negative): the fewer people, the more a region's rate moves toward m. Rates are per
 * person. Every population must be positive and every count at least 0 (else std::domain_error), as R
 * requires; where R divides 0 by 0 (no case in the whole reference), the estimate here is the prior mean 0.
 */

/** The globally smoothed rates with the prior they share. */
struct GlobalSmoothing
{
    std::vector<double> rates;
    double priorMean = 0.0;     //!< b = sum d / sum n
    double priorVariance = 0.0; //!< a
};

/**
 * Shrinks toward the study's mean rate: m = sum d / sum n, s^2 = sum n_j (r_j - m)^2 / sum n, nbar = the mean
 * population. R: spdep::EBest(cases, population) (its estmm, and attr "parameters" a and b).
 */
GlobalSmoothing globalEmpiricalBayes(const std::vector<double>& cases, const std::vector<double>& population);

/** How the local prior variance weighs the neighbourhood's rates. */
enum class LocalVariance
{
    /** Sum over the neighbourhood of n_j (r_j - m_j)^2, each neighbour against its own local mean m_j:
        spdep::EBlocal(..., geoda = FALSE), R's default. */
    Spdep,
    /** Sum of n_j (r_j - m_i)^2, every neighbour against the region's own local mean m_i, as GeoDa (and
        Marshall's formula) have it: spdep::EBlocal(..., geoda = TRUE). */
    GeoDa,
};

/** The locally smoothed rates with each region's prior. */
struct LocalSmoothing
{
    std::vector<double> rates;
    std::vector<double> priorMeans;     //!< m_i
    std::vector<double> priorVariances; //!< a_i
};

/**
 * Shrinks each region toward its neighbourhood (the region and its `neighbours`, which must not list the
 * region itself nor any region twice): m_i = the neighbourhood's cases over its population, nbar_i its mean
 * population. A region without neighbours keeps its raw rate. R: spdep::EBlocal(cases, population, nb,
 * geoda = (variance == LocalVariance::GeoDa)) (its est, and attr "parameters" a and m).
 */
LocalSmoothing localEmpiricalBayes(const std::vector<double>& cases, const std::vector<double>& population,
                                   const std::vector<std::vector<std::size_t>>& neighbours,
                                   LocalVariance variance = LocalVariance::Spdep);

} // namespace vbas

#include "DirectStandardization.h"

#include "GammaDistribution.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace vbas
{

StandardizedRate directlyStandardizedRate(const std::vector<double>& cases,
                                          const std::vector<double>& population,
                                          const std::vector<double>& standard, double confidence)
{
    if (cases.size() != population.size() || cases.size() != standard.size() || cases.empty())
        throw std::domain_error(
            "direct standardization: cases, population and standard need one entry per stratum");
    if (!(confidence > 0.0 && confidence < 1.0))
        throw std::domain_error(
            "direct standardization: the confidence level must lie strictly between 0 and 1");
    double standardTotal = 0.0;
    for (std::size_t i = 0; i < cases.size(); ++i)
    {
        if (!(population[i] > 0.0) || !(cases[i] >= 0.0) || !(standard[i] >= 0.0))
            throw std::domain_error(
                "direct standardization: every stratum needs a positive population, a count "
                "of at least 0 and a standard population of at least 0");
        standardTotal += standard[i];
    }
    if (!(standardTotal > 0.0) || std::isinf(standardTotal))
        throw std::domain_error("direct standardization: the standard population must have a positive total");

    StandardizedRate result;
    double largestWeightPerPerson = 0.0; // w_M
    for (std::size_t i = 0; i < cases.size(); ++i)
    {
        const double weight = standard[i] / standardTotal;
        result.rate += weight * (cases[i] / population[i]);
        result.variance += weight * weight * (cases[i] / (population[i] * population[i]));
        largestWeightPerPerson = std::max(largestWeightPerPerson, weight / population[i]);
    }
    const double alpha = 1.0 - confidence;
    result.interval.lower = result.variance > 0.0
                                ? gammaQuantile(alpha / 2.0, result.rate * result.rate / result.variance,
                                                result.variance / result.rate)
                                : 0.0;
    const double shiftedRate = result.rate + largestWeightPerPerson;
    const double shiftedVariance = result.variance + largestWeightPerPerson * largestWeightPerPerson;
    result.interval.upper = gammaQuantile(1.0 - alpha / 2.0, shiftedRate * shiftedRate / shiftedVariance,
                                          shiftedVariance / shiftedRate);
    return result;
}

} // namespace vbas

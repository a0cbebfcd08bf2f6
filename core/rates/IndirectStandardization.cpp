#include "IndirectStandardization.h"

#include <stdexcept>

namespace vbas
{

std::vector<double> studyReferenceRates(const std::vector<double>& cases,
                                        const std::vector<double>& population, std::size_t strata)
{
    if (strata == 0 || cases.size() != population.size() || cases.size() % strata != 0)
        throw std::domain_error(
            "indirect standardization: cases and population need the same strata per area");
    std::vector<double> caseTotals(strata, 0.0), populationTotals(strata, 0.0);
    for (std::size_t i = 0; i < cases.size(); ++i)
    {
        caseTotals[i % strata] += cases[i];
        populationTotals[i % strata] += population[i];
    }
    std::vector<double> rates(strata, 0.0);
    for (std::size_t s = 0; s < strata; ++s)
        if (populationTotals[s] > 0.0)
            rates[s] = caseTotals[s] / populationTotals[s];
    return rates;
}

double expectedCases(const double* population, const std::vector<double>& referenceRates)
{
    double expected = 0.0;
    for (std::size_t s = 0; s < referenceRates.size(); ++s)
        expected += population[s] * referenceRates[s];
    return expected;
}

StandardizedRatio standardizedRatio(double cases, double expected, double confidence)
{
    StandardizedRatio result;
    result.expected = expected;
    result.ratio = cases / expected;
    result.interval = exactPoissonInterval(cases, expected, confidence);
    return result;
}

} // namespace vbas

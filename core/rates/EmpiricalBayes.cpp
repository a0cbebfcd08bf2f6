#include "EmpiricalBayes.h"

#include <algorithm>
#include <stdexcept>

namespace vbas
{
namespace
{
void checkCounts(const std::vector<double>& cases, const std::vector<double>& population)
{
    if (cases.size() != population.size() || cases.empty())
        throw std::domain_error("empirical Bayes: cases and population need one entry per region");
    for (std::size_t j = 0; j < cases.size(); ++j)
        if (!(population[j] > 0.0) || !(cases[j] >= 0.0))
            throw std::domain_error(
                "empirical Bayes: every region needs a positive population and a count of at "
                "least 0");
}

/** Marshall's shrinkage of `rate` (of a region of `population`) toward `mean` under prior variance
 * `variance`. */
double shrunk(double rate, double population, double mean, double variance)
{
    // With no prior variance every region takes the mean, also where the mean is 0 (R: 0 / 0).
    return variance > 0.0 ? mean + (rate - mean) * (variance / (variance + mean / population)) : mean;
}
} // namespace

GlobalSmoothing globalEmpiricalBayes(const std::vector<double>& cases, const std::vector<double>& population)
{
    checkCounts(cases, population);
    double caseTotal = 0.0, populationTotal = 0.0;
    for (std::size_t j = 0; j < cases.size(); ++j)
    {
        caseTotal += cases[j];
        populationTotal += population[j];
    }
    GlobalSmoothing result;
    result.priorMean = caseTotal / populationTotal;
    double spread = 0.0; // s^2
    for (std::size_t j = 0; j < cases.size(); ++j)
    {
        const double deviation = cases[j] / population[j] - result.priorMean;
        spread += population[j] * (deviation * deviation / populationTotal);
    }
    const double meanPopulation = populationTotal / double(cases.size());
    result.priorVariance = std::max(0.0, spread - result.priorMean / meanPopulation);
    result.rates.reserve(cases.size());
    for (std::size_t j = 0; j < cases.size(); ++j)
        result.rates.push_back(
            shrunk(cases[j] / population[j], population[j], result.priorMean, result.priorVariance));
    return result;
}

LocalSmoothing localEmpiricalBayes(const std::vector<double>& cases, const std::vector<double>& population,
                                   const std::vector<std::vector<std::size_t>>& neighbours,
                                   LocalVariance variance)
{
    checkCounts(cases, population);
    const std::size_t regions = cases.size();
    if (neighbours.size() != regions)
        throw std::domain_error("empirical Bayes: the neighbour list needs one entry per region");
    std::vector<char> seen(regions, 0);
    for (std::size_t i = 0; i < regions; ++i)
    {
        for (std::size_t j : neighbours[i])
        {
            if (j >= regions || j == i || seen[j])
                throw std::domain_error(
                    "empirical Bayes: a neighbour list names a region that does not exist, "
                    "the region itself, or a region twice");
            seen[j] = 1;
        }
        for (std::size_t j : neighbours[i])
            seen[j] = 0;
    }

    LocalSmoothing result;
    result.priorMeans.resize(regions);
    std::vector<double> neighbourhoodPopulation(regions), meanPopulation(regions);
    for (std::size_t i = 0; i < regions; ++i)
    {
        double caseSum = cases[i], populationSum = population[i];
        for (std::size_t j : neighbours[i])
        {
            caseSum += cases[j];
            populationSum += population[j];
        }
        result.priorMeans[i] = caseSum / populationSum;
        neighbourhoodPopulation[i] = populationSum;
        meanPopulation[i] = populationSum / double(neighbours[i].size() + 1);
    }
    // spdep's default sums each neighbour's squared deviation from its own local mean (see LocalVariance).
    auto squaredDeviation = [&](std::size_t j, std::size_t i)
    {
        const double deviation =
            cases[j] / population[j] - result.priorMeans[variance == LocalVariance::Spdep ? j : i];
        return population[j] * (deviation * deviation);
    };
    result.priorVariances.resize(regions);
    result.rates.resize(regions);
    for (std::size_t i = 0; i < regions; ++i)
    {
        double spread = squaredDeviation(i, i);
        for (std::size_t j : neighbours[i])
            spread += squaredDeviation(j, i);
        result.priorVariances[i] =
            std::max(0.0, spread / neighbourhoodPopulation[i] - result.priorMeans[i] / meanPopulation[i]);
        result.rates[i] =
            shrunk(cases[i] / population[i], population[i], result.priorMeans[i], result.priorVariances[i]);
    }
    return result;
}

} // namespace vbas

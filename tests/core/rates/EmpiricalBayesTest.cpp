// Marshall's empirical Bayes rates on hand-computed cases. R's EBest and EBlocal on real data:
// RatesAgainstRTest.cpp.
#include "rates/EmpiricalBayes.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace vbas;

namespace
{
const std::vector<double> kCases = {0, 10, 30};
const std::vector<double> kPopulation = {1000, 1000, 2000};
} // namespace

TEST(EmpiricalBayes, GlobalByHand)
{
    // m = 40/4000 = 0.01; s^2 = (1000 * 0.01^2 + 0 + 2000 * 0.005^2) / 4000 = 3.75e-5; nbar = 4000/3;
    // a = 3.75e-5 - 0.01 / (4000/3) = 3e-5; C = a / (a + m/n) = 0.75, 0.75, 6/7.
    const GlobalSmoothing smoothing = globalEmpiricalBayes(kCases, kPopulation);
    EXPECT_NEAR(smoothing.priorMean, 0.01, 1e-17);
    EXPECT_NEAR(smoothing.priorVariance, 3e-5, 1e-18);
    EXPECT_NEAR(smoothing.rates[0], 0.0025, 1e-16);
    EXPECT_NEAR(smoothing.rates[1], 0.01, 1e-16);
    EXPECT_NEAR(smoothing.rates[2], 0.01 + 0.005 * 6.0 / 7.0, 1e-16);
}

TEST(EmpiricalBayes, NoSpreadBeyondChanceTakesTheMean)
{
    // Equal raw rates: s^2 = 0, a < 0 is set to 0 and every region takes m.
    const GlobalSmoothing smoothing = globalEmpiricalBayes({1, 3}, {100, 300});
    EXPECT_EQ(smoothing.priorVariance, 0.0);
    EXPECT_DOUBLE_EQ(smoothing.rates[0], 0.01);
    EXPECT_DOUBLE_EQ(smoothing.rates[1], 0.01);
    // No case anywhere: 0, where R divides 0 by 0.
    EXPECT_EQ(globalEmpiricalBayes({0, 0}, {10, 20}).rates[1], 0.0);
}

TEST(EmpiricalBayes, LocalOnAChainByHand)
{
    // Neighbourhoods {0,1}, {0,1,2}, {1,2}: m_0 = 10/2000 = 0.005, nbar_0 = 1000. Region 0:
    // GeoDa: C = 1000 (0 - 0.005)^2 + 1000 (0.01 - 0.005)^2 = 0.05, a = 0.05/2000 - 0.005/1000 = 2e-5,
    //        estimate 0.005 - 0.005 * 2e-5 / (2e-5 + 5e-6) = 0.001;
    // spdep: C = 1000 (0 - m_0)^2 + 1000 (0.01 - m_1)^2 with m_1 = 0.01: 0.025, a = 7.5e-6,
    //        estimate 0.005 - 0.005 * 7.5e-6 / 1.25e-5 = 0.002.
    const std::vector<std::vector<std::size_t>> chain = {{1}, {0, 2}, {1}};
    const LocalSmoothing geoda = localEmpiricalBayes(kCases, kPopulation, chain, LocalVariance::GeoDa);
    const LocalSmoothing spdep = localEmpiricalBayes(kCases, kPopulation, chain, LocalVariance::Spdep);
    EXPECT_NEAR(geoda.priorMeans[0], 0.005, 1e-17);
    EXPECT_NEAR(geoda.priorVariances[0], 2e-5, 1e-19);
    EXPECT_NEAR(geoda.rates[0], 0.001, 1e-16);
    EXPECT_NEAR(spdep.priorVariances[0], 7.5e-6, 1e-19);
    EXPECT_NEAR(spdep.rates[0], 0.002, 1e-16);
}

TEST(EmpiricalBayes, LocalOverEveryoneIsGlobal)
{
    // When every region borders every other, each neighbourhood is the whole study: m_i = m, nbar_i = nbar,
    // and both variances are the global one.
    const std::vector<std::vector<std::size_t>> complete = {{1, 2}, {0, 2}, {0, 1}};
    const GlobalSmoothing global = globalEmpiricalBayes(kCases, kPopulation);
    for (LocalVariance variance : {LocalVariance::Spdep, LocalVariance::GeoDa})
    {
        const LocalSmoothing local = localEmpiricalBayes(kCases, kPopulation, complete, variance);
        for (std::size_t i = 0; i < 3; ++i)
            EXPECT_NEAR(local.rates[i], global.rates[i], 1e-16);
    }
}

TEST(EmpiricalBayes, IsolatedRegionsKeepTheirRateAndBadListsAreRefused)
{
    const LocalSmoothing alone = localEmpiricalBayes(kCases, kPopulation, {{}, {}, {}});
    EXPECT_DOUBLE_EQ(alone.rates[2], 0.015);
    EXPECT_EQ(alone.rates[0], 0.0);
    EXPECT_THROW(localEmpiricalBayes(kCases, kPopulation, {{0}, {}, {}}), std::domain_error);
    EXPECT_THROW(localEmpiricalBayes(kCases, kPopulation, {{1, 1}, {0}, {}}), std::domain_error);
    EXPECT_THROW(localEmpiricalBayes(kCases, kPopulation, {{3}, {}, {}}), std::domain_error);
    EXPECT_THROW(globalEmpiricalBayes({1, 2}, {10, 0}), std::domain_error);
}

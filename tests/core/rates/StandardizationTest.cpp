// Direct and indirect standardization on hand-computed cases. R's figures on real data:
// RatesAgainstRTest.cpp.
#include "rates/DirectStandardization.h"
#include "rates/GammaDistribution.h"
#include "rates/IndirectStandardization.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using namespace vbas;

TEST(DirectStandardization, OneStratumGivesTheExactPoissonInterval)
{
    // w = 1: R = d/n, V = d/n^2, w_M = 1/n, so the lower shape is d with scale 1/n and the upper shape
    // (d+1)^2/(d+1) = d + 1 with scale 1/n: Garwood's interval.
    for (double cases : {0.0, 1.0, 7.0, 250.0})
    {
        const StandardizedRate rate = directlyStandardizedRate({cases}, {12345.0}, {1.0}, 0.95);
        const ConfidenceInterval exact = exactPoissonInterval(cases, 12345.0, 0.95);
        EXPECT_DOUBLE_EQ(rate.rate, cases / 12345.0);
        EXPECT_NEAR(rate.interval.lower, exact.lower, 1e-13 * exact.upper);
        EXPECT_NEAR(rate.interval.upper, exact.upper, 1e-13 * exact.upper);
    }
}

TEST(DirectStandardization, TwoStrataByHand)
{
    // d = (1, 3), n = (100, 200), equal weights: R = 0.5 * 0.01 + 0.5 * 0.015 = 0.0125,
    // V = 0.25 * 1/100^2 + 0.25 * 3/200^2 = 4.375e-5, w_M = 0.5/100 = 0.005.
    const StandardizedRate rate = directlyStandardizedRate({1, 3}, {100, 200}, {50, 50}, 0.95);
    EXPECT_NEAR(rate.rate, 0.0125, 1e-17);
    EXPECT_NEAR(rate.variance, 4.375e-5, 1e-19);
    // lower: Gamma(R^2/V = 3.5714..., scale V/R = 0.0035) at 0.025; upper: Gamma((R + w_M)^2 / (V + w_M^2)
    // = 0.0175^2 / 6.875e-5, scale 6.875e-5 / 0.0175) at 0.975.
    EXPECT_NEAR(regularizedGammaP(0.0125 * 0.0125 / 4.375e-5, rate.interval.lower / 0.0035), 0.025, 1e-14);
    EXPECT_NEAR(regularizedGammaQ(0.0175 * 0.0175 / 6.875e-5, rate.interval.upper / (6.875e-5 / 0.0175)),
                0.025, 1e-14);
    // The standard's scale does not matter.
    const StandardizedRate same = directlyStandardizedRate({1, 3}, {100, 200}, {1, 1}, 0.95);
    EXPECT_DOUBLE_EQ(same.interval.upper, rate.interval.upper);
}

TEST(DirectStandardization, NoCaseGivesZeroAndAnUpperBound)
{
    // R = V = 0: the lower bound is 0 (R: NaN), the upper Gamma(1, scale w_M) at 0.975 = -ln(0.025) w_M.
    const StandardizedRate rate = directlyStandardizedRate({0, 0}, {100, 400}, {3, 1}, 0.95);
    EXPECT_EQ(rate.rate, 0.0);
    EXPECT_EQ(rate.interval.lower, 0.0);
    EXPECT_NEAR(rate.interval.upper, -std::log(0.025) * 0.0075, 1e-16);
}

TEST(DirectStandardization, RefusesWhatItCannotWeigh)
{
    EXPECT_THROW(directlyStandardizedRate({1, 0}, {100, 0}, {1, 1}, 0.95), std::domain_error);
    EXPECT_THROW(directlyStandardizedRate({1}, {100, 200}, {1, 1}, 0.95), std::domain_error);
    EXPECT_THROW(directlyStandardizedRate({1}, {100}, {0}, 0.95), std::domain_error);
}

TEST(IndirectStandardization, ReferenceRatesExpectedCasesAndRatio)
{
    // Two areas by two strata: stratum rates (1 + 3) / (10 + 30) and (2 + 4) / (20 + 40), both 0.1.
    const std::vector<double> rates = studyReferenceRates({1, 2, 3, 4}, {10, 20, 30, 40}, 2);
    ASSERT_EQ(rates.size(), 2u);
    EXPECT_DOUBLE_EQ(rates[0], 0.1);
    EXPECT_DOUBLE_EQ(rates[1], 0.1);
    const double population[] = {10, 20};
    EXPECT_DOUBLE_EQ(expectedCases(population, {0.1, 0.3}), 7.0);
    // A stratum nobody is in gets rate 0.
    EXPECT_EQ(studyReferenceRates({0, 2}, {0, 20}, 2)[0], 0.0);

    const StandardizedRatio ratio = standardizedRatio(5, 2.5, 0.95);
    EXPECT_DOUBLE_EQ(ratio.ratio, 2.0);
    EXPECT_DOUBLE_EQ(ratio.interval.upper, exactPoissonInterval(5, 2.5, 0.95).upper);
    EXPECT_NEAR(ratio.interval.lower * 2.5, 1.6234864, 1e-7); // Ulm's 1.6235 for 5 cases
}

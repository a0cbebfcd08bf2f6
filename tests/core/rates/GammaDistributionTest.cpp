// The gamma distribution against closed forms: the exponential (shape 1), erf (shape 1/2), the finite Poisson
// sums (whole shapes) and published exact Poisson limits. R's qgamma over a grid: RatesAgainstRTest.cpp.
#include "rates/GammaDistribution.h"
#include "rates/PoissonInterval.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

using namespace vbas;

namespace
{
/** Q(n, x) = e^-x sum_{k<n} x^k / k! for a whole shape n. */
double poissonTail(int n, double x)
{
    double term = std::exp(-x), sum = 0.0;
    for (int k = 0; k < n; ++k)
    {
        sum += term;
        term *= x / (k + 1);
    }
    return sum;
}

void expectRelative(double actual, double expected, double tolerance)
{
    EXPECT_LE(std::abs(actual - expected), tolerance * std::abs(expected)) << actual << " vs " << expected;
}
} // namespace

TEST(GammaDistribution, ShapeOneIsTheExponential)
{
    for (double p : {1e-12, 1e-4, 0.025, 0.5, 0.975, 0.999999, 1.0 - 1e-9})
    {
        expectRelative(gammaQuantile(p, 1.0), -std::log1p(-p), 1e-13);
        expectRelative(gammaQuantile(p, 1.0, 2.5), -2.5 * std::log1p(-p), 1e-13);
    }
    for (double x : {1e-8, 0.3, 1.0, 7.0, 40.0})
        expectRelative(regularizedGammaQ(1.0, x), std::exp(-x), 1e-14);
}

TEST(GammaDistribution, ShapeOneHalfIsTheErrorFunction)
{
    for (double x : {1e-6, 0.1, 1.0, 2.5, 10.0, 30.0})
    {
        expectRelative(regularizedGammaP(0.5, x), std::erf(std::sqrt(x)), 1e-14);
        expectRelative(regularizedGammaQ(0.5, x), std::erfc(std::sqrt(x)), 1e-12);
    }
    for (double p : {1e-9, 0.025, 0.3})
        expectRelative(std::erf(std::sqrt(gammaQuantile(p, 0.5))), p, 1e-13);
    for (double p : {0.7, 0.975, 1.0 - 1e-9})
        expectRelative(std::erfc(std::sqrt(gammaQuantile(p, 0.5))), 1.0 - p, 1e-12);
    // The chi-square quantile of one degree of freedom at 0.975, as tables print it: 5.0239.
    EXPECT_NEAR(gammaQuantile(0.975, 0.5, 2.0), 5.0239, 5e-5);
}

TEST(GammaDistribution, WholeShapesAreFinitePoissonSums)
{
    for (int n : {2, 5, 20, 150})
    {
        for (double x : {0.5, double(n), 3.0 * n})
            expectRelative(regularizedGammaQ(n, x), poissonTail(n, x), 1e-13);
        for (double p : {1e-6, 0.025, 0.5, 0.975})
            expectRelative(poissonTail(n, gammaQuantile(p, n)), 1.0 - p, 1e-12);
    }
}

TEST(GammaDistribution, EdgesAndBadArguments)
{
    EXPECT_EQ(gammaQuantile(0.3, 0.0), 0.0); // all mass at 0, as R's qgamma(p, 0)
    EXPECT_EQ(gammaQuantile(0.0, 4.0), 0.0);
    EXPECT_EQ(gammaQuantile(1.0, 4.0), std::numeric_limits<double>::infinity());
    EXPECT_EQ(regularizedGammaP(3.0, 0.0), 0.0);
    EXPECT_EQ(regularizedGammaQ(3.0, std::numeric_limits<double>::infinity()), 0.0);
    EXPECT_THROW(gammaQuantile(0.5, -1.0), std::domain_error);
    EXPECT_THROW(gammaQuantile(1.5, 1.0), std::domain_error);
    EXPECT_THROW(gammaQuantile(std::nan(""), 1.0), std::domain_error);
    EXPECT_THROW(gammaQuantile(0.5, 1.0, 0.0), std::domain_error);
}

TEST(PoissonInterval, ExactLimitsOfSmallCounts)
{
    // No case: [0, -ln 0.025]; one case: lower -ln 0.975, upper u with e^-u (1 + u) = 0.025.
    const ConfidenceInterval none = exactPoissonInterval(0, 1.0, 0.95);
    EXPECT_EQ(none.lower, 0.0);
    expectRelative(none.upper, -std::log(0.025), 1e-14);
    const ConfidenceInterval one = exactPoissonInterval(1, 1.0, 0.95);
    expectRelative(one.lower, -std::log(0.975), 1e-13);
    EXPECT_NEAR(std::exp(-one.upper) * (1.0 + one.upper), 0.025, 1e-15);
    // Published 95 % exact limits (Ulm 1990, Am J Epidemiol 131:373): 5 cases 1.6235-11.6683, 10 cases
    // 4.7954-18.3904; per 1,000 person-years they scale by 1/1000.
    const ConfidenceInterval five = exactPoissonInterval(5, 1000.0, 0.95);
    EXPECT_NEAR(five.lower * 1000, 1.6235, 1e-4);
    EXPECT_NEAR(five.upper * 1000, 11.6683, 1e-4);
    const ConfidenceInterval ten = exactPoissonInterval(10, 1.0, 0.95);
    EXPECT_NEAR(ten.lower, 4.7954, 1e-4);
    EXPECT_NEAR(ten.upper, 18.3904, 1e-4);
    EXPECT_THROW(exactPoissonInterval(-1, 1.0, 0.95), std::domain_error);
    EXPECT_THROW(exactPoissonInterval(1, 0.0, 0.95), std::domain_error);
    EXPECT_THROW(exactPoissonInterval(1, 1.0, 1.0), std::domain_error);
}

#include "GammaDistribution.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace vbas
{
namespace
{
constexpr double kLogSqrtTwoPi = 0.918938533204672741780329736406; // log(sqrt(2 pi))
constexpr double kTwoPi = 6.283185307179586476925286766559;
constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
constexpr int kMostTerms = 100000000;

/** log(x!) - ((x + 1/2) log x - x + log sqrt(2 pi)), the error of Stirling's formula (Loader 2000). */
double stirlingError(double x)
{
    if (x <= 15.0)
        return std::lgamma(x + 1.0) - (x + 0.5) * std::log(x) + x - kLogSqrtTwoPi;
    const double s0 = 1.0 / 12, s1 = 1.0 / 360, s2 = 1.0 / 1260, s3 = 1.0 / 1680, s4 = 1.0 / 1188;
    const double xx = x * x;
    if (x > 500)
        return (s0 - s1 / xx) / x;
    if (x > 80)
        return (s0 - (s1 - s2 / xx) / xx) / x;
    if (x > 35)
        return (s0 - (s1 - (s2 - s3 / xx) / xx) / xx) / x;
    return (s0 - (s1 - (s2 - (s3 - s4 / xx) / xx) / xx) / xx) / x;
}

/** x log(x / mean) + mean - x without the cancellation of its terms when x is near mean (Loader 2000). */
double deviance(double x, double mean)
{
    if (std::abs(x - mean) < 0.1 * (x + mean))
    {
        double v = (x - mean) / (x + mean);
        double sum = (x - mean) * v;
        double term = 2.0 * x * v;
        v *= v;
        for (int j = 1; j < 1000; ++j)
        {
            term *= v;
            const double next = sum + term / (2 * j + 1);
            if (next == sum)
                return next;
            sum = next;
        }
        return sum;
    }
    return x * std::log(x / mean) + mean - x;
}

/** mean^x e^-mean / Gamma(x + 1) for real x >= 0: the Poisson density extended to a real count. */
double poissonDensity(double x, double mean)
{
    if (mean == 0.0)
        return x == 0.0 ? 1.0 : 0.0;
    if (x == 0.0)
        return std::exp(-mean);
    return std::exp(-stirlingError(x) - deviance(x, mean)) / std::sqrt(kTwoPi * x);
}

/** P(shape, x) by its power series, for x < shape + 1. */
double lowerSeries(double shape, double x)
{
    double term = 1.0;
    double sum = 1.0;
    for (int n = 1; n < kMostTerms; ++n)
    {
        term *= x / (shape + n);
        sum += term;
        if (term < sum * kEpsilon)
            break;
    }
    return poissonDensity(shape, x) * sum;
}

/** Q(shape, x) by Legendre's continued fraction (modified Lentz), for x >= shape + 1. */
double upperFraction(double shape, double x)
{
    const double tiny = std::numeric_limits<double>::min() / kEpsilon;
    double b = x + 1.0 - shape;
    double c = 1.0 / tiny;
    double d = 1.0 / b;
    double fraction = d;
    for (int i = 1; i < kMostTerms; ++i)
    {
        const double an = -i * (i - shape);
        b += 2.0;
        d = an * d + b;
        if (std::abs(d) < tiny)
            d = tiny;
        c = b + an / c;
        if (std::abs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        const double step = d * c;
        fraction *= step;
        if (std::abs(step - 1.0) < kEpsilon)
            break;
    }
    // x^shape e^-x / Gamma(shape) = shape * x^shape e^-x / Gamma(shape + 1)
    return shape * poissonDensity(shape, x) * fraction;
}

void checkShape(double shape)
{
    if (!(shape >= 0.0) || std::isinf(shape))
        throw std::domain_error("gamma distribution: the shape must be finite and at least 0");
}
} // namespace

double regularizedGammaP(double shape, double x)
{
    checkShape(shape);
    if (x <= 0.0 || shape == 0.0)
        return shape == 0.0 && x >= 0.0 ? 1.0 : 0.0;
    if (std::isinf(x))
        return 1.0;
    return x < shape + 1.0 ? lowerSeries(shape, x) : 1.0 - upperFraction(shape, x);
}

double regularizedGammaQ(double shape, double x)
{
    checkShape(shape);
    if (x <= 0.0 || shape == 0.0)
        return shape == 0.0 && x >= 0.0 ? 0.0 : 1.0;
    if (std::isinf(x))
        return 0.0;
    return x < shape + 1.0 ? 1.0 - lowerSeries(shape, x) : upperFraction(shape, x);
}

double gammaQuantile(double probability, double shape, double scale)
{
    checkShape(shape);
    if (!(scale > 0.0) || std::isinf(scale))
        throw std::domain_error("gamma distribution: the scale must be positive and finite");
    if (!(probability >= 0.0 && probability <= 1.0))
        throw std::domain_error("gamma distribution: a probability must lie in [0, 1]");
    if (shape == 0.0 || probability == 0.0)
        return 0.0;
    if (probability == 1.0)
        return std::numeric_limits<double>::infinity();

    // The tail that is smaller is the one solved for, so that its digits are not lost to 1 - p.
    const bool upperTail = probability > 0.5;
    const double tail = upperTail ? 1.0 - probability : probability;

    // Starting point (Numerical Recipes, invgammp): Wilson-Hilferty above shape 1, the small-x power law
    // below.
    double x;
    if (shape > 1.0)
    {
        const double t = std::sqrt(-2.0 * std::log(tail));
        double z = (2.30753 + t * 0.27061) / (1.0 + t * (0.99229 + t * 0.04481)) - t;
        if (!upperTail)
            z = -z;
        const double cube = 1.0 - 1.0 / (9.0 * shape) - z / (3.0 * std::sqrt(shape));
        x = std::max(1e-3, shape * cube * cube * cube);
    }
    else
    {
        const double t = 1.0 - shape * (0.253 + shape * 0.12);
        x = probability < t ? std::pow(probability / t, 1.0 / shape)
                            : 1.0 - std::log(1.0 - (probability - t) / (1.0 - t));
    }
    if (x == 0.0)
        return 0.0; // below the smallest double

    // Halley's method on the chosen tail; the density (shape / x) * poissonDensity(shape, x) keeps its
    // digits. It stops when the step is below rounding or stops shrinking (the residual is then rounding
    // noise).
    double lastStep = std::numeric_limits<double>::infinity();
    for (int iteration = 0; iteration < 200; ++iteration)
    {
        const double residual =
            upperTail ? tail - regularizedGammaQ(shape, x) : regularizedGammaP(shape, x) - tail;
        const double density = shape / x * poissonDensity(shape, x);
        if (density == 0.0)
            break;
        const double newton = residual / density;
        const double step = newton / (1.0 - 0.5 * std::min(1.0, newton * ((shape - 1.0) / x - 1.0)));
        double next = x - step;
        if (next <= 0.0)
            next = 0.5 * x;
        const double moved = std::abs(next - x);
        if (iteration >= 3 && moved >= lastStep)
            break;
        x = next;
        lastStep = moved;
        if (moved <= 4.0 * kEpsilon * x)
            break;
    }
    return x * scale;
}

} // namespace vbas

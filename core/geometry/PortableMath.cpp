#include "geometry/PortableMath.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace vbas::portable
{
namespace
{
constexpr double kPi = 3.14159265358979323846;
constexpr double kRadiansPerDegree = kPi / 180.0;

/** (-1)^k / (2k + 1)! and (-1)^k / (2k)! for k = 1..13: the Taylor series of sine and cosine to x^27. */
constexpr double kSineTerms[] = {-1.0 / 6.0,
                                 1.0 / 120.0,
                                 -1.0 / 5040.0,
                                 1.0 / 362880.0,
                                 -1.0 / 39916800.0,
                                 1.0 / 6227020800.0,
                                 -1.0 / 1307674368000.0,
                                 1.0 / 355687428096000.0,
                                 -1.0 / 121645100408832000.0,
                                 1.0 / 51090942171709440000.0,
                                 -1.0 / 25852016738884976640000.0,
                                 1.0 / 15511210043330985984000000.0,
                                 -1.0 / 10888869450418352160768000000.0};
constexpr double kCosineTerms[] = {-1.0 / 2.0,
                                   1.0 / 24.0,
                                   -1.0 / 720.0,
                                   1.0 / 40320.0,
                                   -1.0 / 3628800.0,
                                   1.0 / 479001600.0,
                                   -1.0 / 87178291200.0,
                                   1.0 / 20922789888000.0,
                                   -1.0 / 6402373705728000.0,
                                   1.0 / 2432902008176640000.0,
                                   -1.0 / 1124000727777607680000.0,
                                   1.0 / 620448401733239439360000.0,
                                   -1.0 / 403291461126605635584000000.0};

/** sin x and cos x for |x| <= pi / 4 (and a little more), where the series' remainder is far below an ulp. */
void sinCosReduced(double x, double& sine, double& cosine)
{
    const double x2 = x * x;
    double s = 0.0;
    double c = 0.0;
    for (int k = int(std::size(kSineTerms)) - 1; k >= 0; --k) // Horner in x^2, the highest term first
    {
        s = kSineTerms[k] + x2 * s;
        c = kCosineTerms[k] + x2 * c;
    }
    sine = x + x * x2 * s;
    cosine = 1.0 + x2 * c;
}

/** atan t for 0 <= t <= 1: two halvings of the angle bring t below tan(pi / 16), then the series to t^41. */
double atanUnit(double t)
{
    for (int halving = 0; halving < 2; ++halving)
        t = t / (1.0 + std::sqrt(1.0 + t * t)); // tan(a / 2) = tan a / (1 + sqrt(1 + tan^2 a))
    const double t2 = t * t;
    double series = 0.0;
    for (int k = 20; k >= 1; --k)
        series = (k % 2 == 0 ? 1.0 : -1.0) / double(2 * k + 1) + t2 * series;
    return 4.0 * (t + t * t2 * series);
}
} // namespace

void sinCosDegrees(double degrees, double& sine, double& cosine)
{
    // Quarter turns taken off in degrees, where they are exact, then the rest in radians.
    const double quarters = std::nearbyint(degrees / 90.0);
    double s = 0.0;
    double c = 0.0;
    sinCosReduced((degrees - quarters * 90.0) * kRadiansPerDegree, s, c);
    switch (static_cast<long long>(std::fmod(quarters, 4.0) + 4.0) % 4)
    {
    case 0:
        sine = s;
        cosine = c;
        break;
    case 1:
        sine = c;
        cosine = -s;
        break;
    case 2:
        sine = -s;
        cosine = -c;
        break;
    default:
        sine = -c;
        cosine = s;
        break;
    }
}

double atan2(double y, double x)
{
    const double ay = std::abs(y);
    const double ax = std::abs(x);
    if (ay == 0.0 && ax == 0.0)
        return 0.0;
    double angle = ay <= ax ? atanUnit(ay / ax) : kPi / 2.0 - atanUnit(ax / ay);
    if (x < 0.0)
        angle = kPi - angle;
    return y < 0.0 ? -angle : angle;
}

double acos(double x)
{
    x = std::clamp(x, -1.0, 1.0);
    return atan2(std::sqrt((1.0 - x) * (1.0 + x)), x);
}

double asin(double x)
{
    x = std::clamp(x, -1.0, 1.0);
    return atan2(x, std::sqrt((1.0 - x) * (1.0 + x)));
}

} // namespace vbas::portable

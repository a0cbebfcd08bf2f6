#include "geometry/AzimuthalEquidistant.h"

#include "geometry/PortableMath.h"

#include <algorithm>
#include <cmath>

namespace vbas
{
namespace
{
constexpr double kDegreesPerRadian = 180.0 / 3.14159265358979323846;

/** `degrees` brought into [-180, 180). */
double wrapped(double degrees)
{
    const double turns = std::floor((degrees + 180.0) / 360.0);
    return degrees - turns * 360.0;
}
} // namespace

AzimuthalEquidistant::AzimuthalEquidistant(double centreLongitude, double centreLatitude, double semiMajor,
                                           double eccentricitySquared)
    : mCentreLongitude(centreLongitude)
    , mCentreLatitude(centreLatitude)
    , mSemiMajor(semiMajor)
    , mEccentricitySquared(eccentricitySquared)
{
    portable::sinCosDegrees(centreLatitude, mSinCentre, mCosCentre);
    const double w = std::sqrt(1.0 - eccentricitySquared * mSinCentre * mSinCentre);
    const double meridian = semiMajor * (1.0 - eccentricitySquared) / (w * w * w); // M0
    const double primeVertical = semiMajor / w;                                    // N0
    mRadius = std::sqrt(meridian * primeVertical);
    mLatitudeScale = meridian / mRadius;
    mLongitudeScale = primeVertical / mRadius;
}

Point AzimuthalEquidistant::forward(const Point& lonLat) const
{
    // On the fitted sphere: latitude and longitude measured from the centre, scaled.
    const double latitude =
        std::clamp(mCentreLatitude + mLatitudeScale * (lonLat.y - mCentreLatitude), -90.0, 90.0);
    const double longitude = mLongitudeScale * wrapped(lonLat.x - mCentreLongitude);
    double sinLat = 0.0, cosLat = 0.0, sinLon = 0.0, cosLon = 0.0;
    portable::sinCosDegrees(latitude, sinLat, cosLat);
    portable::sinCosDegrees(longitude, sinLon, cosLon);
    // (u, v) points from the centre towards the point with length sin c, c its angular distance.
    const double u = cosLat * sinLon;
    const double v = mCosCentre * sinLat - mSinCentre * cosLat * cosLon;
    const double cosDistance = mSinCentre * sinLat + mCosCentre * cosLat * cosLon;
    const double sinDistance = std::sqrt(u * u + v * v);
    const double scale = sinDistance > 0.0 ? portable::atan2(sinDistance, cosDistance) / sinDistance : 1.0;
    return {mRadius * scale * u, mRadius * scale * v};
}

Point AzimuthalEquidistant::inverse(const Point& xy) const
{
    const double rho = std::sqrt(xy.x * xy.x + xy.y * xy.y);
    if (rho == 0.0)
        return {mCentreLongitude, mCentreLatitude};
    double sinDistance = 0.0, cosDistance = 0.0;
    portable::sinCosDegrees(rho / mRadius * kDegreesPerRadian, sinDistance, cosDistance);
    const double sinLat = cosDistance * mSinCentre + xy.y * sinDistance * mCosCentre / rho;
    const double latitude = portable::asin(sinLat) * kDegreesPerRadian;
    const double longitude = portable::atan2(xy.x * sinDistance, rho * mCosCentre * cosDistance -
                                                                     xy.y * mSinCentre * sinDistance) *
                             kDegreesPerRadian;
    return {wrapped(mCentreLongitude + longitude / mLongitudeScale),
            mCentreLatitude + (latitude - mCentreLatitude) / mLatitudeScale};
}

double AzimuthalEquidistant::ellipsoidalArea(const std::vector<Point>& ring) const
{
    // Cylindrical equal-area: x = a lambda, y = a q / 2, with q / 2 = (1 - e^2) / 2 (s / (1 - e^2 s^2) +
    // atanh(e s) / e), s = sin(latitude); atanh(e s) / e = s (1 + e^2 s^2 / 3 + e^4 s^4 / 5 + ...), whose
    // terms fall by e^2 s^2 < 0.007 each: 12 of them reach the last bit.
    const auto toEqualArea = [this](const Point& xy)
    {
        const Point lonLat = inverse(xy);
        double sine = 0.0, cosine = 0.0;
        portable::sinCosDegrees(lonLat.y, sine, cosine);
        const double e2s2 = mEccentricitySquared * sine * sine;
        double series = 0.0, power = 1.0;
        for (int n = 0; n < 12; ++n, power *= e2s2)
            series += power / double(2 * n + 1);
        const double halfQ = (1.0 - mEccentricitySquared) / 2.0 * (sine / (1.0 - e2s2) + sine * series);
        return Point{mSemiMajor * wrapped(lonLat.x - mCentreLongitude) / kDegreesPerRadian,
                     mSemiMajor * halfQ};
    };
    // The ring's edges are straight in this plane, not on the equal-area one: each is followed in steps of
    // kEdgeStep, along which the two differ by a few square centimetres (unsplit, an edge of 4 km at 42
    // degrees of latitude is some 400 m^2 off).
    constexpr double kEdgeStep = 100.0; // metres
    const std::size_t n = ring.size();
    if (n < 3)
        return 0.0;
    Point previous = toEqualArea(ring[0]);
    double twice = 0.0;
    for (std::size_t i = 0; i < n; ++i)
    {
        const Point& from = ring[i];
        const Point& to = ring[(i + 1) % n];
        const double length = std::hypot(to.x - from.x, to.y - from.y);
        const std::size_t steps = std::max<std::size_t>(1, std::size_t(std::ceil(length / kEdgeStep)));
        for (std::size_t step = 1; step <= steps; ++step)
        {
            const double t = double(step) / double(steps);
            const Point current = toEqualArea(
                step == steps ? to : Point{from.x + t * (to.x - from.x), from.y + t * (to.y - from.y)});
            twice += previous.x * current.y - current.x * previous.y;
            previous = current;
        }
    }
    return twice / 2.0;
}

} // namespace vbas

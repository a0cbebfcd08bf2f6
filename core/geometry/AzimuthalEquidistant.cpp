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
    const std::size_t n = ring.size();
    if (n < 3)
        return 0.0;
    // A point of the ring: its longitude from the centre's (so that a ring across the antimeridian stays in
    // one piece) and its latitude, as the unit vector of its reduced latitude beta, tan beta = (1 - f) tan
    // latitude, on which a geodesic of the ellipsoid is a great circle but for a term of order f (Bessel).
    struct Unit
    {
        double x, y, z;
    };
    const double oneMinusF = std::sqrt(1.0 - mEccentricitySquared);
    const auto unitOf = [&](const Point& xy)
    {
        const Point lonLat = inverse(xy);
        double sinLat = 0.0, cosLat = 0.0, sinLon = 0.0, cosLon = 0.0;
        portable::sinCosDegrees(lonLat.y, sinLat, cosLat);
        portable::sinCosDegrees(wrapped(lonLat.x - mCentreLongitude), sinLon, cosLon);
        const double norm = std::sqrt(oneMinusF * oneMinusF * sinLat * sinLat + cosLat * cosLat);
        const double cosBeta = cosLat / norm;
        return Unit{cosBeta * cosLon, cosBeta * sinLon, oneMinusF * sinLat / norm};
    };
    // Cylindrical equal-area: x = a lambda, y = a q / 2, with q / 2 = (1 - e^2) / 2 (s / (1 - e^2 s^2) +
    // atanh(e s) / e), s = sin(latitude); atanh(e s) / e = s (1 + e^2 s^2 / 3 + e^4 s^4 / 5 + ...), whose
    // terms fall by e^2 s^2 < 0.007 each: 12 of them reach the last bit.
    const auto toEqualArea = [&](const Unit& unit)
    {
        const double cosBeta = std::sqrt(unit.x * unit.x + unit.y * unit.y);
        const double sine = unit.z / std::sqrt(unit.z * unit.z + oneMinusF * oneMinusF * cosBeta * cosBeta);
        const double e2s2 = mEccentricitySquared * sine * sine;
        double series = 0.0, power = 1.0;
        for (int term = 0; term < 12; ++term, power *= e2s2)
            series += power / double(2 * term + 1);
        const double halfQ = (1.0 - mEccentricitySquared) / 2.0 * (sine / (1.0 - e2s2) + sine * series);
        return Point{mSemiMajor * portable::atan2(unit.y, unit.x), mSemiMajor * halfQ};
    };
    // The published ring's edges are read as geodesics (QGIS, GeographicLib, PostGIS's geography), neither
    // straight in this plane nor in longitude and latitude: each is followed along its great circle of
    // reduced latitude in steps of about kEdgeStep, short enough for the sum of chords to be the curve's.
    // Sums are taken from the first point, for the digits.
    constexpr double kEdgeStep = 100.0; // metres
    Unit from = unitOf(ring[0]);
    const Point origin = toEqualArea(from);
    Point previous{0.0, 0.0};
    double twice = 0.0;
    for (std::size_t i = 0; i < n; ++i)
    {
        const Point& here = ring[i];
        const Point& next = ring[(i + 1) % n];
        const Unit to = unitOf(next);
        const double length = std::hypot(next.x - here.x, next.y - here.y);
        const std::size_t steps = std::max<std::size_t>(1, std::size_t(std::ceil(length / kEdgeStep)));
        for (std::size_t step = 1; step <= steps; ++step)
        {
            // Any mean of the ends lies on their great circle; how the steps spread along it does not matter.
            const double t = double(step) / double(steps);
            const Unit between = step == steps
                                     ? to
                                     : Unit{from.x + t * (to.x - from.x), from.y + t * (to.y - from.y),
                                            from.z + t * (to.z - from.z)};
            const Point equalArea = toEqualArea(between);
            const Point current{equalArea.x - origin.x, equalArea.y - origin.y};
            twice += previous.x * current.y - current.x * previous.y;
            previous = current;
        }
        from = to;
    }
    return twice / 2.0;
}

} // namespace vbas

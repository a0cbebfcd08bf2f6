// The portable trigonometry against the C library's, and VBAS's azimuthal equidistant projection against
// ellipsoidal geodesics (Vincenty's inverse formula, written here from its publication) and its own inverse.

#include "geometry/AzimuthalEquidistant.h"
#include "geometry/PortableMath.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace vbas;

namespace
{
constexpr double kPi = 3.14159265358979323846;
constexpr double kGrs80SemiMajor = 6378137.0;
constexpr double kGrs80Flattening = 1.0 / 298.257222101;
const double kGrs80EccentricitySquared = kGrs80Flattening * (2.0 - kGrs80Flattening);

double radians(double degrees)
{
    return degrees * kPi / 180.0;
}

/**
 * The length of the geodesic between two points (degrees) on the ellipsoid (a, f): T. Vincenty, "Direct and
 * inverse solutions of geodesics on the ellipsoid with application of nested equations", Survey Review 23
 * (1975), the inverse formula (iterated to 1e-13 radians), with the C library's functions.
 */
double geodesicLength(double lon1, double lat1, double lon2, double lat2, double a, double f)
{
    const double b = a * (1.0 - f);
    const double u1 = std::atan((1.0 - f) * std::tan(radians(lat1)));
    const double u2 = std::atan((1.0 - f) * std::tan(radians(lat2)));
    const double l = radians(lon2 - lon1);
    double lambda = l, sinSigma = 0, cosSigma = 0, sigma = 0, cos2Alpha = 0, cos2SigmaM = 0;
    for (int i = 0; i < 200; ++i)
    {
        const double sinLambda = std::sin(lambda), cosLambda = std::cos(lambda);
        sinSigma = std::hypot(std::cos(u2) * sinLambda,
                              std::cos(u1) * std::sin(u2) - std::sin(u1) * std::cos(u2) * cosLambda);
        if (sinSigma == 0)
            return 0;
        cosSigma = std::sin(u1) * std::sin(u2) + std::cos(u1) * std::cos(u2) * cosLambda;
        sigma = std::atan2(sinSigma, cosSigma);
        const double sinAlpha = std::cos(u1) * std::cos(u2) * sinLambda / sinSigma;
        cos2Alpha = 1 - sinAlpha * sinAlpha;
        cos2SigmaM = cos2Alpha != 0 ? cosSigma - 2 * std::sin(u1) * std::sin(u2) / cos2Alpha : 0;
        const double c = f / 16 * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha));
        const double previous = lambda;
        lambda =
            l + (1 - c) * f * sinAlpha *
                    (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)));
        if (std::abs(lambda - previous) < 1e-13)
            break;
    }
    const double uSquared = cos2Alpha * (a * a - b * b) / (b * b);
    const double bigA = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)));
    const double bigB = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)));
    const double deltaSigma = bigB * sinSigma *
                              (cos2SigmaM + bigB / 4 *
                                                (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) -
                                                 bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) *
                                                     (-3 + 4 * cos2SigmaM * cos2SigmaM)));
    return b * bigA * (sigma - deltaSigma);
}
} // namespace

TEST(PortableMath, AgreesWithTheCLibraryToAFewUlps)
{
    std::mt19937_64 random(42);
    std::uniform_real_distribution<double> degrees(-720.0, 720.0);
    for (int i = 0; i < 100000; ++i)
    {
        const double angle = i < 1441 ? -360.0 + 0.5 * i : degrees(random); // every half degree, then random
        double sine = 0, cosine = 0;
        portable::sinCosDegrees(angle, sine, cosine);
        // The reference in extended precision: in double, an angle in radians near pi already errs by more.
        const long double reduced = static_cast<long double>(std::remainder(angle, 360.0)) *
                                    3.14159265358979323846264338327950288L / 180;
        EXPECT_NEAR(sine, static_cast<double>(std::sin(reduced)), 3e-16) << angle;
        EXPECT_NEAR(cosine, static_cast<double>(std::cos(reduced)), 3e-16) << angle;
    }
    std::uniform_real_distribution<double> coordinate(-10.0, 10.0);
    for (int i = 0; i < 100000; ++i)
    {
        const double y = coordinate(random), x = coordinate(random);
        EXPECT_NEAR(portable::atan2(y, x), std::atan2(y, x), 1e-15) << y << ", " << x;
        const double unit = std::tanh(y);
        EXPECT_NEAR(portable::acos(unit), std::acos(unit), 1e-15) << unit;
        EXPECT_NEAR(portable::asin(unit), std::asin(unit), 1e-15) << unit;
    }
    EXPECT_EQ(portable::atan2(0.0, 0.0), 0.0);
    EXPECT_EQ(portable::atan2(0.0, -1.0), kPi);
    EXPECT_EQ(portable::atan2(1.0, 0.0), kPi / 2);
}

TEST(AzimuthalEquidistant, TheCentreIsTheOriginAndScaleIsExactAroundIt)
{
    const AzimuthalEquidistant projection(-34.872356, -7.999569, kGrs80SemiMajor, kGrs80EccentricitySquared);
    const Point origin = projection.forward({-34.872356, -7.999569});
    EXPECT_EQ(origin.x, 0.0);
    EXPECT_EQ(origin.y, 0.0);
    // A step of 1e-5 degrees north and east: the ellipsoid's radii of curvature M0 and N0 cos(lat) per
    // radian.
    const double sinLat = std::sin(radians(-7.999569));
    const double w = std::sqrt(1 - kGrs80EccentricitySquared * sinLat * sinLat);
    const double meridian = kGrs80SemiMajor * (1 - kGrs80EccentricitySquared) / (w * w * w);
    const double parallel = kGrs80SemiMajor / w * std::cos(radians(-7.999569));
    const Point north = projection.forward({-34.872356, -7.999569 + 1e-5});
    const Point east = projection.forward({-34.872356 + 1e-5, -7.999569});
    EXPECT_NEAR(north.y / (meridian * radians(1e-5)), 1.0, 1e-9);
    EXPECT_NEAR(east.x / (parallel * radians(1e-5)), 1.0, 1e-9);
    EXPECT_NEAR(north.x, 0.0, 1e-9);
    EXPECT_NEAR(east.y, 0.0, 1e-6);
}

TEST(AzimuthalEquidistant, DistancesFromTheCentreAreTheEllipsoidsGeodesics)
{
    // Centres at several latitudes; points 10, 100 and 1,000 km away in every direction err under 1e-5,
    // 1e-4 and 1e-3 of their distance (the fitted sphere's error grows with the distance).
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> direction(0.0, 360.0);
    for (const double centreLatitude : {-60.0, -8.0, 0.0, 35.0, 52.0, 71.0})
    {
        const AzimuthalEquidistant projection(10.0, centreLatitude, kGrs80SemiMajor,
                                              kGrs80EccentricitySquared);
        for (const auto& [reachDegrees, tolerance] :
             {std::pair(0.09, 1e-5), std::pair(0.9, 1e-4), std::pair(9.0, 1e-3)})
            for (int i = 0; i < 200; ++i)
            {
                const double azimuth = radians(direction(random));
                const double lat = centreLatitude + reachDegrees * std::cos(azimuth);
                const double lon =
                    10.0 + reachDegrees * std::sin(azimuth) / std::cos(radians(centreLatitude));
                const Point xy = projection.forward({lon, lat});
                const double geodesic =
                    geodesicLength(10.0, centreLatitude, lon, lat, kGrs80SemiMajor, kGrs80Flattening);
                EXPECT_NEAR(std::hypot(xy.x, xy.y) / geodesic, 1.0, tolerance)
                    << "centre latitude " << centreLatitude << ", point " << lon << " " << lat;
            }
    }
}

TEST(AzimuthalEquidistant, InverseGivesBackTheCoordinates)
{
    std::mt19937_64 random(11);
    std::uniform_real_distribution<double> offset(-5.0, 5.0);
    const AzimuthalEquidistant projection(179.5, -17.0, kGrs80SemiMajor, kGrs80EccentricitySquared);
    for (int i = 0; i < 10000; ++i)
    {
        const Point lonLat{179.5 + offset(random), -17.0 + offset(random)};
        const Point back = projection.inverse(projection.forward(lonLat));
        // Across the antimeridian the longitude comes back in [-180, 180).
        EXPECT_NEAR(std::remainder(back.x - lonLat.x, 360.0), 0.0, 1e-11) << lonLat.x << " " << lonLat.y;
        EXPECT_NEAR(back.y, lonLat.y, 1e-11) << lonLat.x << " " << lonLat.y;
    }
    EXPECT_EQ(projection.inverse({0.0, 0.0}).x, 179.5);
}

// The area of a quadrangle between meridians and parallels, its edges densified in longitude and latitude and
// projected, against the ellipsoid's area element M N cos(latitude) integrated by Simpson's rule with the C
// library's functions: a cell of 0.1 degree at Boston's latitude, 45 km from the centre; and a cell of
// Olinda.
TEST(AzimuthalEquidistant, EllipsoidalAreaIsTheEllipsoidsArea)
{
    const auto integrated = [](double west, double south, double east, double north)
    {
        const int steps = 2000;
        const double h = radians(north - south) / steps;
        double sum = 0.0;
        for (int i = 0; i <= steps; ++i)
        {
            const double latitude = radians(south) + i * h;
            const double w = 1.0 - kGrs80EccentricitySquared * std::sin(latitude) * std::sin(latitude);
            const double element = kGrs80SemiMajor * kGrs80SemiMajor * (1.0 - kGrs80EccentricitySquared) *
                                   std::cos(latitude) / (w * w);
            sum += element * (i == 0 || i == steps ? 1.0 : i % 2 == 1 ? 4.0 : 2.0);
        }
        return sum * h / 3.0 * radians(east - west);
    };
    const auto projectedArea =
        [](const AzimuthalEquidistant& plane, double west, double south, double east, double north)
    {
        std::vector<Point> ring;
        const int perEdge = 200;
        for (int i = 0; i < perEdge; ++i)
            ring.push_back(plane.forward({west + (east - west) * i / perEdge, south}));
        for (int i = 0; i < perEdge; ++i)
            ring.push_back(plane.forward({east, south + (north - south) * i / perEdge}));
        for (int i = 0; i < perEdge; ++i)
            ring.push_back(plane.forward({east - (east - west) * i / perEdge, north}));
        for (int i = 0; i < perEdge; ++i)
            ring.push_back(plane.forward({west, north - (north - south) * i / perEdge}));
        return plane.ellipsoidalArea(ring);
    };
    const AzimuthalEquidistant boston(-71.5, 42.0, kGrs80SemiMajor, kGrs80EccentricitySquared);
    const double cell = integrated(-71.0, 42.0, -70.9, 42.1);
    EXPECT_NEAR(projectedArea(boston, -71.0, 42.0, -70.9, 42.1), cell, 1e-9 * cell);
    // Edges read as geodesics, as QGIS and GeographicLib read them. The expected areas are GeographicLib's
    // (pyproj 3.4.1, PROJ 9.1.1: Geod(...).polygon_area_perimeter): a triangle of 2 km edges near Boston on
    // Clarke 1866 (NAD27's ellipsoid), and 10 degrees across the antimeridian by the Aleutians on GRS80.
    const double clarkeSemiMajor = 6378206.4, clarkeSemiMinor = 6356583.8;
    const AzimuthalEquidistant nad27(-71.0, 42.3, clarkeSemiMajor,
                                     1.0 - clarkeSemiMinor * clarkeSemiMinor /
                                               (clarkeSemiMajor * clarkeSemiMajor));
    const std::vector<Point> triangle{nad27.forward({-71.0, 42.3}), nad27.forward({-70.98, 42.3}),
                                      nad27.forward({-71.0, 42.32})};
    EXPECT_NEAR(nad27.ellipsoidalArea(triangle), 1831956.9263763428, 1e-6 * 1831956.9263763428);
    const AzimuthalEquidistant alaska(-160.0, 60.0, kGrs80SemiMajor, kGrs80EccentricitySquared);
    const std::vector<Point> aleutians{alaska.forward({175.0, 51.0}), alaska.forward({-175.0, 51.0}),
                                       alaska.forward({-175.0, 53.0}), alaska.forward({175.0, 53.0})};
    // Edges of 700 km: the great circle of reduced latitude strays from the geodesic by a term of order f.
    EXPECT_NEAR(alaska.ellipsoidalArea(aleutians), 152489247409.958, 2e-5 * 152489247409.958);
    // Clockwise: the same area, negative.
    std::vector<Point> square{boston.forward({-71.0, 42.0}), boston.forward({-71.0, 42.01}),
                              boston.forward({-70.99, 42.01}), boston.forward({-70.99, 42.0})};
    EXPECT_LT(boston.ellipsoidalArea(square), 0.0);
    const AzimuthalEquidistant olinda(-34.85, -8.0, kGrs80SemiMajor, kGrs80EccentricitySquared);
    const double small = integrated(-34.9, -8.02, -34.88, -8.0);
    EXPECT_NEAR(projectedArea(olinda, -34.9, -8.02, -34.88, -8.0), small, 1e-9 * small);
}

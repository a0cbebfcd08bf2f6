#pragma once

#include "base/Types.h"

#include <vector>

namespace vbas
{

/**
 * The plane VBAS computes geographic regions in: an azimuthal equidistant projection centred on them, on
 * their ellipsoid, in metres. It is VBAS's own, computed with portable arithmetic (PortableMath.h)
 * rather than with PROJ, so that the same coordinates give the same plane to the last bit on every platform
 * and with every version of the libraries: PROJ's ellipsoidal projection moves points by up to 3 nanometres
 * between PROJ 9.1 and 9.6, and that was enough to make the demo 40 regions on one and 39 on the other.
 *
 * The ellipsoid is replaced by the sphere that fits it at the centre: of radius R = sqrt(M0 N0) (M0, N0 the
 * radii of curvature in the meridian and the prime vertical there), with latitudes measured from the centre
 * scaled by M0 / R and longitudes by N0 / R, so that the scale is exact at the centre in every direction.
 * Distances from the centre then err by about the change of the ellipsoid's curvature over them, some
 * 10^-4 of the distance per 100 km (under 10^-3 within 1,000 km; tests/core/geometry compare with
 * ellipsoidal geodesics): less than the projection's own distortion across the direction from the centre,
 * c^2 / 6 at an angular distance c (4 10^-5 at 100 km, 4 10^-3 at 1,000 km).
 */
class AzimuthalEquidistant
{
public:
    /**
     * A projection centred on (`centreLongitude`, `centreLatitude`), degrees, on the ellipsoid of semi-major
     * axis `semiMajor` (metres) and squared eccentricity `eccentricitySquared` (0: a sphere).
     */
    AzimuthalEquidistant(double centreLongitude, double centreLatitude, double semiMajor,
                         double eccentricitySquared);

    /** Returns the point (metres) of the longitude and latitude (degrees) `lonLat`. */
    Point forward(const Point& lonLat) const;
    /** Returns the longitude and latitude (degrees) of the point `xy` (metres); forward()'s inverse. */
    Point inverse(const Point& xy) const;
    /**
     * Returns the area on the ellipsoid (square metres; positive when counter-clockwise) of the ring whose
     * vertices in the plane are `ring` (the last may repeat the first), taken back to longitude and latitude
     * with its edges geodesics there, as the published ring is read (QGIS measures it so): the edges followed
     * in steps of about 100 m and summed on the ellipsoid's cylindrical equal-area projection, in portable
     * arithmetic. The plane's own areas err by the fitted sphere's curvature (some 10^-4 per 100 km) and by
     * edges that are straight in the plane; these are the ellipsoid's, the same on every platform.
     */
    double ellipsoidalArea(const std::vector<Point>& ring) const;

    double centreLongitude() const { return mCentreLongitude; }
    double centreLatitude() const { return mCentreLatitude; }
    /** The radius of the sphere fitted at the centre, metres. */
    double radius() const { return mRadius; }

private:
    double mCentreLongitude;
    double mCentreLatitude;
    double mSemiMajor;
    double mEccentricitySquared;
    double mRadius = 0.0;
    double mLatitudeScale = 1.0;  //!< M0 / R
    double mLongitudeScale = 1.0; //!< N0 / R
    double mSinCentre = 0.0;
    double mCosCentre = 1.0;
};

} // namespace vbas

// The planar frame a job computes in: distances in metres whatever the CRS of the small areas.

#include "vbasjobloader.h"
#include "vbasqgiscompat.h"

#include <qgsdistancearea.h>
#include <qgsproject.h>
#include <qgsrectangle.h>

#include <gtest/gtest.h>

namespace
{
/** Returns the planar distance between two points given in the frame's source CRS. */
/** Returns `point` (in the frame's source CRS) in the frame's plane. */
QgsPointXY planar(const VbasPlanarFrame& frame, const QgsPointXY& point)
{
    return frame.toPlane(QgsGeometry::fromPointXY(point)).asPoint();
}

double planarDistance(const VbasPlanarFrame& frame, const QgsPointXY& a, const QgsPointXY& b)
{
    return planar(frame, a).distance(planar(frame, b));
}
} // namespace

TEST(PlanarFrame, GeographicSourceIsProjectedOnItsOwnDatumCentredOnTheData)
{
    const QgsCoordinateReferenceSystem sirgas(QStringLiteral("EPSG:4674"));
    const QgsRectangle olinda(-34.917, -8.044, -34.828, -7.955);
    const VbasPlanarFrame frame(sirgas, olinda, QgsProject::instance()->transformContext());
    EXPECT_FALSE(frame.planarCrs().isGeographic());
    EXPECT_EQ(frame.planarCrs().mapUnits(), VbasCompat::DistanceMeters);
    EXPECT_TRUE(frame.planarCrs().toProj().contains("+proj=aeqd"))
        << frame.planarCrs().toProj().toStdString();
    EXPECT_TRUE(frame.planarCrs().toProj().contains("+ellps=GRS80"))
        << "SIRGAS 2000's ellipsoid, no datum shift";

    const QgsPointXY centre = planar(frame, olinda.center());
    EXPECT_NEAR(centre.x(), 0.0, 1e-3);
    EXPECT_NEAR(centre.y(), 0.0, 1e-3);

    // Across the data, planar distances are the ellipsoidal ones QGIS measures.
    QgsDistanceArea ellipsoidal;
    ellipsoidal.setSourceCrs(sirgas, frame.transformContext());
    ellipsoidal.setEllipsoid(QStringLiteral("GRS80"));
    const QgsPointXY west(-34.917, -8.044);
    const QgsPointXY east(-34.828, -7.955);
    const double expected = ellipsoidal.measureLine(west, east);
    EXPECT_NEAR(planarDistance(frame, west, east), expected, 1e-5 * expected);

    // And results go back where they came from.
    const QgsPointXY back = frame.toSource(vbas::Point{planar(frame, west).x(), planar(frame, west).y()});
    EXPECT_NEAR(back.x(), west.x(), 1e-9);
    EXPECT_NEAR(back.y(), west.y(), 1e-9);
}

TEST(PlanarFrame, ProjectedSourceInFeetIsComputedInMetres)
{
    // Massachusetts Mainland in US survey feet: 1000 ft = 1000 * 1200 / 3937 m.
    const QgsCoordinateReferenceSystem feet(QStringLiteral("EPSG:2249"));
    const VbasPlanarFrame frame(feet, QgsRectangle(700000, 2900000, 800000, 3000000),
                                QgsProject::instance()->transformContext());
    EXPECT_EQ(frame.planarCrs().mapUnits(), VbasCompat::DistanceMeters);
    EXPECT_NEAR(planarDistance(frame, {760000, 2950000}, {761000, 2950000}), 1000.0 * 1200.0 / 3937.0, 1e-6);
}

TEST(PlanarFrame, ProjectedSourceInMetresIsUsedAsItIs)
{
    const QgsCoordinateReferenceSystem laea(QStringLiteral("EPSG:3035"));
    const VbasPlanarFrame frame(laea, QgsRectangle(4e6, 2.7e6, 4.7e6, 3.6e6),
                                QgsProject::instance()->transformContext());
    EXPECT_EQ(frame.planarCrs(), laea);
    EXPECT_TRUE(frame.description().startsWith("computing in the CRS of REGIONS"))
        << frame.description().toStdString();
}

TEST(PlanarFrame, SourceWithoutCrsIsTakenAsPlanarInItsOwnUnits)
{
    const VbasPlanarFrame frame(QgsCoordinateReferenceSystem(), QgsRectangle(0, 0, 10, 10),
                                QgsProject::instance()->transformContext());
    EXPECT_FALSE(frame.planarCrs().isValid());
    EXPECT_EQ(frame.toSource(vbas::Point{3.0, 4.0}), QgsPointXY(3.0, 4.0));
    EXPECT_TRUE(frame.description().contains("no CRS")) << frame.description().toStdString();
}

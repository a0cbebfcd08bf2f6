// The plane of the computation on real polygons across the antimeridian (Alaska and the Aleutians,
// data/tests/alaska.gpkg) and on a city (Olinda): a centre on the data, the distortion check and its
// warning, areas within 1 % of QGIS's ellipsoidal areas, and COMPUTATION_CRS.

#include "processingtestutils.h"
#include "realdata.h"
#include "vbasconvert.h"

#include <qgsdistancearea.h>
#include <qgsexception.h>
#include <qgsfeatureiterator.h>
#include <qgsprocessing.h>
#include <qgsproject.h>

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

namespace
{
const QString kAggregate = QStringLiteral("vbas:aggregateregions");

std::unique_ptr<QgsVectorLayer> alaska()
{
    return openData(QStringLiteral("tests/alaska.gpkg"), QStringLiteral("alaska"));
}

QgsCoordinateTransformContext transformContext()
{
    return QgsProject::instance()->transformContext();
}

/** Returns QGIS's measure of areas on the ellipsoid of `crs`. */
QgsDistanceArea ellipsoidal(const QgsCoordinateReferenceSystem& crs)
{
    QgsDistanceArea measure;
    measure.setSourceCrs(crs, transformContext());
    measure.setEllipsoid(crs.ellipsoidAcronym());
    return measure;
}

/**
 * Returns the largest relative error of the planar areas of the polygons of `layer` in `frame`'s plane
 * against their areas on the ellipsoid.
 */
double largestPlanarAreaError(QgsVectorLayer& layer, const VbasPlanarFrame& frame)
{
    const QgsDistanceArea measure = ellipsoidal(layer.crs());
    double largest = 0.0;
    QgsFeature feature;
    QgsFeatureIterator features = layer.getFeatures();
    while (features.nextFeature(feature))
    {
        const QgsGeometry planar = frame.toPlane(feature.geometry());
        const double expected = measure.measureArea(feature.geometry());
        largest = std::max(largest, std::abs(planar.area() - expected) / expected);
    }
    return largest;
}

/** Records for every small area of `regions` (field id): `perRegion` rows, sex alternating, so that every
 * area holds both values and aggregates can be as small as one area. */
std::unique_ptr<QgsVectorLayer> madeUpRecords(QgsVectorLayer& regions, int perRegion)
{
    QList<QVariantList> rows;
    QgsFeature feature;
    QgsFeatureIterator features = regions.getFeatures();
    while (features.nextFeature(feature))
        for (int i = 0; i < perRegion; ++i)
            rows << QVariantList{feature.attribute("id"), i % 2 ? "f" : "m"};
    return makeTable({"region:string", "sex:string"}, rows);
}

QVariantMap releaseParameters(QgsVectorLayer& regions, QgsVectorLayer& records)
{
    const QString temporary = QgsProcessing::TEMPORARY_OUTPUT;
    return {{"REGIONS", asParameter(&regions)},
            {"REGION_ID_FIELD", "id"},
            {"RECORDS", asParameter(&records)},
            {"RECORD_REGION_FIELD", "region"},
            {"QUASI_IDENTIFIERS", QStringList{"sex"}},
            {"K", 5},
            {"SITE_COUNT_METHOD", "sitecount.fixed"},
            {"SITE_COUNT", 20},
            {"OUTPUT", temporary},
            {"OUTPUT_MAPPING", temporary}};
}

/**
 * Checks area_m2 of every aggregate of `run` against QGIS's ellipsoidal area of the same output polygon,
 * within 1 %, and against the sum of its members' original polygons (realdata.h); returns the largest
 * relative difference from the output polygons.
 */
double expectAreasOnTheEllipsoid(const AlgorithmRun& run, QgsVectorLayer& regions)
{
    QgsVectorLayer* aggregates = outputLayer(run, "OUTPUT");
    QgsVectorLayer* mapping = outputLayer(run, "OUTPUT_MAPPING");
    if (!aggregates || !mapping)
        return 1.0;
    const QgsDistanceArea measure = ellipsoidal(aggregates->crs());
    double largest = 0.0;
    QgsFeature feature;
    QgsFeatureIterator features = aggregates->getFeatures();
    while (features.nextFeature(feature))
    {
        const double expected = measure.measureArea(feature.geometry());
        const double reported = feature.attribute("area_m2").toDouble();
        EXPECT_NEAR(reported, expected, 0.01 * expected)
            << "aggregate " << feature.attribute("aggregate_id").toInt();
        largest = std::max(largest, std::abs(reported - expected) / expected);
    }
    EXPECT_GT(expectAreasMatchMembers(*aggregates, *mapping, regions, "id", 0.01), 1);
    return largest;
}
} // namespace

TEST(PlanarFrameAntimeridian, CentreOfAlaskaAndTheAleutiansIsOnTheData)
{
    const std::unique_ptr<QgsVectorLayer> regions = alaska();
    // The extent runs from -180 to +180: its centre is on the other side of the Earth.
    EXPECT_LT(regions->extent().xMinimum(), -178.0);
    EXPECT_GT(regions->extent().xMaximum(), 179.0);

    const VbasPlanarFrame frame(*regions, transformContext());
    ASSERT_TRUE(frame.centre().has_value());
    const QgsPointXY centre = *frame.centre();
    std::cout << "Alaska centre: lon " << centre.x() << ", lat " << centre.y() << "; area distortion "
              << 100.0 * frame.areaDistortion() << " %, distance distortion "
              << 100.0 * frame.distanceDistortion() << " %\n";
    // Inside the data's extent across the antimeridian: from 172 E (-188) eastwards to -130.
    const double lon = centre.x() > 0.0 ? centre.x() - 360.0 : centre.x();
    EXPECT_GT(lon, -188.0);
    EXPECT_LT(lon, -130.0);
    EXPECT_GT(lon, -165.0) << "near the middle of the data (Attu 172.5 E to the cut at 130 W)";
    EXPECT_LT(lon, -150.0);
    EXPECT_GT(centre.y(), 51.3);
    EXPECT_LT(centre.y(), 71.5);
    EXPECT_TRUE(frame.planarCrs().toProj().contains("+proj=aeqd"))
        << frame.planarCrs().toProj().toStdString();
    EXPECT_TRUE(frame.description().contains("centred on them (azimuthal equidistant)"))
        << frame.description().toStdString();

    // The plane's areas: the extent's centre (the frame from the extent alone) overstates them many times;
    // centred on the data they are within a few percent, as the frame measures.
    const VbasPlanarFrame extentFrame(regions->crs(), regions->extent(), transformContext());
    const double before = largestPlanarAreaError(*regions, extentFrame);
    const double after = largestPlanarAreaError(*regions, frame);
    std::cout << "largest planar area error of the 62 polygons: extent centre (lon "
              << extentFrame.centre()->x() << ", lat " << extentFrame.centre()->y() << ") " << 100.0 * before
              << " %, spherical centre " << 100.0 * after << " %\n";
    EXPECT_GT(before, 0.2);
    EXPECT_LT(after, 0.03);
    EXPECT_LE(after, frame.areaDistortion() + 1e-3) << "the frame measures the largest error at the vertices";
}

TEST(PlanarFrameAntimeridian, ContinentWideDataIsWarnedAboutAndItsAreasMeasuredOnTheEllipsoid)
{
    const std::unique_ptr<QgsVectorLayer> regions = alaska();
    const VbasPlanarFrame frame(*regions, transformContext());
    EXPECT_GT(frame.areaDistortion(), VbasPlanarFrame::kDistortionLimit);
    EXPECT_TRUE(frame.areasOnEllipsoid());
    const QString warning = frame.distortionWarning();
    EXPECT_TRUE(warning.contains("COMPUTATION_CRS")) << warning.toStdString();
    EXPECT_TRUE(warning.contains("areas are off by up to")) << warning.toStdString();
    EXPECT_TRUE(warning.contains("km from the centre")) << warning.toStdString();
    EXPECT_TRUE(warning.contains("area_m2 is measured on the ellipsoid")) << warning.toStdString();
}

TEST(PlanarFrameAntimeridian, CitySizedDataIsNotWarnedAbout)
{
    const OlindaInput olinda;
    const VbasPlanarFrame frame(*olinda.tracts, transformContext());
    EXPECT_TRUE(frame.distortionWarning().isEmpty()) << frame.distortionWarning().toStdString();
    EXPECT_LT(frame.areaDistortion(), 1e-4);
    EXPECT_LT(frame.distanceDistortion(), 1e-4);
    // Geographic tracts go through VBAS's own projection, whose areas are always measured on the ellipsoid.
    EXPECT_TRUE(frame.areasOnEllipsoid());
    ASSERT_TRUE(frame.centre().has_value());
    EXPECT_TRUE(olinda.tracts->extent().contains(*frame.centre()));
}

TEST(PlanarFrameAntimeridian, WebMercatorIsWarnedAboutAwayFromTheEquator)
{
    // Web Mercator is projected in metres, so it is used as it is; at 60 N its scale is 2 (areas 4 times).
    const QgsRectangle extent(-17.0e6, 8.0e6, -16.0e6, 9.0e6);
    const VbasPlanarFrame frame(QgsCoordinateReferenceSystem(QStringLiteral("EPSG:3857")), extent,
                                transformContext());
    EXPECT_GT(frame.areaDistortion(), 2.0);
    EXPECT_TRUE(frame.areasOnEllipsoid());
    EXPECT_TRUE(frame.distortionWarning().contains("the CRS of REGIONS"))
        << frame.distortionWarning().toStdString();
}

TEST(PlanarFrameAntimeridian, ComputationCrsIsUsedAndNamed)
{
    const std::unique_ptr<QgsVectorLayer> regions = alaska();
    const QgsCoordinateReferenceSystem albers(QStringLiteral("EPSG:3338")); // NAD83 / Alaska Albers
    const VbasPlanarFrame frame(*regions, transformContext(), albers);
    EXPECT_EQ(frame.planarCrs(), albers);
    EXPECT_FALSE(frame.centre().has_value());
    EXPECT_TRUE(frame.description().contains("EPSG:3338")) << frame.description().toStdString();
    EXPECT_TRUE(frame.description().contains("COMPUTATION_CRS")) << frame.description().toStdString();
    EXPECT_LT(frame.areaDistortion(), 1e-3) << "an equal-area projection";
    EXPECT_LT(largestPlanarAreaError(*regions, frame), 1e-3);
}

TEST(PlanarFrameAntimeridian, ComputationCrsMustBeProjectedInMetres)
{
    const std::unique_ptr<QgsVectorLayer> regions = alaska();
    const auto refusal = [&](const QString& authid) -> std::string
    {
        try
        {
            const VbasPlanarFrame frame(*regions, transformContext(), QgsCoordinateReferenceSystem(authid));
        }
        catch (const QgsProcessingException& error)
        {
            return error.what().toStdString();
        }
        return "accepted";
    };
    const std::string geographic = refusal(QStringLiteral("EPSG:4269"));
    EXPECT_EQ(geographic.rfind("COMPUTATION_CRS: ", 0), 0u) << geographic;
    EXPECT_NE(geographic.find("geographic"), std::string::npos) << geographic;
    const std::string feet = refusal(QStringLiteral("EPSG:2249"));
    EXPECT_EQ(feet.rfind("COMPUTATION_CRS: ", 0), 0u) << feet;
    EXPECT_NE(feet.find("not in metres"), std::string::npos) << feet;
}

TEST(AntimeridianRelease, AggregateAreasAreWithinOnePercentOfQgisEllipsoidalAreas)
{
    const std::unique_ptr<QgsVectorLayer> regions = alaska();
    const std::unique_ptr<QgsVectorLayer> records = madeUpRecords(*regions, 6);
    const AlgorithmRun run = runAlgorithm(kAggregate, releaseParameters(*regions, *records));
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_TRUE(run.log.contains("centred on them (azimuthal equidistant)")) << run.log.toStdString();
    EXPECT_TRUE(run.log.contains("areas are off by up to")) << run.log.toStdString();
    EXPECT_TRUE(run.log.contains("choose a projected CRS in metres made for the area"))
        << run.log.toStdString();
    const double largest = expectAreasOnTheEllipsoid(run, *regions);
    std::cout << "largest area_m2 error against QgsDistanceArea, automatic plane: " << 100.0 * largest
              << " % (" << outputLayer(run, "OUTPUT")->featureCount() << " aggregates)\n";
    EXPECT_LT(largest, 1e-4) << "measured on the same ellipsoid";
}

TEST(AntimeridianRelease, ComputationCrsIsHonoured)
{
    const std::unique_ptr<QgsVectorLayer> regions = alaska();
    const std::unique_ptr<QgsVectorLayer> records = madeUpRecords(*regions, 6);
    QVariantMap parameters = releaseParameters(*regions, *records);
    parameters.insert("COMPUTATION_CRS", "EPSG:3338");
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_TRUE(run.log.contains("computing in EPSG:3338")) << run.log.toStdString();
    // Alaska Albers keeps areas; over the Aleutians its distances stretch by a few percent, which it says.
    EXPECT_TRUE(
        run.log.contains("on EPSG:3338 - NAD83 / Alaska Albers, the COMPUTATION_CRS, areas are off by "
                         "up to 0.0 %"))
        << run.log.toStdString();
    EXPECT_EQ(outputLayer(run, "OUTPUT")->crs().authid(), "EPSG:4326") << "results in the CRS of REGIONS";
    const double largest = expectAreasOnTheEllipsoid(run, *regions);
    std::cout << "largest area_m2 error against QgsDistanceArea, COMPUTATION_CRS EPSG:3338: "
              << 100.0 * largest << " %\n";
}

TEST(AntimeridianRelease, GeographicOrUnknownComputationCrsIsRefusedNamingTheParameter)
{
    const std::unique_ptr<QgsVectorLayer> regions = alaska();
    const std::unique_ptr<QgsVectorLayer> records = madeUpRecords(*regions, 6);
    QVariantMap parameters = releaseParameters(*regions, *records);
    parameters.insert("COMPUTATION_CRS", "EPSG:4326");
    AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    EXPECT_FALSE(run.ok);
    EXPECT_TRUE(run.errors.contains("COMPUTATION_CRS: EPSG:4326 - WGS 84 is geographic"))
        << run.errors.toStdString();
    parameters.insert("COMPUTATION_CRS", "EPSG:999999");
    run = runAlgorithm(kAggregate, parameters);
    EXPECT_FALSE(run.ok);
    EXPECT_TRUE(run.errors.contains("COMPUTATION_CRS: 'EPSG:999999' is no CRS QGIS knows"))
        << run.errors.toStdString();
}

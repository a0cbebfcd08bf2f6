// Issue 15: the files people have. Real population tables hold zero counts and NULL counts, real region
// layers hold features without geometry and curved geometries, and a first run often pairs the wrong id
// fields. On the 100 North Carolina counties (data/tests/nc_counties.gpkg, SIDS deaths 1974-78 as the
// count: 0 in 13 counties, 667 in all; data/README.md), each case is released or refused with a message
// that says what to do. Expectations are hand counts from the data and analytic areas.

#include "processingtestutils.h"
#include "realdata.h"
#include "releasecheck.h"
#include "vbasconvert.h"
#include "vbasparameters.h"
#include "vbasqgiscompat.h"

#include <qgsapplication.h>
#include <qgsfeatureiterator.h>
#include <qgsgeometry.h>
#include <qgsmemoryproviderutils.h>
#include <qgsmultipolygon.h>
#include <qgsprocessing.h>
#include <qgsprocessingregistry.h>

#include <QSet>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace
{
const QString kAggregate = QStringLiteral("vbas:aggregateregions");
/** The main job without quasi-identifiers: a population floor. */
const QString kFloor = QStringLiteral("vbas:populationfloor");

// Figures of data/tests/nc_counties.gpkg:counties (ogrinfo, data/README.md).
constexpr qint64 kDeaths = 667;   //!< sum of SID74
constexpr int kCounties = 100;    //!< features, FIPS unique
constexpr int kZeroCounties = 13; //!< SID74 = 0
// Features (fid) used below, with their FIPS and SID74.
constexpr QgsFeatureId kAshe = 1;        // 37009, 1 death
constexpr QgsFeatureId kAlleghany = 2;   // 37005, 0
constexpr QgsFeatureId kSurry = 3;       // 37171, 5
constexpr QgsFeatureId kNorthampton = 5; // 37131, 9
constexpr QgsFeatureId kCamden = 7;      // 37029, 0

/** Returns the counties as a memory layer (same fields, CRS and fids), `edit` applied to each feature. */
std::unique_ptr<QgsVectorLayer> countiesCopy(const std::function<void(QgsFeature&)>& edit = {})
{
    const auto counties = openData(QStringLiteral("tests/nc_counties.gpkg"), QStringLiteral("counties"));
    QgsFields fields;
    for (const QgsField& field : counties->fields())
        if (field.name() != QLatin1String("fid"))
            fields.append(field);
    std::unique_ptr<QgsVectorLayer> copy(QgsMemoryProviderUtils::createMemoryLayer(
        QStringLiteral("counties"), fields, VbasCompat::WkbMultiPolygon, counties->crs()));
    QgsFeatureList features;
    QgsFeature feature;
    QgsFeatureIterator it = counties->getFeatures(QgsFeatureRequest().addOrderBy(QStringLiteral("fid")));
    while (it.nextFeature(feature))
    {
        QgsFeature out(fields, feature.id());
        for (const QgsField& field : fields)
            out.setAttribute(field.name(), feature.attribute(field.name()));
        out.setGeometry(feature.geometry());
        if (edit)
            edit(out);
        features << out;
    }
    EXPECT_TRUE(copy->dataProvider()->addFeatures(features));
    EXPECT_EQ(copy->featureCount(), kCounties);
    return copy;
}

/** A population-floor release of `regions` (their own SID74 as COUNT_FIELD, no quasi-identifier). */
QVariantMap floorParameters(QgsVectorLayer* regions, QgsVectorLayer* records = nullptr)
{
    return {{"REGIONS", asParameter(regions)},
            {"REGION_ID_FIELD", "FIPS"},
            {"RECORDS", asParameter(records ? records : regions)},
            {"RECORD_REGION_FIELD", "FIPS"},
            {"COUNT_FIELD", "SID74"},
            {"K", 20},
            {"SITE_COUNT_METHOD", "sitecount.naive_anonymity"},
            {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT},
            {"OUTPUT_MAPPING", QgsProcessing::TEMPORARY_OUTPUT},
            {"OUTPUT_RECORDS", QgsProcessing::TEMPORARY_OUTPUT}};
}

QVariantMap with(QVariantMap parameters, const QString& name, const QVariant& value)
{
    parameters.insert(name, value);
    return parameters;
}

/** Returns the values of `field` in `layer`, as text. */
QSet<QString> valuesOf(QgsVectorLayer& layer, const QString& field)
{
    QSet<QString> values;
    QgsFeature feature;
    QgsFeatureIterator it = layer.getFeatures();
    while (it.nextFeature(feature))
        values.insert(feature.attribute(field).toString());
    return values;
}

/** Returns the sum of the planar areas of the geometries of `layer`. */
double totalArea(QgsVectorLayer& layer)
{
    double area = 0.0;
    QgsFeature feature;
    QgsFeatureIterator it = layer.getFeatures();
    while (it.nextFeature(feature))
        area += feature.geometry().area();
    return area;
}
} // namespace

// ---- Counts -----------------------------------------------------------------------------------------------

TEST(RealFiles, ZeroCountsAreRowsWithoutRecords)
{
    const auto counties = openData(QStringLiteral("tests/nc_counties.gpkg"), QStringLiteral("counties"));
    const AlgorithmRun run = runAlgorithm(kFloor, floorParameters(counties.get()));
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    const ReleaseRecount recount =
        expectSoundRelease(run, {counties.get(), "FIPS", counties.get(), "FIPS", "NAME", {}, "SID74", 20});
    EXPECT_EQ(recount.input, kDeaths);
    EXPECT_EQ(recount.dropped, 0);
    EXPECT_EQ(recount.released + recount.suppressed, kDeaths);
    EXPECT_TRUE(
        run.log.contains("13 row(s) have a count of 0 in 'SID74': they hold no records and are skipped"))
        << run.log.toStdString();
    // The 13 counties without deaths are still small areas: mapped, and said to hold no records.
    EXPECT_EQ(outputLayer(run, "OUTPUT_MAPPING")->featureCount(), kCounties);
    EXPECT_TRUE(run.log.contains(
        QStringLiteral("%1 of %2 small areas hold no records").arg(kZeroCounties).arg(kCounties)))
        << run.log.toStdString();
}

TEST(RealFiles, NullCountsAreRefusedUnlessReadAsZero)
{
    // Three counties whose count is missing, as in real tables (1 + 5 + 9 deaths in the file).
    const auto counties = countiesCopy(
        [](QgsFeature& feature)
        {
            if (feature.id() == kAshe || feature.id() == kSurry || feature.id() == kNorthampton)
                feature.setAttribute(QStringLiteral("SID74"),
                                     VbasCompat::nullOf(VbasCompat::FieldTypeDouble));
        });
    OutputFolder folder;
    expectRejected(kFloor, folder.release(floorParameters(counties.get())), folder,
                   "COUNT_FIELD: 'SID74' is NULL in 3 row(s) (first: feature 1), so how many records they "
                   "hold is unknown; fill in their counts, or set NULL_COUNT_AS_ZERO to read NULL as 0 (no "
                   "records)");

    const AlgorithmRun run =
        runAlgorithm(kFloor, with(floorParameters(counties.get()), "NULL_COUNT_AS_ZERO", true));
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    const ReleaseRecount recount =
        expectSoundRelease(run, {counties.get(), "FIPS", counties.get(), "FIPS", "NAME", {}, "SID74", 20});
    EXPECT_EQ(recount.input, kDeaths - (1 + 5 + 9));
    EXPECT_EQ(recount.released + recount.suppressed, kDeaths - 15);
    EXPECT_TRUE(run.log.contains("'SID74' is NULL in 3 row(s) (first: feature 1); read as 0 (no records), as "
                                 "NULL_COUNT_AS_ZERO asks"))
        << run.log.toStdString();
    EXPECT_TRUE(run.log.contains("13 row(s) have a count of 0 in 'SID74'")) << "the NULLs are not zeros";
}

TEST(RealFiles, NegativeAndFractionalCountsAreStillRefused)
{
    const auto counties = countiesCopy(
        [](QgsFeature& feature)
        {
            if (feature.id() == kSurry)
                feature.setAttribute(QStringLiteral("SID74"), 2.5);
        });
    OutputFolder folder;
    expectRejected(
        kFloor, folder.release(floorParameters(counties.get())), folder,
        "COUNT_FIELD: feature 3 has the count '2.5', but counts must be whole numbers of 0 or more "
        "(0: the row holds no records); fix that row, or leave COUNT_FIELD empty to count every "
        "row as one record");
}

TEST(RealFiles, EveryCountZeroIsNamed)
{
    const auto counties =
        countiesCopy([](QgsFeature& feature) { feature.setAttribute(QStringLiteral("SID74"), 0.0); });
    OutputFolder folder;
    expectRejected(kFloor, folder.release(floorParameters(counties.get())), folder,
                   "COUNT_FIELD: every row has a count of 0 in 'SID74' (NULL read as 0), so there are no "
                   "records to release; choose the field that holds the number of records of each row");
}

TEST(RealFiles, NullCountAsZeroIsAnAdvancedSwitchOffByDefault)
{
    const std::unique_ptr<QgsProcessingAlgorithm> algorithm(
        QgsApplication::processingRegistry()->createAlgorithmById(kAggregate));
    ASSERT_TRUE(algorithm);
    const QgsProcessingParameterDefinition* definition =
        algorithm->parameterDefinition(VbasParameters::kNullCountAsZero);
    ASSERT_NE(definition, nullptr);
    EXPECT_EQ(definition->type(), QStringLiteral("boolean"));
    // Optional: saved models and scripts written before it (without it) stay valid.
    EXPECT_TRUE(definition->flags() & VbasCompat::ParameterFlagOptional);
    EXPECT_TRUE(definition->flags() & VbasCompat::ParameterFlagAdvanced);
    EXPECT_EQ(definition->defaultValue(), QVariant(false));
}

// ---- Regions without geometry -----------------------------------------------------------------------------

TEST(RealFiles, RegionsWithoutGeometryAndRecordsAreLeftOut)
{
    // Alleghany loses its geometry (NULL), Camden gets an empty one; neither had a SIDS death.
    const auto counties = countiesCopy(
        [](QgsFeature& feature)
        {
            if (feature.id() == kAlleghany)
                feature.clearGeometry();
            if (feature.id() == kCamden)
                feature.setGeometry(QgsGeometry(std::make_unique<QgsMultiPolygon>()));
        });
    const AlgorithmRun run = runAlgorithm(kFloor, floorParameters(counties.get()));
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_TRUE(run.log.contains("2 region(s) have no geometry (NULL or empty) and no records; they are left "
                                 "out of the release and the mapping: '37005', '37029'"))
        << run.log.toStdString();
    QgsVectorLayer* mapping = outputLayer(run, "OUTPUT_MAPPING");
    EXPECT_EQ(mapping->featureCount(), kCounties - 2);
    const QSet<QString> mapped = valuesOf(*mapping, "FIPS");
    EXPECT_FALSE(mapped.contains("37005"));
    EXPECT_FALSE(mapped.contains("37029"));
    EXPECT_EQ(number(run, "INPUT_RECORDS"), kDeaths);
    EXPECT_EQ(number(run, "RECORDS_DROPPED"), 0);
    EXPECT_EQ(number(run, "RECORDS_RELEASED") + number(run, "SUPPRESSED"), kDeaths);
    EXPECT_EQ(checkAnonymity(outputLayer(run, "OUTPUT_RECORDS"), "aggregate_id", {}, 20, "SID74"),
              "REGION_SIZES_PASS");
    EXPECT_TRUE(run.log.contains(
        QStringLiteral("%1 of %2 small areas hold no records").arg(kZeroCounties - 2).arg(kCounties - 2)))
        << run.log.toStdString();
}

TEST(RealFiles, RegionsWithoutGeometryButWithRecordsAreRefused)
{
    // Ashe had one SIDS death: its record cannot be placed, and dropping it silently would be wrong.
    const auto counties = countiesCopy(
        [](QgsFeature& feature)
        {
            if (feature.id() == kAshe)
                feature.clearGeometry();
        });
    const std::string message =
        "REGIONS: 1 region(s) without geometry (NULL or empty) hold records (first: '37009', 1 record(s)), "
        "which cannot be placed; give those regions their polygons, or remove their records from RECORDS";
    OutputFolder folder;
    expectRejected(kFloor, folder.release(floorParameters(counties.get())), folder, message);
    expectRejected(kFloor, folder.release(with(floorParameters(counties.get()), "UNKNOWN_REGIONS", "drop")),
                   folder, message);
}

// ---- Curved geometries ------------------------------------------------------------------------------------

TEST(RealFiles, MultiSurfaceCountiesGiveTheSameReleaseAsPolygons)
{
    // The same counties in a layer of curved type (MultiSurface), as a GeoPackage from other GIS software.
    const auto polygons = openData(QStringLiteral("tests/nc_counties.gpkg"), QStringLiteral("counties"));
    const auto surfaces =
        openData(QStringLiteral("tests/nc_counties.gpkg"), QStringLiteral("counties_multisurface"));
    ASSERT_EQ(surfaces->wkbType(), VbasCompat::WkbMultiSurface);
    const AlgorithmRun run = runAlgorithm(kFloor, floorParameters(surfaces.get()));
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_TRUE(run.log.contains(
        "100 region geometries of a curved type (CurvePolygon, MultiSurface) were read as polygons"))
        << run.log.toStdString();
    const AlgorithmRun reference = runAlgorithm(kFloor, floorParameters(polygons.get()));
    ASSERT_TRUE(reference.ok) << reference.errors.toStdString();
    EXPECT_EQ(number(run, "AGGREGATES"), number(reference, "AGGREGATES"));
    EXPECT_EQ(number(run, "RECORDS_RELEASED"), number(reference, "RECORDS_RELEASED"));
    // Areas measured independently on the original polygons (ellipsoidal: the CRS is NAD27); the plane is
    // azimuthal equidistant over 800 km, within 1 %.
    EXPECT_EQ(expectAreasMatchMembers(*outputLayer(run, "OUTPUT"), *outputLayer(run, "OUTPUT_MAPPING"),
                                      *polygons, "FIPS", 0.01),
              number(run, "AGGREGATES"));
}

TEST(RealFiles, CurvePolygonsAreSegmentizedWithTheirAnalyticArea)
{
    // A disc of radius 1000 m (CircularString), a half disc of radius 500 m (CompoundCurve: an arc and its
    // diameter) and a 1 km square, in UTM metres.
    std::unique_ptr<QgsVectorLayer> regions(QgsMemoryProviderUtils::createMemoryLayer(
        QStringLiteral("curved"), QgsFields(), VbasCompat::WkbMultiSurface,
        QgsCoordinateReferenceSystem(QStringLiteral("EPSG:32633"))));
    ASSERT_TRUE(regions->dataProvider()->addAttributes(
        {QgsField(QStringLiteral("id"), VbasCompat::FieldTypeString)}));
    regions->updateFields();
    const QStringList wkts{
        "CurvePolygon(CircularString(499000 6000000, 501000 6000000, 499000 6000000))",
        "CurvePolygon(CompoundCurve(CircularString(503000 6000000, 503500 6000500, 504000 6000000), "
        "(504000 6000000, 503000 6000000)))",
        "Polygon((506000 6000000, 507000 6000000, 507000 6001000, 506000 6001000, 506000 6000000))"};
    QgsFeatureList features;
    for (int i = 0; i < wkts.size(); ++i)
    {
        QgsFeature feature(regions->fields());
        feature.setAttributes(QVector<QVariant>{QStringLiteral("R%1").arg(i + 1)});
        feature.setGeometry(QgsGeometry::fromWkt(wkts.at(i)));
        ASSERT_FALSE(feature.geometry().isNull()) << wkts.at(i).toStdString();
        features << feature;
    }
    ASSERT_TRUE(regions->dataProvider()->addFeatures(features));
    const auto records = makeTable(
        {"rid:integer", "area:string", "sex:string"},
        {{1, "R1", "F"}, {2, "R1", "F"}, {3, "R2", "F"}, {4, "R2", "F"}, {5, "R3", "F"}, {6, "R3", "F"}});
    const QVariantMap parameters{{"REGIONS", asParameter(regions.get())},    {"REGION_ID_FIELD", "id"},
                                 {"RECORDS", asParameter(records.get())},    {"RECORD_REGION_FIELD", "area"},
                                 {"QUASI_IDENTIFIERS", QStringList{"sex"}},  {"K", 2},
                                 {"SITE_COUNT_METHOD", "sitecount.fixed"},   {"SITE_COUNT", 1},
                                 {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT}};
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_TRUE(
        run.log.contains("2 region geometries of a curved type (CurvePolygon, MultiSurface) were read as "
                         "polygons, arcs cut into straight segments of at most 1 degree of arc"))
        << run.log.toStdString();
    ASSERT_EQ(outputLayer(run, "OUTPUT")->featureCount(), 1);
    const double expected = M_PI * 1000.0 * 1000.0 + M_PI * 500.0 * 500.0 / 2.0 + 1000.0 * 1000.0;
    EXPECT_NEAR(totalArea(*outputLayer(run, "OUTPUT")), expected, 0.01 * expected);
    EXPECT_NEAR(sumOf(*outputLayer(run, "OUTPUT"), "area_m2"), expected, 0.01 * expected);
    EXPECT_EQ(number(run, "RECORDS_RELEASED"), 6);
}

// ---- Id fields that do not match --------------------------------------------------------------------------

TEST(RealFiles, RecordsOfWhichNoneMatchesPointAtTheIdFields)
{
    // The county part of FIPS as a number (9 for 37009): no record matches any county.
    const auto counties = openData(QStringLiteral("tests/nc_counties.gpkg"), QStringLiteral("counties"));
    const auto records = makeTable({"rid:integer", "county:integer", "sex:string"},
                                   {{1, 9, "F"}, {2, 5, "M"}, {3, 171, "F"}, {4, 9, "M"}});
    const QVariantMap parameters{{"REGIONS", asParameter(counties.get())},  {"REGION_ID_FIELD", "FIPS"},
                                 {"RECORDS", asParameter(records.get())},   {"RECORD_REGION_FIELD", "county"},
                                 {"QUASI_IDENTIFIERS", QStringList{"sex"}}, {"K", 2}};
    // No other pair of fields matches either (the counts of SID74 hold 1 to 4, but are no id): no advice.
    const std::string message =
        "RECORD_REGION_FIELD: the records' 'county' and the small areas' 'FIPS' do not correspond: only 0 of "
        "4 "
        "records name a small area. 'county' holds '171', '5', '9'; 'FIPS' holds '37001', '37003', '37005', "
        "'37007', '37009' and 95 more. Check that the two fields hold the same codes (leading zeros: '01001' "
        "is "
        "not '1001', and a code stored as a number has lost them), or choose the right fields.";
    OutputFolder folder;
    expectRejected(kAggregate, folder.release(parameters), folder, message);
    expectRejected(kAggregate, folder.release(with(parameters, "UNKNOWN_REGIONS", "drop")), folder, message);
}

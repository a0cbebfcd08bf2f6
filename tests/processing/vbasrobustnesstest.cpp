// Issue 6, the privacy guarantee under any input: every bad input stops the run with an error naming the
// parameter and the fix, before anything is written (every output goes to a file in a folder that must
// stay empty); every oddity VBAS accepts gives a release the independent verifier passes, with every
// record accounted for, and a log that says what happened.

#include "processingtestutils.h"
#include "realdata.h"
#include "releasecheck.h"

#include <qgsdistancearea.h>
#include <qgsfeatureiterator.h>
#include <qgsgeometry.h>
#include <qgsmultipolygon.h>
#include <qgspolygon.h>
#include <qgsprocessing.h>
#include <qgsproject.h>

#include <gdal.h>
#include <ogr_api.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QMap>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

namespace
{
const QString kAggregate = QStringLiteral("vbas:aggregateregions");
const QString kPartition = QStringLiteral("vbas:partitionregions");

/**
 * Four unit squares A..D and records (rid, area, sex, n) on them, released with k = 2 around two sites;
 * each test spoils one thing. The default records hold 8 records in 5 rows.
 */
struct Squares
{
    std::unique_ptr<QgsVectorLayer> regions = makeSquares({"A", "B", "C", "D"});
    std::unique_ptr<QgsVectorLayer> records = makeTable(
        {"rid:integer", "area:string", "sex:string", "n:string"},
        {{1, "A", "F", "2"}, {2, "B", "F", "1"}, {3, "B", "M", "1"}, {4, "C", "F", "3"}, {5, "D", "M", "1"}});
    OutputFolder folder;

    QVariantMap parameters() const
    {
        return folder.release({{"REGIONS", asParameter(regions.get())},
                               {"REGION_ID_FIELD", "id"},
                               {"RECORDS", asParameter(records.get())},
                               {"RECORD_REGION_FIELD", "area"},
                               {"QUASI_IDENTIFIERS", QStringList{"sex"}},
                               {"COUNT_FIELD", "n"},
                               {"K", 2},
                               {"SITE_COUNT_METHOD", "sitecount.fixed"},
                               {"SITE_COUNT", 2}});
    }
    ReleaseInput input() const
    {
        return {regions.get(), "id", records.get(), "area", "rid", {"sex"}, "n", 2};
    }
};

QVariantMap with(QVariantMap parameters, const QString& name, const QVariant& value)
{
    parameters.insert(name, value);
    return parameters;
}

/** Returns a memory layer of `type` ("LineString", "Point"...) in `crs` with one feature of `wkt`. */
std::unique_ptr<QgsVectorLayer> makeLayer(const QString& type, const QString& crs, const QString& wkt,
                                          const QString& name)
{
    auto layer = std::make_unique<QgsVectorLayer>(QStringLiteral("%1?crs=%2&field=id:string").arg(type, crs),
                                                  name, QStringLiteral("memory"));
    QgsFeature feature(layer->fields());
    feature.setAttributes(QgsAttributes() << QVariant(name));
    feature.setGeometry(QgsGeometry::fromWkt(wkt));
    EXPECT_TRUE(layer->dataProvider()->addFeature(feature));
    return layer;
}

/** Returns a memory polygon layer in UTM metres with a text field `idField` holding each id of `polygons`. */
std::unique_ptr<QgsVectorLayer> makePolygons(const QList<QPair<QVariant, QString>>& polygons,
                                             const QString& idField = QStringLiteral("id"))
{
    auto layer = std::make_unique<QgsVectorLayer>(
        QStringLiteral("MultiPolygon?crs=EPSG:32633&field=%1:string").arg(idField), "regions", "memory");
    QgsFeatureList features;
    for (const auto& [id, wkt] : polygons)
    {
        QgsFeature feature(layer->fields());
        feature.setAttributes(QgsAttributes() << id);
        feature.setGeometry(QgsGeometry::fromWkt(wkt));
        EXPECT_FALSE(feature.geometry().isNull()) << wkt.toStdString();
        features.append(feature);
    }
    EXPECT_TRUE(layer->dataProvider()->addFeatures(features));
    return layer;
}

/** Returns the feature of `layer` whose `field` is `value`. */
QgsFeature featureWith(QgsVectorLayer& layer, const QString& field, const QVariant& value)
{
    QgsFeature feature;
    QgsFeatureIterator features = layer.getFeatures();
    while (features.nextFeature(feature))
    {
        if (feature.attribute(field) == value)
            return feature;
    }
    ADD_FAILURE() << "no feature with " << field.toStdString() << " = " << value.toString().toStdString();
    return QgsFeature();
}
} // namespace

// ---- Bad input: an error naming the parameter and the fix, and no file ----------------------------------

TEST(Robustness, EmptyRegionsLayerIsNamed)
{
    Squares input;
    input.regions = makeSquares({});
    expectRejected(kAggregate, input.parameters(), input.folder,
                   "REGIONS: there are no regions; give a layer with at least one polygon");
}

TEST(Robustness, EmptyRecordsTableIsNamed)
{
    Squares input;
    input.records = makeTable({"rid:integer", "area:string", "sex:string", "n:string"}, {});
    expectRejected(kAggregate, input.parameters(), input.folder,
                   "RECORDS: there are no records to release; give a table with at least one row");
}

TEST(Robustness, RecordsWithoutAnySmallAreaNameTheRegionField)
{
    // Whatever UNKNOWN_REGIONS says: a field that is NULL everywhere is the wrong field.
    Squares input;
    input.records = makeTable({"rid:integer", "area:string", "sex:string", "n:string"},
                              {{1, nullText(), "F", "2"}, {2, nullText(), "M", "3"}});
    const std::string message =
        "RECORD_REGION_FIELD: 'area' is NULL in every record, so no record has a small "
        "area; choose the field that holds the small area of each record";
    expectRejected(kAggregate, input.parameters(), input.folder, message);
    expectRejected(kAggregate, with(input.parameters(), "UNKNOWN_REGIONS", "drop"), input.folder, message);
}

TEST(Robustness, RegionsThatAreNotPolygonsAreNamed)
{
    Squares input;
    input.regions = makeLayer("LineString", "EPSG:32633", "LineString(0 0, 1 1)", "A");
    expectRejected(
        kAggregate, input.parameters(), input.folder,
        "REGIONS: the layer holds LineString geometries, but it must hold polygons; choose a layer "
        "of polygons");
    input.regions = makeTable({"id:string"}, {{"A"}});
    expectRejected(kAggregate, input.parameters(), input.folder,
                   "REGIONS: the layer is a table without geometries, but it must hold polygons; choose a "
                   "layer of polygons");
}

TEST(Robustness, NullAndDuplicateRegionIdsAreNamed)
{
    Squares input;
    input.regions = makeSquares({"A", nullText(), "C", "D"});
    expectRejected(
        kAggregate, input.parameters(), input.folder,
        "REGION_ID_FIELD: feature 2 of REGIONS has no id (NULL); every region needs a unique id: fill "
        "it in or choose another field");
    input.regions = makeSquares({"A", "B", "A", "B"});
    expectRejected(kAggregate, input.parameters(), input.folder,
                   "REGIONS: 2 region(s) repeat an id already used (first: 'A'); region ids must be unique: "
                   "pick a unique id field or dissolve the duplicates first");
}

TEST(Robustness, RecordsWithANullSmallAreaAreNamedOrDropped)
{
    Squares input;
    input.records =
        makeTable({"rid:integer", "area:string", "sex:string", "n:string"},
                  {{1, "A", "F", "2"}, {2, nullText(), "M", "3"}, {3, "B", "F", "3"}, {4, "Z", "F", "1"}});
    expectRejected(
        kAggregate, input.parameters(), input.folder,
        "RECORD_REGION_FIELD: 3 record(s) in 1 row(s) have no small area ('area' is NULL; first: "
        "feature 2); fill in their small area, or set UNKNOWN_REGIONS to drop to leave them out of "
        "the release");

    // 4 of the 9 records are more than the 1 % that may be dropped by default.
    const QVariantMap dropping = with(input.parameters(), "UNKNOWN_REGIONS", "drop");
    expectRejected(
        kAggregate, dropping, input.folder,
        "RECORD_REGION_FIELD: 4 record(s) in 2 row(s) name regions that are not among the regions "
        "(first: (no id)), 44.4 % of the records: more than the 1 % that may be dropped "
        "(MAX_DROPPED). So many unknown ids mean the region fields do not correspond; fix the ids or "
        "choose the right fields rather than drop them");
    const AlgorithmRun run = runAlgorithm(kAggregate, with(dropping, "MAX_DROPPED", 50));
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    const ReleaseRecount recount = expectSoundRelease(run, input.input());
    EXPECT_EQ(recount.dropped, 4) << "3 records without small area, 1 in the unknown small area Z";
    EXPECT_EQ(recount.released, 5) << "F in A and B: 2 + 3";
    EXPECT_TRUE(
        run.log.contains("3 record(s) in 1 row(s) have no small area ('area' is NULL; first: feature 2); "
                         "they are dropped with the records of unknown small areas, not released"))
        << run.log.toStdString();
}

class RobustnessBadCount : public testing::TestWithParam<const char*>
{
};

TEST_P(RobustnessBadCount, IsNamedWithItsRow)
{
    Squares input;
    const QVariant count = GetParam() == nullptr ? nullText() : QVariant(GetParam());
    input.records = makeTable({"rid:integer", "area:string", "sex:string", "n:string"},
                              {{1, "A", "F", "2"}, {2, "B", "F", count}, {3, "C", "F", "2"}});
    expectRejected(
        kAggregate, input.parameters(), input.folder,
        "COUNT_FIELD: feature 2 has the count '" + std::string(GetParam() ? GetParam() : "NULL") +
            "', but counts must be whole numbers of 0 or more (0: the row holds no records); fix that "
            "row, or leave COUNT_FIELD empty to count every row as one record");
}

// A count of 0 is a row without records and NULL has an error of its own (io/vbasrealfilestest.cpp).
INSTANTIATE_TEST_SUITE_P(Counts, RobustnessBadCount, testing::Values("many", "-2", "2.5", ""));

TEST(Robustness, KOutsideTwoToTheRecordCountIsNamed)
{
    const Squares input;
    expectRejected(
        kAggregate, with(input.parameters(), "K", 1), input.folder,
        "K: k is 1, but a group must hold at least 2 records to hide anyone; set K to 2 or more (5 is "
        "common)");
    expectRejected(
        kAggregate, with(input.parameters(), "K", 9), input.folder,
        "K: k = 9 is larger than the 8 records: no group can ever reach it; lower k or release more "
        "records");
}

TEST(Robustness, SecondInputsThatCannotBePlacedOnTheRegionsAreNamed)
{
    // Metres labelled as degrees, the commonest CRS mistake: PROJ gives infinities, QGIS keeps quiet.
    Squares input;
    const auto river =
        makeLayer("LineString", "EPSG:4326", "LineString(500000 6000000, 500010 6000020)", "river");
    const auto obstacleRun = [&](const char* partition)
    {
        return with(with(input.parameters(), "PARTITION", partition), "OBSTACLES",
                    QVariantList{asParameter(river.get())});
    };
    expectRejected(
        kAggregate, obstacleRun("partition.barrier"), input.folder,
        "OBSTACLES: feature 1 of 'river' cannot be transformed from EPSG:4326 - WGS 84 into the plane "
        "of the computation; check that the layer's CRS is the one its coordinates are in, or "
        "reproject it");
    river->setCrs(QgsCoordinateReferenceSystem());
    expectRejected(
        kAggregate, obstacleRun("partition.geodesic"), input.folder,
        "OBSTACLES: 'river' has no CRS, so it cannot be placed on REGIONS (EPSG:32633 - WGS 84 / UTM "
        "zone 33N); set its CRS (Layer Properties > Source) or reproject it");
    const auto sites = makeLayer("Point", "EPSG:4326", "Point(500000 6000000)", "sites");
    expectRejected(
        kPartition, with(input.parameters(), "SITES", asParameter(sites.get())), input.folder,
        "SITES: feature 1 of 'sites' cannot be transformed from EPSG:4326 - WGS 84 into the plane of "
        "the computation; check that the layer's CRS is the one its coordinates are in, or reproject "
        "it");
    input.regions = makeLayer("Polygon", "EPSG:4326",
                              "Polygon((500000 6000000, 500010 6000000, 500010 6000010, "
                              "500000 6000000))",
                              "A");
    expectRejected(kAggregate, input.parameters(), input.folder,
                   "REGIONS: the layer is in EPSG:4326 - WGS 84 (degrees), but its coordinates reach "
                   "500000,6000000 : 500010,6000010, beyond any longitude and latitude; set the CRS its "
                   "coordinates are really in (Layer Properties > Source)");
}

// ---- Accepted oddities: a correct release and a log that says what happened ----------------------------

TEST(Robustness, NullQuasiIdentifierValuesAreACategoryOfTheirOwn)
{
    // One aggregate, k = 2: F (3), NULL (2) and M (2) are released; the empty text (1) is a category apart
    // from NULL and is suppressed. Were NULL and empty text one category, that group of 3 would be released.
    Squares input;
    input.records =
        makeTable({"rid:integer", "area:string", "sex:string", "n:string"}, {{1, "A", "F", "1"},
                                                                             {2, "B", "F", "1"},
                                                                             {3, "C", "F", "1"},
                                                                             {4, "A", nullText(), "1"},
                                                                             {5, "D", nullText(), "1"},
                                                                             {6, "B", "", "1"},
                                                                             {7, "C", "M", "1"},
                                                                             {8, "D", "M", "1"}});
    const AlgorithmRun run = runAlgorithm(kAggregate, with(input.parameters(), "SITE_COUNT", 1));
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    const ReleaseRecount recount = expectSoundRelease(run, input.input());
    EXPECT_EQ(recount.released, 7);
    EXPECT_EQ(recount.suppressed, 1);
    // Published merged (the input has counts): one row for the two NULL records of the one aggregate.
    QgsVectorLayer* records = outputLayer(run, "OUTPUT_RECORDS");
    records->setSubsetString("\"sex\" IS NULL");
    EXPECT_EQ(sumOf(*records, "n"), 2);
    records->setSubsetString(QString());
    EXPECT_TRUE(
        run.log.contains("'sex' is NULL in 2 record(s); NULL is a category of its own, grouped only with "
                         "other NULLs (not with empty text)"))
        << run.log.toStdString();
}

TEST(Robustness, SiteCountBeyondTheRegionsIsClamped)
{
    // 50 squares, each with records; a fixed count of 10,000 sites becomes one site per square.
    QList<QVariant> ids;
    QList<QVariantList> rows;
    for (int i = 0; i < 50; ++i)
    {
        ids << QStringLiteral("R%1").arg(i);
        for (int j = 0; j < 4; ++j)
            rows.append({i * 4 + j, QStringLiteral("R%1").arg(i), j % 2 ? "F" : "M", "1"});
    }
    Squares input;
    input.regions = makeSquares(ids);
    input.records = makeTable({"rid:integer", "area:string", "sex:string", "n:string"}, rows);
    const AlgorithmRun run = runAlgorithm(kAggregate, with(input.parameters(), "SITE_COUNT", 10000));
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_TRUE(run.log.contains(
        "the site-count estimate 10000 was clamped to 50 (between 1 and the 50 regions that hold records)"))
        << run.log.toStdString();
    const ReleaseRecount recount = expectSoundRelease(run, input.input());
    EXPECT_EQ(recount.input, 200);
    EXPECT_EQ(number(run, "AGGREGATES") + number(run, "EMPTY_SITES"), 50);
    EXPECT_EQ(recount.released, 200) << "two F and two M in every square: nothing to suppress";
}

TEST(Robustness, RegionsWithoutRecordsAreSaidAndStillMapped)
{
    Squares input;
    input.regions = makeSquares({"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"});
    const AlgorithmRun run = runAlgorithm(kAggregate, input.parameters());
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    expectSoundRelease(run, input.input()); // checks that all 10 squares are mapped
    EXPECT_TRUE(run.log.contains(
        "6 of 10 small areas hold no records to release; they still join the region of their nearest site"))
        << run.log.toStdString();
}

TEST(Robustness, ThousandsOfCategoriesBeyondTwoToThe64)
{
    // 20,000 records with 6 quasi-identifiers of up to 3,000 values each (MaxCombs about 7e20 > 2^64 =
    // 1.8e19): half of the records share 5 combinations, the other half are unique.
    const int quasiIdentifierCount = 6;
    QStringList fields{"rid:integer", "area:string"};
    QStringList names;
    for (int q = 0; q < quasiIdentifierCount; ++q)
    {
        names << QStringLiteral("q%1").arg(q);
        fields << names.last() + ":string";
    }
    QList<QVariant> ids;
    for (int r = 0; r < 100; ++r)
        ids << QStringLiteral("R%1").arg(r);
    std::mt19937_64 random(6);
    QList<QVariantList> rows;
    QHash<QString, int> combinationSize;
    for (int i = 0; i < 20000; ++i)
    {
        QVariantList row{i, ids.at(int(random() % 100))};
        QStringList combination;
        for (int q = 0; q < quasiIdentifierCount; ++q)
        {
            combination << (i % 2 ? QStringLiteral("v%1").arg(random() % 3000)
                                  : QStringLiteral("c%1").arg(i % 10));
            row << combination.last();
        }
        ++combinationSize[combination.join('|')];
        rows.append(row);
    }
    // Independent count of what global suppression must withhold: combinations held by fewer than 5 records.
    qint64 rare = 0;
    for (const int size : combinationSize)
        rare += size < 5 ? size : 0;

    Squares input;
    input.regions = makeGrid(10, ids);
    input.records = makeTable(fields, rows);
    QVariantMap parameters = input.parameters();
    parameters.insert("QUASI_IDENTIFIERS", names);
    parameters.insert("COUNT_FIELD", QVariant());
    parameters.insert("K", 5);
    parameters.insert("SITE_COUNT_METHOD", "sitecount.gaps_maxcombs");
    QElapsedTimer timer;
    timer.start();
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    const double seconds = double(timer.elapsed()) / 1000.0;
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    // No bound on the time here (a loaded machine is slow): a count that enumerated the combinations would
    // not end, and ctest's timeout says so.
    std::cout << "[ figures  ] 20,000 records, 6 quasi-identifiers, MaxCombs > 2^64: " << seconds << " s\n";
    ReleaseInput check{input.regions.get(), "id", input.records.get(), "area", "rid", names, QString(), 5};
    const ReleaseRecount recount = expectSoundRelease(run, check);
    EXPECT_EQ(number(run, "SUPPRESSED_GLOBAL"), rare);
    EXPECT_GE(recount.released, 10000 - 100) << "the 5 shared combinations of 2,000 records each stay";
    EXPECT_TRUE(run.log.contains("the site-count estimate 0 was clamped to 1")) << run.log.toStdString();
    EXPECT_TRUE(
        run.log.contains(" possible combinations of values (MaxCombs, NULL a value of its own) for 20000 "
                         "records; more combinations than records: many records may be unique"))
        << run.log.toStdString();

    const AlgorithmRun estimate = runAlgorithm("vbas:estimatesitecount", parameters);
    ASSERT_TRUE(estimate.ok) << estimate.errors.toStdString();
    EXPECT_GT(estimate.results.value("MAX_COMBS").toDouble(), std::pow(2.0, 64));
}

TEST(Robustness, InvalidPolygonsAreRepairedAsManyAsQgisFinds)
{
    // The tracts are the records, weighted by population; rid tells the rows apart in the release.
    const auto tracts = openData(QStringLiteral("tests/ny8.gpkg"), QStringLiteral("tracts"));
    int invalid = 0;
    QList<QVariantList> rows;
    QgsFeature feature;
    QgsFeatureIterator features = tracts->getFeatures();
    while (features.nextFeature(feature))
    {
        invalid += !feature.geometry().isGeosValid();
        rows.append({feature.attribute("AREAKEY"), feature.attribute("AREAKEY"), feature.attribute("POP8")});
    }
    ASSERT_EQ(invalid, 5) << "data/README.md";
    const auto population = makeTable({"rid:string", "tract:string", "pop:double"}, rows);

    OutputFolder folder;
    QVariantMap parameters = folder.release({{"REGIONS", asParameter(tracts.get())},
                                             {"REGION_ID_FIELD", "AREAKEY"},
                                             {"RECORDS", asParameter(population.get())},
                                             {"RECORD_REGION_FIELD", "tract"},
                                             {"COUNT_FIELD", "pop"},
                                             {"K", 20000},
                                             {"SITE_COUNT_METHOD", "sitecount.naive_anonymity"}});
    // In memory, so that the CRS stays the source's (a GeoPackage names it EPSG:32618) for the area check.
    parameters.insert("OUTPUT", QgsProcessing::TEMPORARY_OUTPUT);
    parameters.insert("OUTPUT_MAPPING", QgsProcessing::TEMPORARY_OUTPUT);
    const AlgorithmRun run = runAlgorithm(QStringLiteral("vbas:populationfloor"), parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_TRUE(run.log.contains(QStringLiteral("%1 invalid region polygons were repaired").arg(invalid)))
        << run.log.toStdString();
    const ReleaseRecount recount = expectSoundRelease(
        run, {tracts.get(), "AREAKEY", population.get(), "tract", "rid", {}, "pop", 20000});
    EXPECT_EQ(recount.input, 1057673) << "data/README.md";
    expectAreasMatchMembers(*outputLayer(run, "OUTPUT"), *outputLayer(run, "OUTPUT_MAPPING"), *tracts,
                            "AREAKEY", 1e-9);
}

TEST(Robustness, MultipartRegionsHolesAndIslands)
{
    // M: two squares with E between them; H: a square with a hole that I fills exactly; S: an island far
    // off. The centroids of M and E coincide, and so do those of H and I (inside I): only points on the
    // surface tell the areas apart.
    Squares input;
    input.regions = makePolygons(
        {{"M", "MultiPolygon(((0 0, 10 0, 10 10, 0 10, 0 0)), ((30 0, 40 0, 40 10, 30 10, 30 0)))"},
         {"E", "MultiPolygon(((10 0, 30 0, 30 10, 10 10, 10 0)))"},
         {"H", "MultiPolygon(((50 0, 80 0, 80 30, 50 30, 50 0), (60 10, 60 20, 70 20, 70 10, 60 10)))"},
         {"I", "MultiPolygon(((60 10, 70 10, 70 20, 60 20, 60 10)))"},
         {"S", "MultiPolygon(((100 100, 105 100, 105 105, 100 105, 100 100)))"}});
    QList<QVariantList> rows;
    for (const char* area : {"M", "E", "H", "I", "S"})
        for (int i = 0; i < 4; ++i)
            rows.append({rows.size() + 1, area, i % 2 ? "F" : "M", "1"});
    input.records = makeTable({"rid:integer", "area:string", "sex:string", "n:string"}, rows);

    // Every area its own site: the sites are the representative points.
    QVariantMap parameters = input.parameters();
    parameters.insert("SITE_COUNT", 5);
    parameters.insert("SITE_LOCATION", "sitelocation.naive_anonymity");
    parameters.insert("REPRESENTATIVE_POINT", "point_on_surface");
    AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    expectSoundRelease(run, input.input());
    QgsVectorLayer* sites = outputLayer(run, "OUTPUT_SITES");
    QgsVectorLayer* mapping = outputLayer(run, "OUTPUT_MAPPING");
    ASSERT_EQ(number(run, "AGGREGATES"), 5);
    for (const char* area : {"M", "E", "H", "I", "S"})
    {
        const QgsFeature region = featureWith(*mapping, "id", area);
        const QgsFeature site = featureWith(*sites, "aggregate_id", region.attribute("aggregate_id"));
        EXPECT_TRUE(region.geometry().contains(site.geometry()))
            << "the site of " << area << " lies inside it";
    }
    const QgsFeature m = featureWith(*outputLayer(run, "OUTPUT"), "aggregate_id",
                                     featureWith(*mapping, "id", "M").attribute("aggregate_id"));
    EXPECT_EQ(m.attribute("parts").toInt(), 2);
    EXPECT_NEAR(m.attribute("area_m2").toDouble(), 200.0, 1e-6);

    // One region of all: M and E join into one part, I fills the hole of H, S stays an island: 3 parts, no
    // hole, 200 + 200 + 800 + 100 + 25 m².
    parameters.insert("SITE_COUNT", 1);
    run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    expectSoundRelease(run, input.input());
    const QgsFeature all = featureWith(*outputLayer(run, "OUTPUT"), "aggregate_id", 1);
    EXPECT_EQ(all.attribute("parts").toInt(), 3);
    EXPECT_EQ(all.geometry().constGet()->partCount(), 3);
    EXPECT_NEAR(all.geometry().area(), 1325.0, 1e-6);
    EXPECT_NEAR(all.attribute("area_m2").toDouble(), 1325.0, 1e-6);
    const auto* parts = qgsgeometry_cast<const QgsMultiPolygon*>(all.geometry().constGet());
    ASSERT_TRUE(parts);
    for (int p = 0; p < parts->numGeometries(); ++p)
        EXPECT_EQ(parts->polygonN(p)->numInteriorRings(), 0) << "part " << p;
}

TEST(Robustness, GeographicRegionsGiveDistancesInMetres)
{
    // Olinda is in EPSG:4674 (degrees). The mean distance from each tract to its site, measured by QGIS on
    // the ellipsoid between the tract's centroid and the site, must match AVERAGE_DISTANCE in metres.
    const OlindaInput olinda;
    const AlgorithmRun run = runAlgorithm(kAggregate, olinda.parameters({"age_band", "sex"}));
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    QgsVectorLayer* sites = outputLayer(run, "OUTPUT_SITES");
    QgsVectorLayer* mapping = outputLayer(run, "OUTPUT_MAPPING");
    QHash<QString, QgsPointXY> siteOf;
    QgsFeature feature;
    QgsFeatureIterator siteFeatures = sites->getFeatures();
    while (siteFeatures.nextFeature(feature))
        siteOf.insert(feature.attribute("aggregate_id").toString(), feature.geometry().asPoint());
    QgsDistanceArea measure;
    measure.setSourceCrs(mapping->crs(), QgsProject::instance()->transformContext());
    measure.setEllipsoid(mapping->crs().ellipsoidAcronym());
    double sum = 0.0;
    int tracts = 0;
    QgsFeatureIterator tractFeatures = mapping->getFeatures();
    while (tractFeatures.nextFeature(feature))
    {
        sum += measure.measureLine(feature.geometry().centroid().asPoint(),
                                   siteOf.value(feature.attribute("aggregate_id").toString()));
        ++tracts;
    }
    ASSERT_EQ(tracts, 470);
    const double average = run.results.value("AVERAGE_DISTANCE").toDouble();
    EXPECT_NEAR(average, sum / tracts, 0.01 * average);
    EXPECT_GT(average, 100.0) << "metres, not degrees";
    EXPECT_TRUE(run.log.contains("centred on them (azimuthal equidistant)")) << run.log.toStdString();
}

TEST(Robustness, NonAsciiNamesAndValuesSurviveEveryOutput)
{
    const QString regionField = QStringLiteral("Região");
    const QStringList quasiIdentifiers{QStringLiteral("Größe & Gewicht"), QStringLiteral("Возраст")};
    const QStringList areas{QStringLiteral("São José"), QStringLiteral("Müller"), QStringLiteral("Москва"),
                            QStringLiteral("🏥 Ward")};
    Squares input;
    input.regions = makePolygons({{areas.at(0), "MultiPolygon(((0 0, 1 0, 1 1, 0 1, 0 0)))"},
                                  {areas.at(1), "MultiPolygon(((1 0, 2 0, 2 1, 1 1, 1 0)))"},
                                  {areas.at(2), "MultiPolygon(((2 0, 3 0, 3 1, 2 1, 2 0)))"},
                                  {areas.at(3), "MultiPolygon(((3 0, 4 0, 4 1, 3 1, 3 0)))"}},
                                 regionField);
    QList<QVariantList> rows;
    for (int i = 0; i < 24; ++i)
        rows.append({i, areas.at(i % 4), i % 3 ? QStringLiteral("groß") : QStringLiteral("klein <b>"),
                     i % 2 ? QStringLiteral("молодой") : QStringLiteral("старый 🙂")});
    input.records = makeTable({"rid:integer", regionField + ":string", quasiIdentifiers.at(0) + ":string",
                               quasiIdentifiers.at(1) + ":string"},
                              rows);
    QVariantMap parameters = input.parameters();
    parameters.insert("REGION_ID_FIELD", regionField);
    parameters.insert("RECORD_REGION_FIELD", regionField);
    parameters.insert("QUASI_IDENTIFIERS", quasiIdentifiers);
    parameters.insert("COUNT_FIELD", QVariant());
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    expectSoundRelease(run, {input.regions.get(), regionField, input.records.get(), regionField, "rid",
                             quasiIdentifiers, QString(), 2});
    EXPECT_EQ(countByValue(*outputLayer(run, "OUTPUT_MAPPING"), regionField).keys(),
              [&]
              {
                  QStringList sorted = areas;
                  sorted.sort();
                  return sorted;
              }());
    EXPECT_TRUE(outputLayer(run, "OUTPUT_RECORDS")->fields().names().contains(quasiIdentifiers.at(1)));

    // The same records as CSV: UTF-8 names and values.
    const AlgorithmRun csv =
        runAlgorithm(kAggregate, with(parameters, "OUTPUT_RECORDS", input.folder.path("records.csv")));
    ASSERT_TRUE(csv.ok) << csv.errors.toStdString();
    QFile records(input.folder.path("records.csv"));
    ASSERT_TRUE(records.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(records.readAll());
    const QString header = text.section('\n', 0, 0);
    for (const QString& name : QStringList{"aggregate_id", quasiIdentifiers.at(0), quasiIdentifiers.at(1)})
        EXPECT_TRUE(header.contains(name)) << header.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("старый 🙂"))) << text.toStdString();

    QFile report(input.folder.path("report.html"));
    ASSERT_TRUE(report.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(report.readAll());
    EXPECT_TRUE(html.contains("<meta charset=\"utf-8\">"));
    EXPECT_TRUE(html.contains(QStringLiteral("Região"))) << "parameters list the field names";
    EXPECT_TRUE(html.contains(QStringLiteral("Größe &amp; Gewicht"))) << "escaped for HTML";
    EXPECT_FALSE(html.contains(QStringLiteral("Größe & Gewicht")));
}

// ---- Issue 39: faults and small things --------------------------------------------------------------------

namespace
{
/** Returns "ogr:dbname='gpkg' table=\"table\"", a layer of a GeoPackage as an output destination. */
QString gpkgLayer(const QString& gpkg, const char* table)
{
    return QStringLiteral("ogr:dbname='%1' table=\"%2\"").arg(gpkg, table);
}

/** Makes the GeoPackage `path` holding the table `table` with the integer fields `fields`, then runs `sql`.
 */
void makeGeoPackage(const QString& path, const char* table, const QStringList& fields,
                    const char* sql = nullptr)
{
    GDALDriverH driver = GDALGetDriverByName("GPKG");
    GDALDatasetH dataset = GDALCreate(driver, path.toUtf8().constData(), 0, 0, 0, GDT_Unknown, nullptr);
    ASSERT_TRUE(dataset);
    OGRLayerH layer = GDALDatasetCreateLayer(dataset, table, nullptr, wkbNone, nullptr);
    ASSERT_TRUE(layer);
    for (const QString& name : fields)
    {
        OGRFieldDefnH field = OGR_Fld_Create(name.toUtf8().constData(), OFTInteger);
        OGR_L_CreateField(layer, field, TRUE);
        OGR_Fld_Destroy(field);
    }
    if (sql != nullptr)
        GDALDatasetExecuteSQL(dataset, sql, nullptr, nullptr);
    GDALClose(dataset);
}

/** Runs `parameters`, expects the exact refusal `message` and the files of `folder` unchanged. */
void expectRefusedKeepingFiles(const QVariantMap& parameters, const QString& folder,
                               const std::string& message)
{
    const QMap<QString, QByteArray> before = filesIn(folder);
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    EXPECT_FALSE(run.ok);
    EXPECT_EQ(run.errors.toStdString(), message);
    EXPECT_EQ(filesIn(folder), before) << "the files there are as they were";
}
} // namespace

TEST(Robustness, AReviewOutputNeverSharesAFileWithPublishableOnes)
{
    const Squares input;
    const QString gpkg = input.folder.path("release.gpkg");
    const std::string native = QDir::toNativeSeparators(gpkg).toStdString();
    // In one run: the review layer, or the records with their withheld ones, beside the published regions.
    expectRejected(
        kAggregate, with(input.parameters(), "OUTPUT_REVIEW", gpkgLayer(gpkg, "review")), input.folder,
        "OUTPUT_REVIEW: " + native +
            " is also where OUTPUT goes, which is publishable; OUTPUT_REVIEW is for review only and "
            "must never be published with it: give OUTPUT_REVIEW a file of its own");
    expectRejected(
        kAggregate, with(input.parameters(), "KEEP_SUPPRESSED", true), input.folder,
        "OUTPUT_RECORDS: " + native +
            " is also where OUTPUT goes, which is publishable; OUTPUT_RECORDS is for review only and "
            "must never be published with it: give OUTPUT_RECORDS a file of its own");

    // Across runs: a review layer alone in a file is fine; a published layer is then refused beside it (the
    // review is not deleted behind the custodian's back), and so is a review layer beside a published one.
    QVariantMap review = input.parameters();
    for (const char* output :
         {"OUTPUT", "OUTPUT_MAPPING", "OUTPUT_SITES", "OUTPUT_RECORDS", "OUTPUT_HTML_FILE"})
        review.remove(output);
    review.insert("OUTPUT", QgsProcessing::TEMPORARY_OUTPUT);
    review.insert("OUTPUT_REVIEW", gpkgLayer(gpkg, "review"));
    const AlgorithmRun first = runAlgorithm(kAggregate, review);
    ASSERT_TRUE(first.ok) << first.errors.toStdString();
    expectRefusedKeepingFiles(
        input.parameters(), input.folder.path(""),
        "OUTPUT: " + native +
            " already holds the layer 'review' of an earlier run, which is for review only "
            "(it is marked so); a file that is published must hold no review layer: "
            "delete that layer from the file, or write OUTPUT into another file");

    const QString published = input.folder.path("published.gpkg");
    QVariantMap publish = input.parameters();
    for (const char* output : {"OUTPUT_MAPPING", "OUTPUT_SITES", "OUTPUT_RECORDS", "OUTPUT_HTML_FILE"})
        publish.remove(output);
    publish.insert("OUTPUT", gpkgLayer(published, "aggregates"));
    const AlgorithmRun second = runAlgorithm(kAggregate, publish);
    ASSERT_TRUE(second.ok) << second.errors.toStdString();
    review.insert("OUTPUT_REVIEW", gpkgLayer(published, "review"));
    expectRefusedKeepingFiles(review, input.folder.path(""),
                              "OUTPUT_REVIEW: " + QDir::toNativeSeparators(published).toStdString() +
                                  " already holds the layer 'aggregates', which is not for review only; "
                                  "OUTPUT_REVIEW is for review only and must never share a file that may be "
                                  "published: give OUTPUT_REVIEW a file of its own");
}

TEST(Robustness, AStaleReviewLayerOfAnEarlierVersionIsKnownByItsWithheldCounts)
{
    // A review layer written before review layers were marked: its withheld counts give it away.
    const Squares input;
    const QString gpkg = input.folder.path("release.gpkg");
    makeGeoPackage(gpkg, "old_review", {"aggregate_id", "suppressed_local"});
    expectRefusedKeepingFiles(
        input.parameters(), input.folder.path(""),
        "OUTPUT: " + QDir::toNativeSeparators(gpkg).toStdString() +
            " already holds the layer 'old_review' of an earlier run, which is for review "
            "only (its field suppressed_local is for review only); a file that is published "
            "must hold no review layer: delete that layer from the file, or write OUTPUT "
            "into another file");
}

TEST(Robustness, TheReleaseLedgerIsNeverAnOutputNorInsideOne)
{
    const Squares input;
    const QString gpkg = input.folder.path("release.gpkg");
    // The ledger in the output GeoPackage, as the documentation once invited: refused before anything is
    // read, so that no ledger file is even made.
    expectRejected(
        kAggregate, with(input.parameters(), "RELEASE_LEDGER", gpkg), input.folder,
        "RELEASE_LEDGER: " + QDir::toNativeSeparators(gpkg).toStdString() +
            " is also where OUTPUT goes; the ledger is the custodian's and is never published, and "
            "moving the release into place would replace it: keep the ledger in a file of its own, "
            "apart from every output");

    // A file that holds a ledger's tables is no output's: a GeoPackage layer would carry them into the
    // published file, a whole file would destroy the ledger.
    const QString ledger = input.folder.path("ledger.gpkg");
    makeGeoPackage(ledger, "notes", {"note"}, "CREATE TABLE vbas_release_ledger (id BIGINT PRIMARY KEY)");
    QVariantMap recorded = input.parameters();
    for (const char* output : {"OUTPUT_MAPPING", "OUTPUT_SITES", "OUTPUT_RECORDS", "OUTPUT_HTML_FILE"})
        recorded.remove(output);
    for (const QString& output : {gpkgLayer(ledger, "aggregates"), ledger})
        expectRefusedKeepingFiles(
            with(recorded, "OUTPUT", output), input.folder.path(""),
            "OUTPUT: " + QDir::toNativeSeparators(ledger).toStdString() +
                " holds a release ledger (the table vbas_release_ledger); an output there "
                "would publish the ledger or replace it: choose another file for OUTPUT");
}

TEST(Robustness, AReleaseThatWouldPublishNothingIsRefusedAndKeepsThePreviousOne)
{
    // k = 6 with a region per square: the 2 men are rare in the whole table, the 6 women (2 in A, 1 in B, 3
    // in C) too few in every region.
    const Squares input;
    const AlgorithmRun previous = runAlgorithm(kAggregate, input.parameters());
    ASSERT_TRUE(previous.ok) << previous.errors.toStdString();
    QVariantMap parameters = with(input.parameters(), "K", 6);
    parameters.insert("SITE_COUNT", 4);
    expectRefusedKeepingFiles(
        parameters, input.folder.path(""),
        "K: with k = 6 no record can be released: all 8 records would be withheld (2 as rare in the whole "
        "data "
        "set, 6 as too few in their region, 0 in count rows below k, 0 for l-diversity, 0 against earlier "
        "releases), so the release would publish nothing; lower K, release more records or coarser "
        "quasi-identifiers. Nothing was written: the files in place are as they were");
}

TEST(Robustness, TextNotInTheRecordsEncodingIsRefusedAndReadWithTheNamedOne)
{
    // A real Latin-1 CSV: 'Jaú' and 'Jaó' differ in one byte (0xFA, 0xF3), neither of them UTF-8. Read as
    // UTF-8 both become 'Ja' and U+FFFD, and every released row would say the same town.
    QTemporaryDir dir;
    const QString path = dir.filePath("records.csv");
    QFile csv(path);
    ASSERT_TRUE(csv.open(QIODevice::WriteOnly));
    QByteArray bytes("area,sex,town\n");
    for (const char* area : {"A", "B", "C", "D"})
        bytes += QByteArray(area) + ",F,Ja\xfa\n" + QByteArray(area) + ",M,Ja\xf3\n";
    csv.write(bytes);
    csv.close();
    const Squares input;
    QVariantMap parameters = input.parameters();
    parameters.insert("RECORDS", path);
    parameters.insert("COUNT_FIELD", QVariant());
    parameters.insert("RELEASE_FIELDS", QStringList{"town"});
    parameters.insert("SITE_COUNT", 1);
    expectRejected(
        kAggregate, parameters, input.folder,
        "RECORDS: the value of 'town' in feature 1 is not UTF-8 text ('Ja?', its other bytes shown as ?): "
        "values that differ only in such bytes would be released as one. Give the file's encoding: in QGIS "
        "add "
        "the table as a delimited text layer with its Encoding (Layer > Add Layer > Add Delimited Text "
        "Layer); "
        "on the command line "
        "RECORDS=delimitedtext://file:///path/to/records.csv?type=csv&delimiter=,&geomType="
        "none&encoding=ISO-8859-1 (the file's own encoding); or convert the file to UTF-8 (iconv -f "
        "ISO-8859-1 "
        "-t UTF-8)");

    // Named, through QGIS's delimited-text layer: the two towns stay two in the released rows.
    parameters.insert("RECORDS",
                      QStringLiteral("delimitedtext://file://%1?type=csv&delimiter=,&geomType=none&"
                                     "encoding=ISO-8859-1")
                          .arg(path));
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(countByValue(*outputLayer(run, "OUTPUT_RECORDS"), "town"),
              (QMap<QString, qint64>{{QStringLiteral("Jaó"), 4}, {QStringLiteral("Jaú"), 4}}));
}

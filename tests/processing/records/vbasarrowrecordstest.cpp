// RECORDS read through GDAL's Arrow stream (VbasArrowRecords) give the very dataset QGIS's own iteration
// gives: the same rows, feature ids, region keys, classes, counts, sensitive codes and category values, on
// the demo's CSV and on a GeoPackage and a Shapefile of typed fields with NULLs and a subset string. Rows
// grouped by the database (GeoPackage, SpatiaLite) hold the same records per group, and a release of them
// publishes the same rows.

#include "vbasarrowrecords.h"
#include "processingtestutils.h"
#include "realdata.h"
#include "releasecheck.h"
#include "vbasjobloader.h"
#include "vbasrecordstorage.h"

#include <qgsdatasourceuri.h>

#include <QDir>
#include <QTemporaryDir>

#include <gdal.h>
#include <gdal_utils.h>
#include <ogr_api.h>
#include <ogr_recordbatch.h>
#include <ogr_srs_api.h>

#include <gtest/gtest.h>

#include <cstring>
#include <tuple>

namespace
{
/** The ids of the first 40 Olinda tracts, for small tables of records. */
QStringList firstTracts(const OlindaInput& olinda)
{
    QStringList tracts;
    QgsFeature tract;
    QgsFeatureIterator it = olinda.tracts->getFeatures();
    while (it.nextFeature(tract) && tracts.size() < 40)
        tracts << tract.attribute("CD_GEOCODI").toString();
    return tracts;
}

/** The job data of `records` over the Olinda tracts, through the Arrow stream or through QGIS. */
VbasLoadedData load(const OlindaInput& olinda, QgsVectorLayer& records, const VbasRecordFields& fields,
                    bool columnar, QStringList& log)
{
    VbasRecordFields rows = fields;
    rows.grouping = VbasGrouping::Rows;
    return loadOlindaJob(olinda, records, rows, columnar, log);
}

void expectSameData(const VbasLoadedData& columnar, const VbasLoadedData& iterated)
{
    const vbas::Dataset& a = *columnar.dataset;
    const vbas::Dataset& b = *iterated.dataset;
    ASSERT_EQ(a.rows(), b.rows());
    ASSERT_EQ(a.sensitiveCount(), b.sensitiveCount());
    const std::size_t q = a.schema().size();
    ASSERT_EQ(q, b.schema().size());
    for (std::size_t row = 0; row < a.rows(); ++row)
    {
        ASSERT_EQ(a.rowRegion(row), b.rowRegion(row)) << "row " << row;
        ASSERT_EQ(a.rowCount(row), b.rowCount(row)) << "row " << row;
        ASSERT_EQ(a.rowClass(row) == vbas::kNoClass, b.rowClass(row) == vbas::kNoClass) << "row " << row;
        if (a.rowClass(row) != vbas::kNoClass)
        {
            for (std::size_t j = 0; j < q; ++j)
                ASSERT_EQ(a.classes().codes(a.rowClass(row))[j], b.classes().codes(b.rowClass(row))[j])
                    << "row " << row << " field " << j;
        }
        for (std::size_t f = 0; f < a.sensitiveCount(); ++f)
            ASSERT_EQ(a.rowSensitive(row, f), b.rowSensitive(row, f)) << "row " << row;
    }
    ASSERT_EQ(columnar.dataset->quasiIdentifierValues().size(),
              iterated.dataset->quasiIdentifierValues().size());
    for (std::size_t j = 0; j < columnar.dataset->quasiIdentifierValues().size(); ++j)
    {
        const auto& x = columnar.dataset->quasiIdentifierValues()[j];
        const auto& y = iterated.dataset->quasiIdentifierValues()[j];
        ASSERT_EQ(x.size(), y.size());
        for (std::size_t c = 0; c < x.size(); ++c)
        {
            EXPECT_EQ(x[c].null, y[c].null);
            EXPECT_EQ(x[c].text, y[c].text);
            EXPECT_EQ(x[c].number, y[c].number);
            EXPECT_EQ(x[c].day, y[c].day);
        }
    }
}

/**
 * A table of `rows` case points over the first tracts of Olinda with typed fields: an integer age, a 64-bit
 * code, a real score, a date, text (some NULL) and a count; written by OGR's `driver`.
 */
QString writeTypedTable(const QString& path, const char* driver, const QStringList& tracts, int rows)
{
    GDALDriverH handle = GDALGetDriverByName(driver);
    GDALDatasetH dataset = GDALCreate(handle, path.toUtf8().constData(), 0, 0, 0, GDT_Unknown, nullptr);
    EXPECT_TRUE(dataset != nullptr);
    // Case points, as a surveillance table has them (and FlatGeobuf wants them).
    OGRLayerH layer = GDALDatasetCreateLayer(dataset, "patients", nullptr, wkbPoint, nullptr);
    const std::pair<const char*, OGRFieldType> fields[] = {
        {"tract", OFTString}, {"age", OFTInteger}, {"code", OFTInteger64}, {"score", OFTReal},
        {"onset", OFTDate},   {"sex", OFTString},  {"n", OFTInteger}};
    for (const auto& [name, type] : fields)
    {
        OGRFieldDefnH field = OGR_Fld_Create(name, type);
        OGR_L_CreateField(layer, field, TRUE);
        OGR_Fld_Destroy(field);
    }
    // One transaction where the driver has them (a GeoPackage commits each row otherwise).
    const bool inTransaction = GDALDatasetStartTransaction(dataset, FALSE) == OGRERR_NONE;
    for (int i = 0; i < rows; ++i)
    {
        OGRFeatureH feature = OGR_F_Create(OGR_L_GetLayerDefn(layer));
        OGR_F_SetFieldString(feature, 0, tracts.at(i % tracts.size()).toUtf8().constData());
        if (i % 11 != 0)
            OGR_F_SetFieldInteger(feature, 1, 18 + (i * 7) % 60);
        OGR_F_SetFieldInteger64(feature, 2, 5000000000LL + (i % 5));
        OGR_F_SetFieldDouble(feature, 3, 0.25 * (i % 9));
        OGR_F_SetFieldDateTime(feature, 4, 2004, 1 + i % 12, 1 + i % 28, 0, 0, 0, 0);
        if (i % 13 != 0)
            OGR_F_SetFieldString(feature, 5, i % 3 == 0 ? "female" : "male");
        OGR_F_SetFieldInteger(feature, 6, i % 4);
        OGRGeometryH point = OGR_G_CreateGeometry(wkbPoint);
        OGR_G_SetPoint_2D(point, 0, -34.85 + 0.001 * (i % 50), -8.0 + 0.001 * (i / 50));
        OGR_F_SetGeometryDirectly(feature, point);
        EXPECT_EQ(OGR_L_CreateFeature(layer, feature), OGRERR_NONE);
        OGR_F_Destroy(feature);
    }
    if (inTransaction)
    {
        EXPECT_EQ(GDALDatasetCommitTransaction(dataset), OGRERR_NONE);
    }
    GDALClose(dataset);
    return path;
}

/**
 * vbas:aggregateregions of a GeoPackage's records grouped by the database and read row by row, each checked
 * to have run and to have read as asked.
 */
std::pair<AlgorithmRun, AlgorithmRun> releaseGroupedAndByRows(QVariantMap parameters)
{
    parameters["GROUP_RECORDS"] = "database";
    AlgorithmRun grouped = runAlgorithm("vbas:aggregateregions", parameters);
    parameters["GROUP_RECORDS"] = "rows";
    AlgorithmRun rows = runAlgorithm("vbas:aggregateregions", parameters);
    EXPECT_TRUE(grouped.ok) << grouped.errors.toStdString();
    EXPECT_TRUE(rows.ok) << rows.errors.toStdString();
    EXPECT_TRUE(grouped.log.contains("RECORDS: grouped by the database (GeoPackage)"))
        << grouped.log.toStdString();
    EXPECT_TRUE(rows.log.contains("RECORDS: read through GDAL's Arrow stream")) << rows.log.toStdString();
    return {std::move(grouped), std::move(rows)};
}
} // namespace

TEST(ArrowRecords, TheDemoCsvGivesTheDatasetQgisGives)
{
    const OlindaInput olinda;
    const VbasRecordFields fields =
        recordRoles(olinda.patients->fields(), "tract", {"age", "sex", "married"}, {"education"});
    QStringList columnarLog, iteratedLog;
    const VbasLoadedData columnar = load(olinda, *olinda.patients, fields, true, columnarLog);
    const VbasLoadedData iterated = load(olinda, *olinda.patients, fields, false, iteratedLog);
    EXPECT_TRUE(columnarLog.contains("RECORDS: read through GDAL's Arrow stream"))
        << columnarLog.join('\n').toStdString();
    EXPECT_TRUE(iteratedLog.contains("RECORDS: read through QGIS's feature iterator"));
    EXPECT_EQ(columnar.dataset->rows(), std::size_t(kOlindaPatients));
    expectSameData(columnar, iterated);
}

TEST(ArrowRecords, TypedFieldsNullsAndASubsetGiveTheDatasetQgisGives)
{
    const OlindaInput olinda;
    const QStringList tracts = firstTracts(olinda);
    QTemporaryDir dir;
    for (const auto& [file, driver] :
         {std::pair("typed.gpkg", "GPKG"), std::pair("typed.shp", "ESRI Shapefile"),
          std::pair("typed.fgb", "FlatGeobuf")})
    {
        SCOPED_TRACE(driver);
        const QString path = writeTypedTable(dir.filePath(file), driver, tracts, 3000);
        QgsVectorLayer layer(path, QStringLiteral("patients"), QStringLiteral("ogr"));
        ASSERT_TRUE(layer.isValid());
        // FlatGeobuf keeps a date as a date-time, which the stream leaves to QGIS (time zones).
        const bool datesStream = std::strcmp(driver, "FlatGeobuf") != 0;
        for (const QString& subset : {QString(), QStringLiteral("n > 0 AND age < 60")})
            for (const bool withDate : {false, true})
            {
                SCOPED_TRACE(subset.toStdString() + (withDate ? " with onset" : ""));
                ASSERT_TRUE(layer.setSubsetString(subset));
                QStringList quasiIdentifiers{"age", "code", "score", "sex"};
                if (withDate)
                    quasiIdentifiers << "onset";
                const VbasRecordFields fields =
                    recordRoles(layer.fields(), "tract", quasiIdentifiers, {"sex"}, QStringLiteral("n"));
                QStringList columnarLog, iteratedLog;
                const VbasLoadedData columnar = load(olinda, layer, fields, true, columnarLog);
                const VbasLoadedData iterated = load(olinda, layer, fields, false, iteratedLog);
                EXPECT_EQ(columnarLog.contains("RECORDS: read through GDAL's Arrow stream"),
                          !withDate || datesStream)
                    << columnarLog.join('\n').toStdString();
                EXPECT_GT(columnar.dataset->rows(), std::size_t(0));
                expectSameData(columnar, iterated);
            }
    }
}

TEST(ArrowRecords, RowsOfManyBatchesGiveTheDatasetQgisGives)
{
    // 140,000 rows, three of GDAL's batches whole and two filtered: each read ahead while the last is read.
    const OlindaInput olinda;
    QTemporaryDir dir;
    const QString path = writeTypedTable(dir.filePath("many.gpkg"), "GPKG", firstTracts(olinda), 140000);
    QgsVectorLayer layer(path, QStringLiteral("patients"), QStringLiteral("ogr"));
    ASSERT_TRUE(layer.isValid());
    for (const QString& subset : {QString(), QStringLiteral("n > 0")})
    {
        SCOPED_TRACE(subset.toStdString());
        ASSERT_TRUE(layer.setSubsetString(subset));
        const VbasRecordFields fields = recordRoles(layer.fields(), "tract", {"age", "sex"}, {});
        QStringList columnarLog, iteratedLog;
        const VbasLoadedData columnar = load(olinda, layer, fields, true, columnarLog);
        const VbasLoadedData iterated = load(olinda, layer, fields, false, iteratedLog);
        EXPECT_TRUE(columnarLog.contains("RECORDS: read through GDAL's Arrow stream"));
        EXPECT_EQ(columnar.dataset->rows(), std::size_t(subset.isEmpty() ? 140000 : 105000));
        expectSameData(columnar, iterated);
    }
}

namespace
{
/** The threads of this process now. */
int threadsNow()
{
    return int(QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size());
}

/** The threads that appeared while the first batch of `layer`'s Arrow stream was read, and its rows. */
std::pair<int, qint64> threadsStartedAndRows(OGRLayerH layer)
{
    ArrowArrayStream stream{};
    EXPECT_TRUE(OGR_L_GetArrowStream(layer, &stream, nullptr));
    const int before = threadsNow();
    int started = 0;
    qint64 rows = 0;
    for (ArrowArray batch{}; stream.get_next(&stream, &batch) == 0 && batch.release != nullptr; batch = {})
    {
        if (rows == 0)
            started = threadsNow() - before;
        rows += batch.length;
        batch.release(&batch);
    }
    stream.release(&stream);
    return {started, rows};
}
} // namespace

TEST(ArrowRecords, AGeoPackageQueryIsStreamedInTheCallersThread)
{
    // GDAL before 3.11.4 fills the batches of a GeoPackage table's own stream in worker threads that can
    // write a batch while it is read (GDAL issue 12934), which made the typed-fields test above read garbage
    // on a loaded machine. A query's stream, which the records and the output guard read, starts none.
    QTemporaryDir dir;
    const QString path = writeTypedTable(dir.filePath("typed.gpkg"), "GPKG", {"a", "b"}, 140000);
    GDALDatasetH dataset = GDALOpenEx(path.toUtf8().constData(), GDAL_OF_VECTOR, nullptr, nullptr, nullptr);
    ASSERT_NE(dataset, nullptr);
    EXPECT_TRUE(VbasGdal::isGeoPackage(dataset));
    OGRLayerH table = GDALDatasetGetLayerByName(dataset, "patients");
    for (const QString& filter : {QString(), QStringLiteral("n > 0")})
    {
        SCOPED_TRACE(filter.toStdString());
        OGRLayerH query = VbasGdal::selectFrom(dataset, table, {"fid", "tract", "age"}, filter);
        ASSERT_NE(query, nullptr);
        const auto [started, rows] = threadsStartedAndRows(query);
        GDALDatasetReleaseResultSet(dataset, query);
        EXPECT_EQ(started, 0);
        EXPECT_EQ(rows, filter.isEmpty() ? 140000 : 105000);
#if GDAL_VERSION_NUM < GDAL_COMPUTE_VERSION(3, 11, 4)
        // What the query avoids: the table's own stream starts GDAL's threads.
        ASSERT_EQ(OGR_L_SetAttributeFilter(table, filter.isEmpty() ? nullptr : filter.toUtf8().constData()),
                  OGRERR_NONE);
        EXPECT_GT(threadsStartedAndRows(table).first, 0);
#endif
    }
    GDALClose(dataset);
}

TEST(ArrowRecords, OtherProvidersAreReadThroughQgis)
{
    const OlindaInput olinda;
    // A memory layer is no OGR layer: no stream, QGIS reads it.
    const std::unique_ptr<QgsVectorLayer> copy(
        olinda.patients->materialize(QgsFeatureRequest().setLimit(50)));
    ASSERT_TRUE(copy);
    EXPECT_EQ(VbasArrowRecords::open(*copy, {"tract"}), nullptr);
    EXPECT_NE(VbasArrowRecords::open(*olinda.patients, {"tract", "age"}), nullptr);
    EXPECT_EQ(VbasArrowRecords::open(*olinda.patients, {"no_such_field"}), nullptr);
}

TEST(ArrowRecords, UnsavedEditsAndFieldsOfQgisAreReadThroughQgis)
{
    QTemporaryDir dir;
    const QString path = writeTypedTable(dir.filePath("typed.gpkg"), "GPKG", {"a", "b"}, 20);
    QgsVectorLayer layer(path, QStringLiteral("patients"), QStringLiteral("ogr"));
    ASSERT_TRUE(layer.isValid());
    EXPECT_NE(VbasArrowRecords::open(layer, {"tract", "age"}), nullptr);

    // The file does not hold an expression field: QGIS computes it.
    const int doubled = layer.addExpressionField(QStringLiteral("age * 2"), QgsField(QStringLiteral("age2")));
    ASSERT_GE(doubled, 0);
    EXPECT_EQ(VbasArrowRecords::open(layer, {"tract", "age2"}), nullptr);
    EXPECT_NE(VbasArrowRecords::open(layer, {"tract", "age"}), nullptr);

    // Nor edits not yet saved.
    ASSERT_TRUE(layer.startEditing());
    ASSERT_TRUE(layer.changeAttributeValue(1, layer.fields().lookupField("age"), 99));
    EXPECT_EQ(VbasArrowRecords::open(layer, {"tract", "age"}), nullptr);
    layer.rollBack();
}

namespace
{
/** The typed table of writeTypedTable() as a SpatiaLite database, and the layer QGIS's provider opens. */
std::unique_ptr<QgsVectorLayer> spatiaLiteCopy(const QString& gpkg, const QString& path)
{
    GDALDatasetH source = GDALOpenEx(gpkg.toUtf8().constData(), GDAL_OF_VECTOR, nullptr, nullptr, nullptr);
    const char* arguments[] = {"-f", "SQLite", "-dsco", "SPATIALITE=YES", nullptr};
    GDALVectorTranslateOptions* options =
        GDALVectorTranslateOptionsNew(const_cast<char**>(arguments), nullptr);
    GDALDatasetH copy = GDALVectorTranslate(path.toUtf8().constData(), nullptr, 1, &source, options, nullptr);
    GDALVectorTranslateOptionsFree(options);
    EXPECT_TRUE(copy != nullptr);
    GDALClose(copy);
    GDALClose(source);
    QgsDataSourceUri uri;
    uri.setDatabase(path);
    uri.setDataSource(QString(), QStringLiteral("patients"), QStringLiteral("geom"));
    return std::make_unique<QgsVectorLayer>(uri.uri(), QStringLiteral("patients"),
                                            QStringLiteral("spatialite"));
}
} // namespace

TEST(ArrowRecords, GroupsCountedByTheDatabaseHoldTheRecordsEveryRowHolds)
{
    const OlindaInput olinda;
    const QStringList tracts = firstTracts(olinda);
    QTemporaryDir dir;
    const QString gpkg = writeTypedTable(dir.filePath("typed.gpkg"), "GPKG", tracts, 3000);
    QgsVectorLayer geoPackage(gpkg, QStringLiteral("patients"), QStringLiteral("ogr"));
    const std::unique_ptr<QgsVectorLayer> spatiaLite = spatiaLiteCopy(gpkg, dir.filePath("typed.sqlite"));
    ASSERT_TRUE(geoPackage.isValid());
    ASSERT_TRUE(spatiaLite->isValid());
    for (const auto& [layer, database, automatic] :
         {std::tuple(&geoPackage, "GeoPackage", false), std::tuple(spatiaLite.get(), "SQLite", true)})
        for (const auto& [subset, count] :
             {std::pair(QString(), QString()), std::pair(QStringLiteral("n > 0 AND age < 60"), QString()),
              std::pair(QString(), QStringLiteral("n"))})
        {
            SCOPED_TRACE(QString("%1 %2 %3").arg(database, subset, count).toStdString());
            ASSERT_TRUE(layer->setSubsetString(subset));
            // NULL ages and sexes, a 64-bit code and a real; sex also published as a sensitive value; with
            // COUNT_FIELD n, rows of 0 to 3 records (identical rows, counts included, grouped alike).
            VbasRecordFields fields =
                recordRoles(layer->fields(), "tract", {"age", "code", "score"}, {"sex"}, count);
            QStringList rowsLog, groupedLog, automaticLog;
            fields.grouping = VbasGrouping::Rows;
            const VbasLoadedData rows = loadOlindaJob(olinda, *layer, fields, true, rowsLog);
            fields.grouping = VbasGrouping::Database;
            const VbasLoadedData grouped = loadOlindaJob(olinda, *layer, fields, true, groupedLog);
            fields.grouping = VbasGrouping::Automatic;
            const VbasLoadedData automaticData = loadOlindaJob(olinda, *layer, fields, true, automaticLog);

            EXPECT_FALSE(rows.recordsGrouped);
            ASSERT_TRUE(grouped.recordsGrouped) << groupedLog.join('\n').toStdString();
            EXPECT_TRUE(
                groupedLog.filter(QStringLiteral("RECORDS: grouped by the database (%1").arg(database))
                    .size() == 1)
                << groupedLog.join('\n').toStdString();
            // A GeoPackage streams faster than SQLite groups it; QGIS's SpatiaLite provider does not stream.
            EXPECT_EQ(automaticData.recordsGrouped, automatic) << automaticLog.join('\n').toStdString();
            // Fewer rows, the same records in every group; every group at most once.
            EXPECT_LT(grouped.dataset->rows(), rows.dataset->rows() / 2);
            EXPECT_EQ(grouped.dataset->rows(), recordsPerGroup(grouped).size());
            EXPECT_EQ(recordsPerGroup(grouped), recordsPerGroup(rows));
            EXPECT_EQ(grouped.dataset->quasiIdentifierValues().size(),
                      rows.dataset->quasiIdentifierValues().size());
            for (std::size_t j = 0; j < rows.dataset->quasiIdentifierValues().size(); ++j)
                for (std::size_t c = 0; c < rows.dataset->quasiIdentifierValues()[j].size(); ++c)
                    EXPECT_EQ(grouped.dataset->quasiIdentifierValues()[j].at(c).text,
                              rows.dataset->quasiIdentifierValues()[j][c].text);
        }
}

TEST(ArrowRecords, AReleaseOfDatabaseGroupsPublishesWhatAReleaseOfEveryRowPublishes)
{
    const OlindaInput olinda;
    QTemporaryDir dir;
    // The demo's patients as a GeoPackage table.
    GDALDatasetH source =
        GDALOpenEx(olinda.patients->source().toUtf8().constData(), GDAL_OF_VECTOR, nullptr, nullptr, nullptr);
    const char* arguments[] = {"-f", "GPKG", "-nln", "patients", nullptr};
    GDALVectorTranslateOptions* options =
        GDALVectorTranslateOptionsNew(const_cast<char**>(arguments), nullptr);
    const QString path = dir.filePath("patients.gpkg");
    GDALClose(GDALVectorTranslate(path.toUtf8().constData(), nullptr, 1, &source, options, nullptr));
    GDALVectorTranslateOptionsFree(options);
    GDALClose(source);
    QgsVectorLayer patients(path, QStringLiteral("patients"), QStringLiteral("ogr"));
    ASSERT_TRUE(patients.isValid());
    ASSERT_EQ(patients.featureCount(), kOlindaPatients);

    QVariantMap parameters = olinda.parameters();
    parameters["RECORDS"] = asParameter(&patients);
    parameters["SENSITIVE_FIELDS"] = QStringList{"health"};
    const auto [grouped, rows] = releaseGroupedAndByRows(parameters);
    ASSERT_TRUE(grouped.ok && rows.ok);

    ReleaseInput input{olinda.tracts.get(),     "CD_GEOCODI", &patients, "tract", "patient_id",
                       kOlindaQuasiIdentifiers, QString(),    5};
    const ReleaseRecount recount = expectSoundRelease(grouped, input);
    EXPECT_EQ(recount.input, kOlindaPatients);
    // One published row per record either way, with the same values.
    expectSameRelease(grouped, rows, QStringList{"tract", "health"} + kOlindaQuasiIdentifiers);
}

TEST(ArrowRecords, NullsInDatabaseGroupsAreCountedInRecordsAndFoundByAFilter)
{
    // 600 case points: sex NULL in every 13th row (i % 13 == 0), tract NULL in every 17th feature.
    const OlindaInput olinda;
    QTemporaryDir dir;
    const int rows = 600;
    const QString path = writeTypedTable(dir.filePath("cases.gpkg"), "GPKG", firstTracts(olinda), rows);
    {
        GDALDatasetH dataset =
            GDALOpenEx(path.toUtf8().constData(), GDAL_OF_VECTOR | GDAL_OF_UPDATE, nullptr, nullptr, nullptr);
        ASSERT_TRUE(dataset != nullptr);
        GDALDatasetExecuteSQL(dataset, "UPDATE patients SET tract = NULL WHERE fid % 17 = 0", nullptr,
                              nullptr);
        GDALClose(dataset);
    }
    int nullSex = 0, nullTract = 0;
    for (int i = 0; i < rows; ++i)
    {
        nullSex += i % 13 == 0;
        nullTract += (i + 1) % 17 == 0; // GeoPackage feature ids count from 1
    }
    QgsVectorLayer cases(path + QStringLiteral("|layername=patients"), QStringLiteral("cases"),
                         QStringLiteral("ogr"));
    ASSERT_TRUE(cases.isValid());
    QVariantMap parameters = olinda.parameters();
    parameters["RECORDS"] = asParameter(&cases);
    parameters["QUASI_IDENTIFIERS"] = QStringList{"sex"};
    parameters["UNKNOWN_REGIONS"] = "drop";
    parameters["MAX_DROPPED"] = 10; // 35 of 600 records have no small area
    const auto [grouped, everyRow] = releaseGroupedAndByRows(parameters);
    ASSERT_TRUE(grouped.ok && everyRow.ok);
    // Records, not groups: both readings say the same.
    const QString sex = QStringLiteral("'sex' is NULL in %1 record(s);").arg(nullSex);
    EXPECT_TRUE(grouped.log.contains(sex)) << grouped.log.toStdString();
    EXPECT_TRUE(everyRow.log.contains(sex)) << everyRow.log.toStdString();
    // A group has no feature to name; the filter that shows the rows is named instead.
    EXPECT_TRUE(grouped.log.contains(
        QStringLiteral(
            "%1 record(s) have no small area ('tract' is NULL; the filter \"tract\" IS NULL shows them)")
            .arg(nullTract)))
        << grouped.log.toStdString();
    EXPECT_FALSE(grouped.log.contains("first: feature")) << grouped.log.toStdString();
    EXPECT_TRUE(everyRow.log.contains(
        QStringLiteral("%1 record(s) in %1 row(s) have no small area ('tract' is NULL; first: feature 17)")
            .arg(nullTract)))
        << everyRow.log.toStdString();
}

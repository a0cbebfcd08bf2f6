// VbasOgrTable fills a GeoPackage table QGIS created with exactly the rows QGIS would have written (every
// field type a release writes, NULLs), by every route it has (SQLite's INSERTs, GDAL's Arrow write where
// GDAL has it, GDAL's features), all or none, with the counts and metadata GDAL keeps; and a release's
// records written through it are the rows the QGIS path writes.

#include "vbasogrtable.h"
#include "processingtestutils.h"
#include "realdata.h"
#include "vbasarrowbatches.h"
#include "vbascodedrows.h"
#include "vbasqgiscompat.h"

#include <qgsvectorfilewriter.h>
#include <qgsvectorlayer.h>

#include <QDate>
#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>

#include <gdal.h>
#include <ogr_api.h>

#include <gtest/gtest.h>

#include <algorithm>

namespace
{
QgsFields typedFields()
{
    QgsFields fields;
    fields.append(QgsField(QStringLiteral("id"), VbasCompat::FieldTypeInt));
    fields.append(QgsField(QStringLiteral("big"), VbasCompat::FieldTypeLongLong));
    fields.append(QgsField(QStringLiteral("score"), VbasCompat::FieldTypeDouble));
    fields.append(QgsField(QStringLiteral("label"), VbasCompat::FieldTypeString));
    fields.append(QgsField(QStringLiteral("onset"), VbasCompat::FieldTypeDate));
    fields.append(QgsField(QStringLiteral("seen"), VbasCompat::FieldTypeDateTime));
    return fields;
}

/** Creates the empty table `name` in `path` as Processing's sinks do, and returns its sink destination. */
QString createTable(const QString& path, const QString& name, const QgsFields& fields,
                    const QString& driver = QStringLiteral("GPKG"))
{
    QgsVectorFileWriter::SaveVectorOptions options;
    options.driverName = driver;
    options.layerName = name;
    QString error;
    std::unique_ptr<QgsVectorFileWriter> writer(QgsVectorFileWriter::create(
        path, fields, VbasCompat::WkbNoGeometry, QgsCoordinateReferenceSystem(),
        QgsCoordinateTransformContext(), options, QgsFeatureSink::SinkFlags(), nullptr, nullptr));
    EXPECT_EQ(writer->hasError(), QgsVectorFileWriter::NoError) << writer->errorMessage().toStdString();
    return path + QStringLiteral("|layername=") + name;
}

QList<QgsAttributes> typedRows()
{
    QList<QgsAttributes> rows;
    for (int i = 0; i < 500; ++i)
        rows << QgsAttributes(QVector<QVariant>{i,
                                                i % 7 == 0 ? VbasCompat::nullOf(VbasCompat::FieldTypeLongLong)
                                                           : QVariant(qlonglong(5000000000LL + i)),
                                                i % 5 == 0 ? VbasCompat::nullOf(VbasCompat::FieldTypeDouble)
                                                           : QVariant(0.125 * i),
                                                i % 3 == 0 ? VbasCompat::nullOf(VbasCompat::FieldTypeString)
                                                           : QVariant(QStringLiteral("ação %1").arg(i)),
                                                i % 4 == 0 ? VbasCompat::nullOf(VbasCompat::FieldTypeDate)
                                                           : QVariant(QDate(2004, 1 + i % 12, 1 + i % 28)),
                                                QVariant(QDateTime(QDate(2005, 2, 3), QTime(4, 5, 6)))});
    return rows;
}

/** Text, numbers and a flag, no dates: the fields SQLite takes straight. */
QgsFields plainFields()
{
    const QgsFields typed = typedFields();
    QgsFields fields;
    for (int f = 0; f < 4; ++f) // id, big, score, label
        fields.append(typed.at(f));
    fields.append(QgsField(QStringLiteral("flag"), VbasCompat::FieldTypeBool));
    return fields;
}

/** What QGIS writes into a CSV as text: text, whole numbers and flags (id, big, label, flag). */
QgsFields textAndWholeNumbers()
{
    QgsFields fields = plainFields();
    fields.remove(fields.indexOf(QStringLiteral("score")));
    return fields;
}

QList<QgsAttributes> plainRows()
{
    QList<QgsAttributes> rows;
    for (const QgsAttributes& typed : typedRows())
    {
        QgsAttributes row = typed.mid(0, 4);
        row << (typed.at(0).toInt() % 6 == 0 ? VbasCompat::nullOf(VbasCompat::FieldTypeBool)
                                             : QVariant(typed.at(0).toInt() % 2 == 0));
        rows << row;
    }
    return rows;
}

/**
 * `rows` as a release hands them over: a code per value, each distinct value once per column, written in
 * `order` (else as given).
 */
VbasCodedRows coded(const QList<QgsAttributes>& rows, std::vector<std::uint32_t> order = {})
{
    VbasCodedRows coded;
    coded.values.resize(rows.isEmpty() ? 0 : std::size_t(rows.first().size()));
    for (const QgsAttributes& row : rows)
        for (int c = 0; c < row.size(); ++c)
        {
            // NULL apart: Qt compares a NULL flag equal to false.
            QVector<QVariant>& values = coded.values[std::size_t(c)];
            const auto found =
                std::find_if(values.begin(), values.end(),
                             [&](const QVariant& value)
                             { return value.isNull() == row.at(c).isNull() && value == row.at(c); });
            coded.codes.push_back(std::uint32_t(found - values.begin()));
            if (found == values.end())
                values.append(row.at(c));
        }
    coded.order = std::move(order);
    if (coded.order.empty())
        for (int i = 0; i < rows.size(); ++i)
            coded.order.push_back(std::uint32_t(i));
    return coded;
}

/** Adds `rows` to `table` in their order, as a release does. */
void addRows(VbasOgrTable& table, const QList<QgsAttributes>& rows)
{
    std::size_t reported = 0;
    ASSERT_TRUE(table.addRows(coded(rows), [&](std::size_t count) { reported = count; }))
        << table.lastError().toStdString();
    EXPECT_EQ(reported, std::size_t(rows.size()));
}

/** The first column of the first row `sql` selects from the GeoPackage at `path`, as text. */
QString selectOne(const QString& path, const QString& sql)
{
    GDALDatasetH dataset = GDALOpenEx(path.toUtf8().constData(), GDAL_OF_VECTOR, nullptr, nullptr, nullptr);
    EXPECT_TRUE(dataset != nullptr);
    QString value;
    if (OGRLayerH result = GDALDatasetExecuteSQL(dataset, sql.toUtf8().constData(), nullptr, nullptr))
    {
        if (OGRFeatureH feature = OGR_L_GetNextFeature(result))
        {
            value = QString::fromUtf8(OGR_F_GetFieldAsString(feature, 0));
            OGR_F_Destroy(feature);
        }
        GDALDatasetReleaseResultSet(dataset, result);
    }
    GDALClose(dataset);
    return value;
}

QList<QgsAttributes> rowsOf(const QString& destination)
{
    QgsVectorLayer layer(destination, QStringLiteral("t"), QStringLiteral("ogr"));
    EXPECT_TRUE(layer.isValid());
    QList<QgsAttributes> rows;
    QgsFeature feature;
    QgsFeatureIterator it = layer.getFeatures(QgsFeatureRequest().addOrderBy(QStringLiteral("id")));
    while (it.nextFeature(feature))
        rows << feature.attributes().mid(1); // without the GeoPackage's fid
    return rows;
}
} // namespace

TEST(OgrTable, TakesGeoPackagesAndCsvFilesOfTextAndWholeNumbers)
{
    const QgsFields typed = typedFields();
    EXPECT_TRUE(VbasOgrTable::accepts(QStringLiteral("/tmp/out.gpkg|layername=records"), typed));
    EXPECT_TRUE(VbasOgrTable::accepts(QStringLiteral("/tmp/OUT.GPKG"), typed));
    EXPECT_TRUE(VbasOgrTable::accepts(QStringLiteral("/tmp/records.csv"), textAndWholeNumbers()));
    EXPECT_FALSE(VbasOgrTable::accepts(QStringLiteral("/tmp/records.csv"), typed)) << "reals and dates";
    EXPECT_FALSE(VbasOgrTable::accepts(QStringLiteral("/tmp/records.shp"), typed));
    EXPECT_FALSE(VbasOgrTable::accepts(QStringLiteral("memory:?field=a:integer"), typed));
}

namespace
{
using Route = VbasOgrTable::Route;

/** The fields a table by `route` may have: SQLite takes text and numbers, GDAL's Arrow write no date-times.
 */
std::vector<std::pair<QgsFields, QList<QgsAttributes>>> tablesFor(Route route)
{
    std::vector<std::pair<QgsFields, QList<QgsAttributes>>> tables{{plainFields(), plainRows()}};
    if (route == Route::SqliteInserts)
        return tables;
    // Dates without times: every field type but the date-time.
    QgsFields dated = typedFields();
    dated.remove(dated.indexOf(QStringLiteral("seen")));
    QList<QgsAttributes> datedRows;
    for (const QgsAttributes& row : typedRows())
        datedRows << row.mid(0, 5);
    tables.emplace_back(dated, datedRows);
    if (route == Route::GdalFeatures)
        tables.emplace_back(typedFields(), typedRows());
    return tables;
}

/** The routes this GDAL has for GeoPackages. */
std::vector<Route> geoPackageRoutes()
{
    std::vector<Route> routes{Route::SqliteInserts, Route::GdalFeatures};
    if (VbasArrowBatches::available())
        routes.push_back(Route::GdalArrow);
    return routes;
}

/** What GeoPackage keeps about table `t` in `path` but its last change and its count. */
QString contentsOf(const QString& path)
{
    return selectOne(path,
                     "SELECT data_type || '|' || identifier || '|' || COALESCE(min_x, 'NULL') || '|' || "
                     "COALESCE(max_y, 'NULL') || '|' || COALESCE(srs_id, 'NULL') FROM gpkg_contents "
                     "WHERE table_name = 't'");
}

/** The feature count GDAL keeps for table `t` in `path`, "unknown" when it is NULL (readers then count). */
QString featureCountOf(const QString& path)
{
    return selectOne(path, "SELECT COALESCE(feature_count, 'unknown') FROM gpkg_ogr_contents WHERE "
                           "table_name = 't'");
}

/** Checks that the count GDAL keeps for `path` is `rows` or unknown: never wrong; known when SQLite wrote. */
void expectFeatureCount(const QString& path, qint64 rows, Route route)
{
    const QString count = featureCountOf(path);
    EXPECT_TRUE(count == QString::number(rows) || (route != Route::SqliteInserts && count == "unknown"))
        << count.toStdString() << " for " << rows << " rows, route " << int(route);
}

/**
 * Writes `rows` through QGIS's writer and through VbasOgrTable by `route`: both tables must read back the
 * rows given, value for value, with the same GeoPackage contents.
 */
void expectTheRowsQgisWrites(const QgsFields& fields, const QList<QgsAttributes>& rows, Route route)
{
    const std::string where =
        QStringLiteral("route %1, %2 fields").arg(int(route)).arg(fields.size()).toStdString();
    QTemporaryDir dir;
    const QString byQgis = createTable(dir.filePath("qgis.gpkg"), "t", fields);
    {
        QgsVectorLayer layer(byQgis, QStringLiteral("t"), QStringLiteral("ogr"));
        QgsFeatureList features;
        for (const QgsAttributes& row : rows)
        {
            QgsFeature feature(layer.fields()); // the GeoPackage's fid first
            QgsAttributes withFid(1);
            withFid << row;
            feature.setAttributes(withFid);
            features << feature;
        }
        ASSERT_TRUE(layer.dataProvider()->addFeatures(features));
    }
    const QString byTable = createTable(dir.filePath("table.gpkg"), "t", fields);
    {
        VbasOgrTable table(byTable, fields, QStringLiteral("OUTPUT_RECORDS"), route);
        EXPECT_EQ(table.route(), route) << where;
        addRows(table, rows);
        table.finish();
    }
    const QList<QgsAttributes> expected = rowsOf(byQgis);
    const QList<QgsAttributes> written = rowsOf(byTable);
    ASSERT_EQ(expected.size(), rows.size()) << where;
    ASSERT_EQ(written.size(), rows.size()) << where;
    for (int i = 0; i < rows.size(); ++i)
        for (int f = 0; f < fields.size(); ++f)
        {
            const std::string at = where + ", row " + std::to_string(i) + " field " + std::to_string(f);
            EXPECT_EQ(written[i][f].isNull(), expected[i][f].isNull()) << at;
            EXPECT_EQ(written[i][f], expected[i][f]) << at;
            // And they are the rows given (QGIS's side checked too, so a writer that lost both would show).
            EXPECT_EQ(written[i][f].isNull(), rows[i][f].isNull()) << at;
            if (!rows[i][f].isNull())
            {
                EXPECT_EQ(written[i][f], rows[i][f]) << at;
            }
        }
    EXPECT_EQ(written[1][3].toString(), QStringLiteral("ação 1"));
    EXPECT_EQ(written[1][1].toLongLong(), 5000000001LL);
    EXPECT_EQ(contentsOf(dir.filePath("table.gpkg")), contentsOf(dir.filePath("qgis.gpkg"))) << where;
    EXPECT_EQ(contentsOf(dir.filePath("table.gpkg")), "attributes|t|NULL|NULL|0") << where;
    expectFeatureCount(dir.filePath("table.gpkg"), rows.size(), route);
    EXPECT_EQ(selectOne(dir.filePath("table.gpkg"), "SELECT COUNT(*) FROM t WHERE fid <> id + 1"), "0")
        << where << ": the rows numbered 1..n in the order given";
}
} // namespace

TEST(OgrTable, EveryRouteWritesTheRowsQgisWritesForEveryFieldTypeItTakes)
{
    for (const Route route : geoPackageRoutes())
        for (const auto& [fields, rows] : tablesFor(route))
            expectTheRowsQgisWrites(fields, rows, route);
}

TEST(OgrTable, TheAutomaticRouteTakesSqliteForTextAndNumbersAndGdalForDates)
{
    QTemporaryDir dir;
    const auto routeOf = [&](const QString& name, const QgsFields& fields)
    {
        return VbasOgrTable(createTable(dir.filePath(name), "t", fields), fields, "OUTPUT_RECORDS").route();
    };
    EXPECT_EQ(routeOf("plain.gpkg", plainFields()), Route::SqliteInserts);
    QgsFields dated = plainFields();
    dated.append(QgsField(QStringLiteral("onset"), VbasCompat::FieldTypeDate));
    EXPECT_EQ(routeOf("dated.gpkg", dated),
              VbasArrowBatches::available() ? Route::GdalArrow : Route::GdalFeatures);
    EXPECT_EQ(routeOf("timed.gpkg", typedFields()), Route::GdalFeatures);
    const QString csv = createTable(dir.filePath("table.csv"), "table", textAndWholeNumbers(), "CSV");
    EXPECT_EQ(VbasOgrTable(csv, textAndWholeNumbers(), "OUTPUT_RECORDS").route(), Route::CsvText);
}

TEST(OgrTable, WritesTheCsvQgisWritesByteForByte)
{
    // Text that needs quoting (separators, quotes, line breaks, spaces at the ends, text that reads as a
    // number), negative and 64-bit whole numbers, flags and NULLs; with and without row numbers.
    const QStringList labels{
        QStringLiteral("plain"),      QStringLiteral("x,y"),   QStringLiteral("say \"hi\""),
        QStringLiteral("two\nlines"), QStringLiteral(" lead"), QStringLiteral("trail "),
        QStringLiteral("12"),         QStringLiteral("1e5"),   QString(""),
        QStringLiteral("ação")};
    QList<QgsAttributes> rows;
    for (int i = 0; i < 40; ++i)
        rows << QgsAttributes(QVector<QVariant>{
            i % 9 == 0 ? VbasCompat::nullOf(VbasCompat::FieldTypeInt) : QVariant(i * (i % 2 == 0 ? 1 : -1)),
            i % 7 == 0 ? VbasCompat::nullOf(VbasCompat::FieldTypeLongLong)
                       : QVariant(qlonglong(5000000000LL + i)),
            i % 11 == 0 ? VbasCompat::nullOf(VbasCompat::FieldTypeString)
                        : QVariant(labels.at(i % labels.size())),
            i % 5 == 0 ? VbasCompat::nullOf(VbasCompat::FieldTypeBool) : QVariant(i % 3 == 0)});
    for (const bool numbered : {false, true})
    {
        QgsFields fields;
        if (numbered)
            fields.append(QgsField(QStringLiteral("row_id"), VbasCompat::FieldTypeInt));
        for (const QgsField& field : textAndWholeNumbers())
            fields.append(field);
        // The rows as a release hands them over: in a shuffled order.
        std::vector<std::uint32_t> order;
        for (int i = 0; i < rows.size(); ++i)
            order.push_back(std::uint32_t((i * 17) % rows.size()));
        VbasCodedRows shuffled = coded(rows, order);
        shuffled.numbered = numbered;

        QTemporaryDir dir;
        const QString byQgis = dir.filePath("qgis.csv");
        {
            QgsVectorFileWriter::SaveVectorOptions options;
            options.driverName = QStringLiteral("CSV");
            std::unique_ptr<QgsVectorFileWriter> writer(QgsVectorFileWriter::create(
                byQgis, fields, VbasCompat::WkbNoGeometry, QgsCoordinateReferenceSystem(),
                QgsCoordinateTransformContext(), options, QgsFeatureSink::SinkFlags(), nullptr, nullptr));
            for (std::size_t i = 0; i < order.size(); ++i)
            {
                QgsAttributes attributes;
                if (numbered)
                    attributes << int(i + 1);
                attributes << rows.at(int(order[i]));
                QgsFeature feature(fields);
                feature.setAttributes(attributes);
                ASSERT_TRUE(writer->addFeature(feature));
            }
        }
        const QString destination =
            createTable(dir.filePath("table.csv"), "table", fields, QStringLiteral("CSV"));
        {
            VbasOgrTable table(destination, fields, QStringLiteral("OUTPUT_RECORDS"));
            std::size_t reported = 0;
            ASSERT_TRUE(table.addRows(shuffled, [&](std::size_t count) { reported = count; }));
            EXPECT_EQ(reported, order.size());
            EXPECT_EQ(table.route(), Route::CsvText);
            table.finish();
        }
        const auto bytes = [](const QString& path)
        {
            QFile file(path);
            EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
            return file.readAll();
        };
        const QByteArray expected = bytes(byQgis);
        EXPECT_EQ(bytes(dir.filePath("table.csv")).toStdString(), expected.toStdString())
            << (numbered ? "numbered" : "");
        // And the file holds the rows (QGIS's side checked too, so a writer that lost both would show).
        EXPECT_TRUE(expected.contains("\"say \"\"hi\"\"\"")) << expected.toStdString();
        EXPECT_TRUE(expected.contains("5000000001")) << expected.toStdString(); // quoted by GDAL 3.6 only
    }
}

TEST(OgrTable, KeepsTheFeatureCountAndTheTriggerGdalKeeps)
{
    for (const Route route : geoPackageRoutes())
    {
        QTemporaryDir dir;
        const QgsFields fields = plainFields();
        const QString destination = createTable(dir.filePath("t.gpkg"), "t", fields);
        const QString path = dir.filePath("t.gpkg");
        const QString trigger = QStringLiteral(
            "SELECT COUNT(*) FROM sqlite_master WHERE name = 'trigger_insert_feature_count_t'");
        ASSERT_EQ(selectOne(path, trigger), "1")
            << "GDAL counts rows with a trigger once QGIS closed the table";
        const QList<QgsAttributes> rows = plainRows();
        {
            VbasOgrTable table(destination, fields, QStringLiteral("OUTPUT_RECORDS"), route);
            addRows(table, rows);
            table.finish();
        }
        const std::string where = "route " + std::to_string(int(route));
        expectFeatureCount(path, rows.size(), route);
        EXPECT_EQ(selectOne(path, trigger), "1") << where;
        EXPECT_EQ(selectOne(path, "SELECT MIN(fid) || '-' || MAX(fid) FROM t"),
                  QStringLiteral("1-%1").arg(rows.size()))
            << where;
        // The trigger counts again: one more row through QGIS.
        QgsVectorLayer layer(destination, QStringLiteral("t"), QStringLiteral("ogr"));
        EXPECT_EQ(layer.featureCount(), rows.size()) << where;
        QgsFeature extra(layer.fields());
        extra.setAttributes(QgsAttributes() << QVariant() << 9999 << QVariant() << 1.5 << "extra" << true);
        ASSERT_TRUE(layer.dataProvider()->addFeature(extra));
        expectFeatureCount(path, rows.size() + 1, route);
    }
}

TEST(OgrTable, AnUnfinishedTableKeepsNoRow)
{
    for (const Route route : geoPackageRoutes())
        for (const auto& [fields, rows] : tablesFor(route))
        {
            QTemporaryDir dir;
            const QString destination = createTable(dir.filePath("t.gpkg"), "t", fields);
            {
                VbasOgrTable table(destination, fields, QStringLiteral("OUTPUT_RECORDS"), route);
                addRows(table, rows);
                // a cancel or an error: no finish()
            }
            EXPECT_TRUE(rowsOf(destination).isEmpty()) << "route " << int(route);
            EXPECT_EQ(
                selectOne(dir.filePath("t.gpkg"),
                          "SELECT COUNT(*) FROM sqlite_master WHERE name = 'trigger_insert_feature_count_t'"),
                "1");
        }
}

TEST(OgrTable, AReleaseWritesTheRecordsQgisWould)
{
    // One release (the engine is deterministic), its records once into a GeoPackage (through GDAL) and once
    // into a memory layer (through QGIS): the same rows, in their random orders, numbered 1..n.
    const OlindaInput olinda;
    QTemporaryDir dir;
    QVariantMap parameters = olinda.parameters({"age", "sex", "married"});
    parameters.insert("SENSITIVE_FIELDS", QStringList{"education"});
    parameters.insert("L", 2);
    parameters.insert("GENERALIZATION", "age: interval 5 10 max 10");
    parameters.insert("KEEP_SUPPRESSED", true);
    parameters.insert("ADD_ROW_ID", true);
    parameters.insert("OUTPUT_RECORDS", QgsProcessing::TEMPORARY_OUTPUT);
    const AlgorithmRun viaQgis = runAlgorithm("vbas:aggregateregions", parameters);
    parameters.insert("OUTPUT_RECORDS",
                      QStringLiteral("ogr:dbname='%1' table=\"records\"").arg(dir.filePath("release.gpkg")));
    const AlgorithmRun viaGdal = runAlgorithm("vbas:aggregateregions", parameters);
    ASSERT_TRUE(viaQgis.ok) << viaQgis.errors.toStdString();
    ASSERT_TRUE(viaGdal.ok) << viaGdal.errors.toStdString();

    const auto sortedRows = [](QgsVectorLayer& layer)
    {
        QStringList rows;
        QList<qlonglong> rowIds;
        QgsFeature feature;
        QgsFeatureIterator it = layer.getFeatures();
        while (it.nextFeature(feature))
        {
            rowIds << feature.attribute(QStringLiteral("row_id")).toLongLong();
            QStringList values;
            for (const QgsField& field : layer.fields())
                if (field.name() != QLatin1String("fid") && field.name() != QLatin1String("row_id"))
                    values << field.name() + "=" +
                                  (feature.attribute(field.name()).isNull()
                                       ? QStringLiteral("NULL")
                                       : feature.attribute(field.name()).toString());
            rows << values.join(',');
        }
        rows.sort();
        std::sort(rowIds.begin(), rowIds.end());
        for (int i = 0; i < rowIds.size(); ++i)
            EXPECT_EQ(rowIds.at(i), i + 1) << layer.source().toStdString();
        return rows;
    };
    QgsVectorLayer* expected = outputLayer(viaQgis, "OUTPUT_RECORDS");
    QgsVectorLayer* written = outputLayer(viaGdal, "OUTPUT_RECORDS");
    ASSERT_TRUE(expected && written);
    const QStringList expectedRows = sortedRows(*expected);
    EXPECT_EQ(expectedRows.size(), kOlindaPatients); // released and withheld (flagged) alike
    EXPECT_EQ(sortedRows(*written), expectedRows);
    EXPECT_TRUE(expectedRows.join(QChar(10)).contains("vbas_fate=suppressed"))
        << expectedRows.first().toStdString();
}

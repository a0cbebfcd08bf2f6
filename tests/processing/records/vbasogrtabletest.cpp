// VbasOgrTable fills a GeoPackage table QGIS created with exactly the rows QGIS would have written (every
// field type a release writes, NULLs), all or none; and a release's records written through it are the
// rows the QGIS path writes.

#include "vbasogrtable.h"
#include "processingtestutils.h"
#include "realdata.h"
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

/** Adds `rows` to `table` one feature at a time, as a sink's caller does. */
void addRows(VbasOgrTable& table, const QgsFields& fields, const QList<QgsAttributes>& rows)
{
    for (const QgsAttributes& row : rows)
    {
        QgsFeature feature(fields);
        feature.setAttributes(row);
        ASSERT_TRUE(table.addFeature(feature));
    }
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
/** Writes `rows` through QGIS's writer and through VbasOgrTable; both tables must read back the same. */
void expectTheRowsQgisWrites(const QgsFields& fields, const QList<QgsAttributes>& rows)
{
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
        VbasOgrTable table(byTable, fields, QStringLiteral("OUTPUT_RECORDS"));
        addRows(table, fields, rows);
        table.finish();
    }
    const QList<QgsAttributes> expected = rowsOf(byQgis);
    const QList<QgsAttributes> written = rowsOf(byTable);
    ASSERT_EQ(expected.size(), rows.size());
    ASSERT_EQ(written.size(), rows.size());
    for (int i = 0; i < rows.size(); ++i)
        for (int f = 0; f < fields.size(); ++f)
        {
            EXPECT_EQ(written[i][f].isNull(), expected[i][f].isNull()) << "row " << i << " field " << f;
            EXPECT_EQ(written[i][f], expected[i][f]) << "row " << i << " field " << f;
        }
    // And they are the rows given (QGIS's side checked too, so a writer that lost both would show).
    EXPECT_EQ(written[1][3].toString(), QStringLiteral("ação 1"));
    EXPECT_TRUE(written[0][1].isNull());
    EXPECT_EQ(written[1][1].toLongLong(), 5000000001LL);
    EXPECT_EQ(written[2][2].toDouble(), 0.25);
}
} // namespace

TEST(OgrTable, WritesTheRowsQgisWritesForEveryFieldType)
{
    // With dates and times the rows go through GDAL's features; text and numbers straight into SQLite.
    expectTheRowsQgisWrites(typedFields(), typedRows());
    expectTheRowsQgisWrites(plainFields(), plainRows());
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
        // The rows as a release hands them over: a code per value, in a shuffled order.
        VbasCodedRows coded;
        coded.numbered = numbered;
        coded.values.resize(4);
        for (const QgsAttributes& row : rows)
            for (int c = 0; c < 4; ++c)
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
        for (int i = 0; i < rows.size(); ++i)
            coded.order.push_back(std::uint32_t((i * 17) % rows.size()));

        QTemporaryDir dir;
        const QString byQgis = dir.filePath("qgis.csv");
        {
            QgsVectorFileWriter::SaveVectorOptions options;
            options.driverName = QStringLiteral("CSV");
            std::unique_ptr<QgsVectorFileWriter> writer(QgsVectorFileWriter::create(
                byQgis, fields, VbasCompat::WkbNoGeometry, QgsCoordinateReferenceSystem(),
                QgsCoordinateTransformContext(), options, QgsFeatureSink::SinkFlags(), nullptr, nullptr));
            for (std::size_t i = 0; i < coded.order.size(); ++i)
            {
                QgsAttributes attributes;
                if (numbered)
                    attributes << int(i + 1);
                attributes << rows.at(int(coded.order[i]));
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
            ASSERT_TRUE(table.addRows(coded, [&](std::size_t count) { reported = count; }));
            EXPECT_EQ(reported, coded.order.size());
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
    QTemporaryDir dir;
    const QgsFields fields = plainFields();
    const QString destination = createTable(dir.filePath("t.gpkg"), "t", fields);
    const QString path = dir.filePath("t.gpkg");
    const QString trigger =
        QStringLiteral("SELECT COUNT(*) FROM sqlite_master WHERE name = 'trigger_insert_feature_count_t'");
    ASSERT_EQ(selectOne(path, trigger), "1") << "GDAL counts rows with a trigger once QGIS closed the table";
    const QList<QgsAttributes> rows = plainRows();
    {
        VbasOgrTable table(destination, fields, QStringLiteral("OUTPUT_RECORDS"));
        addRows(table, fields, rows);
        table.finish();
    }
    EXPECT_EQ(selectOne(path, "SELECT feature_count FROM gpkg_ogr_contents WHERE table_name = 't'"),
              QString::number(rows.size()));
    EXPECT_EQ(selectOne(path, trigger), "1");
    EXPECT_EQ(selectOne(path, "SELECT MIN(fid) || '-' || MAX(fid) FROM t"),
              QStringLiteral("1-%1").arg(rows.size()));
    // The trigger counts again: one more row through QGIS.
    QgsVectorLayer layer(destination, QStringLiteral("t"), QStringLiteral("ogr"));
    EXPECT_EQ(layer.featureCount(), rows.size());
    QgsFeature extra(layer.fields());
    extra.setAttributes(QgsAttributes() << QVariant() << 9999 << QVariant() << 1.5 << "extra" << true);
    ASSERT_TRUE(layer.dataProvider()->addFeature(extra));
    EXPECT_EQ(selectOne(path, "SELECT feature_count FROM gpkg_ogr_contents WHERE table_name = 't'"),
              QString::number(rows.size() + 1));
}

TEST(OgrTable, AnUnfinishedTableKeepsNoRow)
{
    for (const auto& [fields, rows] :
         {std::pair{typedFields(), typedRows()}, std::pair{plainFields(), plainRows()}})
    {
        QTemporaryDir dir;
        const QString destination = createTable(dir.filePath("t.gpkg"), "t", fields);
        {
            VbasOgrTable table(destination, fields, QStringLiteral("OUTPUT_RECORDS"));
            addRows(table, fields, rows);
            // a cancel or an error: no finish()
        }
        EXPECT_TRUE(rowsOf(destination).isEmpty());
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

// RECORDS read through GDAL's Arrow stream (VbasArrowRecords) give the very dataset QGIS's own iteration
// gives: the same rows, feature ids, region keys, classes, counts, sensitive codes and category values, on
// the demo's CSV and on a GeoPackage and a Shapefile of typed fields with NULLs and a subset string.

#include "vbasarrowrecords.h"
#include "processingtestutils.h"
#include "realdata.h"
#include "vbasconvert.h"

#include <qgscoordinatetransformcontext.h>

#include <QTemporaryDir>

#include <gdal.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>

#include <gtest/gtest.h>

#include <cstring>

namespace
{
/** Keeps the engine's info lines. */
struct Lines : vbas::Feedback
{
    QStringList lines;
    void info(const std::string& message) override { lines << QString::fromStdString(message); }
};

/** The job data of `records` over the Olinda tracts, through the Arrow stream or through QGIS. */
VbasJobData load(const OlindaInput& olinda, QgsVectorLayer& records, const VbasRecordFields& fields,
                 bool columnar, QStringList& log)
{
    const VbasPlanarFrame frame(*olinda.tracts, QgsCoordinateTransformContext());
    Lines lines;
    VbasJobData data =
        loadJobData(*olinda.tracts, olinda.tracts->fields().lookupField("CD_GEOCODI"), frame,
                    vbas::RepresentativePoint::Centroid, records, columnar ? &records : nullptr, fields,
                    vbas::DatasetOptions{vbas::UnknownRegionPolicy::Drop}, lines);
    log = lines.lines;
    return data;
}

void expectSameData(const VbasJobData& columnar, const VbasJobData& iterated)
{
    ASSERT_EQ(columnar.recordFeatures, iterated.recordFeatures);
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
    ASSERT_EQ(columnar.quasiIdentifierValues.size(), iterated.quasiIdentifierValues.size());
    for (std::size_t j = 0; j < columnar.quasiIdentifierValues.size(); ++j)
    {
        const auto& x = columnar.quasiIdentifierValues[j];
        const auto& y = iterated.quasiIdentifierValues[j];
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

VbasRecordFields roles(const QgsFields& fields, const QString& region, const QStringList& quasiIdentifiers,
                       const QStringList& sensitive, const QString& count = QString())
{
    VbasRecordFields roles;
    roles.region = fields.lookupField(region);
    for (const QString& name : quasiIdentifiers)
        roles.quasiIdentifiers << fields.lookupField(name);
    for (const QString& name : sensitive)
        roles.sensitive << fields.lookupField(name);
    roles.count = count.isEmpty() ? -1 : fields.lookupField(count);
    return roles;
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
    GDALClose(dataset);
    return path;
}
} // namespace

TEST(ArrowRecords, TheDemoCsvGivesTheDatasetQgisGives)
{
    const OlindaInput olinda;
    const VbasRecordFields fields =
        roles(olinda.patients->fields(), "tract", {"age", "sex", "married"}, {"education"});
    QStringList columnarLog, iteratedLog;
    const VbasJobData columnar = load(olinda, *olinda.patients, fields, true, columnarLog);
    const VbasJobData iterated = load(olinda, *olinda.patients, fields, false, iteratedLog);
    EXPECT_TRUE(columnarLog.contains("RECORDS: read through GDAL's Arrow stream"))
        << columnarLog.join('\n').toStdString();
    EXPECT_TRUE(iteratedLog.contains("RECORDS: read through QGIS's feature iterator"));
    EXPECT_EQ(columnar.recordFeatures.size(), std::size_t(kOlindaPatients));
    expectSameData(columnar, iterated);
}

TEST(ArrowRecords, TypedFieldsNullsAndASubsetGiveTheDatasetQgisGives)
{
    const OlindaInput olinda;
    QStringList tracts;
    QgsFeature tract;
    QgsFeatureIterator it = olinda.tracts->getFeatures();
    while (it.nextFeature(tract) && tracts.size() < 40)
        tracts << tract.attribute("CD_GEOCODI").toString();
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
                    roles(layer.fields(), "tract", quasiIdentifiers, {"sex"}, QStringLiteral("n"));
                QStringList columnarLog, iteratedLog;
                const VbasJobData columnar = load(olinda, layer, fields, true, columnarLog);
                const VbasJobData iterated = load(olinda, layer, fields, false, iteratedLog);
                EXPECT_EQ(columnarLog.contains("RECORDS: read through GDAL's Arrow stream"),
                          !withDate || datesStream)
                    << columnarLog.join('\n').toStdString();
                EXPECT_FALSE(columnar.recordFeatures.empty());
                expectSameData(columnar, iterated);
            }
    }
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

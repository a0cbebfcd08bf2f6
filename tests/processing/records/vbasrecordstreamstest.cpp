// The two factories of the record streams: a sink QGIS created for a GeoPackage is filled straight, any
// other through QGIS's own sink, and both hold the rows given, in the order given; records of a layer no
// fast reader takes are read through QGIS's features, the rows and ids QGIS gives.

#include "vbasrecordstreams.h"
#include "vbasfeaturerecords.h"
#include "vbasogrtable.h"
#include "vbasqgiscompat.h"

#include "base/Feedback.h"

#include <qgsfeaturesink.h>
#include <qgsprocessingcontext.h>
#include <qgsprocessingutils.h>
#include <qgsvectorlayer.h>

#include <QTemporaryDir>

#include <gtest/gtest.h>

namespace
{
QgsFields recordFields()
{
    QgsFields fields;
    fields.append(QgsField(QStringLiteral("row_id"), VbasCompat::FieldTypeInt));
    fields.append(QgsField(QStringLiteral("aggregate_id"), VbasCompat::FieldTypeInt));
    fields.append(QgsField(QStringLiteral("sex"), VbasCompat::FieldTypeString));
    return fields;
}

/** Six rows over two coded columns (aggregate, sex), written shuffled and numbered. */
VbasCodedRows shuffledRows()
{
    VbasCodedRows rows;
    rows.numbered = true;
    rows.values = {
        {1, 2, VbasCompat::nullOf(VbasCompat::FieldTypeInt)},
        {QStringLiteral("F"), QStringLiteral("M"), VbasCompat::nullOf(VbasCompat::FieldTypeString)}};
    rows.codes = {0, 0, 0, 1, 1, 0, 1, 1, 2, 2, 2, 0};
    rows.order = {3, 1, 5, 0, 4, 2};
    return rows;
}

/** What `layer` holds, row by row in row_id order: "row_id aggregate_id sex" with NULL for NULL. */
QStringList rowsOf(QgsVectorLayer& layer)
{
    QStringList rows;
    QgsFeature feature;
    QgsFeatureIterator it = layer.getFeatures(QgsFeatureRequest().addOrderBy(QStringLiteral("row_id")));
    while (it.nextFeature(feature))
    {
        QStringList values;
        for (const char* name : {"row_id", "aggregate_id", "sex"})
            values << (feature.attribute(name).isNull() ? QStringLiteral("NULL")
                                                        : feature.attribute(name).toString());
        rows << values.join(' ');
    }
    return rows;
}

/** The rows of shuffledRows() as written: numbered 1..6 in the order given. */
const QStringList kWritten{"1 2 M", "2 1 M", "3 NULL F", "4 1 F", "5 NULL NULL", "6 2 F"};
} // namespace

TEST(RecordStreams, ASinkFillsAGeoPackageStraightAndAnyOtherThroughQgis)
{
    QTemporaryDir dir;
    for (const QString& asked : {dir.filePath("out.gpkg"), QStringLiteral("memory:")})
    {
        QgsProcessingContext context;
        QString destination = asked;
        std::unique_ptr<QgsFeatureSink> created(QgsProcessingUtils::createFeatureSink(
            destination, context, recordFields(), VbasCompat::WkbNoGeometry, QgsCoordinateReferenceSystem()));
        ASSERT_TRUE(created);
        std::unique_ptr<VbasRecordSink> sink =
            VbasRecordSink::open(std::move(created), destination, recordFields(), QStringLiteral("OUTPUT"));
        const bool geoPackage = asked.endsWith(QLatin1String(".gpkg"));
        EXPECT_EQ(dynamic_cast<VbasOgrTable*>(sink.get()) != nullptr, geoPackage) << asked.toStdString();
        EXPECT_EQ(dynamic_cast<VbasFeatureRecordSink*>(sink.get()) != nullptr, !geoPackage);
        std::size_t reported = 0;
        ASSERT_TRUE(sink->addRows(shuffledRows(), [&](std::size_t count) { reported = count; }))
            << sink->lastError().toStdString();
        EXPECT_EQ(reported, 6u);
        sink->finish();

        std::unique_ptr<QgsVectorLayer> file;
        QgsVectorLayer* layer = nullptr;
        if (geoPackage)
        {
            file = std::make_unique<QgsVectorLayer>(destination, QStringLiteral("t"), QStringLiteral("ogr"));
            layer = file.get();
        }
        else
            layer =
                qobject_cast<QgsVectorLayer*>(QgsProcessingUtils::mapLayerFromString(destination, context));
        ASSERT_TRUE(layer && layer->isValid()) << destination.toStdString();
        EXPECT_EQ(rowsOf(*layer), kWritten) << asked.toStdString();
    }
}

TEST(RecordStreams, ASourceNoFastReaderTakesIsReadThroughQgis)
{
    QgsVectorLayer memory(QStringLiteral("None?field=tract:string&field=age:integer"), QStringLiteral("r"),
                          QStringLiteral("memory"));
    QgsFeatureList features;
    for (int i = 0; i < 5; ++i)
    {
        QgsFeature feature(memory.fields());
        feature.setAttributes(QgsAttributes(
            QVector<QVariant>{QStringLiteral("t%1").arg(i % 2),
                              i == 3 ? VbasCompat::nullOf(VbasCompat::FieldTypeInt) : QVariant(20 + i)}));
        features << feature;
    }
    ASSERT_TRUE(memory.dataProvider()->addFeatures(features));
    vbas::Feedback feedback;
    for (const VbasGrouping grouping : {VbasGrouping::Rows, VbasGrouping::Automatic})
    {
        QString notGrouped;
        const std::unique_ptr<VbasRecordSource> source =
            VbasRecordSource::open(*memory.dataProvider(), &memory, {1, 0}, feedback, grouping, notGrouped);
        ASSERT_TRUE(dynamic_cast<VbasFeatureRecords*>(source.get()));
        EXPECT_TRUE(notGrouped.isEmpty()) << notGrouped.toStdString();
        EXPECT_FALSE(source->grouped());
        EXPECT_EQ(source->expectedRows(), 5);
        QgsFeatureId id = 0;
        QVector<QVariant> values;
        QStringList read;
        while (source->next(id, values))
        {
            EXPECT_EQ(source->groupSize(), 1);
            read << QStringLiteral("%1 %2 %3")
                        .arg(id)
                        .arg(values.at(0).isNull() ? QStringLiteral("NULL") : values.at(0).toString(),
                             values.at(1).toString());
        }
        EXPECT_EQ(read, QStringList({"1 20 t0", "2 21 t1", "3 22 t0", "4 NULL t1", "5 24 t0"}));
    }
}

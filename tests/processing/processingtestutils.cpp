#include "processingtestutils.h"

#include "vbasqgiscompat.h"

#include <qgsapplication.h>
#include <qgsmemoryproviderutils.h>
#include <qgsprocessingalgorithm.h>
#include <qgsprocessingcontext.h>
#include <qgsprocessingfeedback.h>
#include <qgsprocessingoutputs.h>
#include <qgsprocessingregistry.h>
#include <qgsprocessingutils.h>
#include <qgsproject.h>

#include <QDir>
#include <QFile>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

namespace
{
/** Keeps the errors apart from the rest of the log. */
class RecordingFeedback : public QgsProcessingFeedback
{
public:
    explicit RecordingFeedback(const std::function<void(const QString&)>& onInfo)
        : mOnInfo(onInfo)
    {
    }
    void reportError(const QString& error, bool fatalError) override
    {
        mErrors += error;
        QgsProcessingFeedback::reportError(error, fatalError);
    }
    void pushInfo(const QString& info) override
    {
        if (mOnInfo)
            mOnInfo(info);
        QgsProcessingFeedback::pushInfo(info);
    }
    QString errors() const { return mErrors; }

private:
    std::function<void(const QString&)> mOnInfo;
    QString mErrors;
};
} // namespace

QVariant nullText()
{
    return VbasCompat::nullOf(VbasCompat::FieldTypeString);
}

std::unique_ptr<QgsVectorLayer> makeTable(const QStringList& fields, const QList<QVariantList>& rows)
{
    // Built from QgsFields, not a memory provider URI, so that names may hold '&', '=' or any other text.
    static const QMap<QString, VbasCompat::FieldType> types{{"string", VbasCompat::FieldTypeString},
                                                            {"integer", VbasCompat::FieldTypeInt},
                                                            {"double", VbasCompat::FieldTypeDouble}};
    QgsFields layerFields;
    for (const QString& field : fields)
    {
        const QString type = field.section(':', -1);
        EXPECT_TRUE(types.contains(type)) << field.toStdString();
        layerFields.append(QgsField(field.section(':', 0, -2), types.value(type)));
    }
    std::unique_ptr<QgsVectorLayer> layer(
        QgsMemoryProviderUtils::createMemoryLayer(QStringLiteral("records"), layerFields));
    EXPECT_TRUE(layer->isValid());
    QgsFeatureList features;
    for (const QVariantList& row : rows)
    {
        QgsFeature feature(layer->fields());
        feature.setAttributes(QgsAttributes(row.toVector()));
        features.append(feature);
    }
    EXPECT_TRUE(layer->dataProvider()->addFeatures(features));
    return layer;
}

std::unique_ptr<QgsVectorLayer> makeSquares(const QList<QVariant>& ids)
{
    return makeGrid(int(ids.size()), ids);
}

std::unique_ptr<QgsVectorLayer> makeGrid(int columns, const QList<QVariant>& ids)
{
    auto layer = std::make_unique<QgsVectorLayer>(QStringLiteral("Polygon?crs=EPSG:32633&field=id:string"),
                                                  QStringLiteral("squares"), QStringLiteral("memory"));
    QgsFeatureList features;
    for (int i = 0; i < ids.size(); ++i)
    {
        QgsFeature feature(layer->fields());
        feature.setAttributes(QgsAttributes() << ids.at(i));
        const int column = columns > 0 ? i % columns : 0;
        const int row = columns > 0 ? i / columns : 0;
        feature.setGeometry(QgsGeometry::fromRect(QgsRectangle(column, row, column + 1, row + 1)));
        features.append(feature);
    }
    EXPECT_TRUE(layer->dataProvider()->addFeatures(features));
    return layer;
}

std::unique_ptr<QgsVectorLayer> makePoints(const QList<QgsPointXY>& points)
{
    auto layer = std::make_unique<QgsVectorLayer>(QStringLiteral("Point?crs=EPSG:32633&field=site:integer"),
                                                  QStringLiteral("points"), QStringLiteral("memory"));
    QgsFeatureList features;
    for (int i = 0; i < points.size(); ++i)
    {
        QgsFeature feature(layer->fields());
        feature.setAttributes(QgsAttributes() << i + 1);
        feature.setGeometry(QgsGeometry::fromPointXY(points.at(i)));
        features.append(feature);
    }
    EXPECT_TRUE(layer->dataProvider()->addFeatures(features));
    return layer;
}

QList<QVariantList> repeated(const QVariantList& row, int times)
{
    QList<QVariantList> rows;
    for (int i = 0; i < times; ++i)
        rows.append(row);
    return rows;
}

AlgorithmRun runAlgorithm(const QString& id, const QVariantMap& parameters, bool canceled,
                          double cancelAtPercent, const std::function<void(const QString&)>& onInfo)
{
    const std::unique_ptr<QgsProcessingAlgorithm> algorithm(
        QgsApplication::processingRegistry()->createAlgorithmById(id));
    EXPECT_TRUE(algorithm) << id.toStdString();
    if (!algorithm)
        return {};
    return runAlgorithm(*algorithm, parameters, canceled, cancelAtPercent, onInfo);
}

AlgorithmRun runAlgorithm(QgsProcessingAlgorithm& algorithm, const QVariantMap& parameters, bool canceled,
                          double cancelAtPercent, const std::function<void(const QString&)>& onInfo)
{
    QgsProcessingContext context;
    context.setProject(QgsProject::instance());
    RecordingFeedback feedback(onInfo);
    if (canceled)
        feedback.cancel();
    if (cancelAtPercent >= 0.0)
        QObject::connect(&feedback, &QgsFeedback::progressChanged,
                         [&feedback, cancelAtPercent](double percent)
                         {
                             if (percent >= cancelAtPercent)
                                 feedback.cancel();
                         });
    AlgorithmRun run;
    QObject::connect(&feedback, &QgsFeedback::progressChanged,
                     [&run](double percent) { run.progress.push_back(percent); });
    // A release from a script needs a ledger or NO_LEDGER; tests of other things keep none.
    QVariantMap given = parameters;
    if (algorithm.parameterDefinition(QStringLiteral("NO_LEDGER")) &&
        !given.contains(QStringLiteral("RELEASE_LEDGER")) && !given.contains(QStringLiteral("NO_LEDGER")))
        given.insert(QStringLiteral("NO_LEDGER"), true);
    run.results = algorithm.run(given, context, &feedback, &run.ok);
    run.errors = feedback.errors();
    run.log = feedback.textLog();
    for (auto it = run.results.constBegin(); it != run.results.constEnd(); ++it)
    {
        // Only layer outputs: the report is a file QGIS opens in its results viewer, not as a layer.
        const QgsProcessingOutputDefinition* definition = algorithm.outputDefinition(it.key());
        if (it.value().userType() != QMetaType::QString || !definition ||
            !(definition->type() == QgsProcessingOutputVectorLayer::typeName() ||
              definition->type() == QgsProcessingOutputMapLayer::typeName()))
            continue;
        auto* layer = qobject_cast<QgsVectorLayer*>(
            QgsProcessingUtils::mapLayerFromString(it.value().toString(), context));
        if (!layer || !context.temporaryLayerStore()->takeMapLayer(layer))
            continue;
        run.layers[it.key()] = std::shared_ptr<QgsVectorLayer>(layer);
    }
    if (run.results.contains(QStringLiteral("OUTPUT")))
    {
        const auto output = run.layers.find(QStringLiteral("OUTPUT"));
        EXPECT_TRUE(output != run.layers.end());
        if (output != run.layers.end())
        {
            run.outputFields = output->second->fields().names();
            QgsFeature feature;
            QgsFeatureIterator features = output->second->getFeatures();
            while (features.nextFeature(feature))
                run.outputRows.append(feature.attributes());
        }
    }
    return run;
}

qint64 number(const AlgorithmRun& run, const char* name)
{
    EXPECT_TRUE(run.results.contains(name)) << name;
    return run.results.value(name).toLongLong();
}

QgsVectorLayer* outputLayer(const AlgorithmRun& run, const QString& name)
{
    const auto found = run.layers.find(name);
    EXPECT_TRUE(found != run.layers.end()) << name.toStdString();
    return found == run.layers.end() ? nullptr : found->second.get();
}

testing::AssertionResult sameButAntialiasing(const QImage& first, const QImage& second)
{
    if (first.size() != second.size())
        return testing::AssertionFailure() << "the maps differ in size";
    const QImage a = first.convertToFormat(QImage::Format_RGB32);
    const QImage b = second.convertToFormat(QImage::Format_RGB32);
    qint64 differing = 0;
    int largest = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
        {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            const int difference = std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                                             std::abs(qBlue(p) - qBlue(q))});
            differing += difference > 0 ? 1 : 0;
            largest = std::max(largest, difference);
        }
    const qint64 allowed = qint64(a.width()) * a.height() / 1000;
    if (largest <= 32 && differing <= allowed)
        return testing::AssertionSuccess()
               << differing << " pixels differ, by at most " << largest << " levels";
    return testing::AssertionFailure() << differing << " pixels differ (anti-aliasing: at most " << allowed
                                       << "), by up to " << largest << " levels (anti-aliasing: at most 32)";
}

QMap<QString, QByteArray> filesIn(const QString& folder)
{
    QMap<QString, QByteArray> files;
    for (const QString& name : QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System))
    {
        QFile file(QDir(folder).filePath(name));
        files.insert(name, file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray());
    }
    return files;
}

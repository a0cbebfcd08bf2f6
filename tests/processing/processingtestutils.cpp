#include "processingtestutils.h"

#include <qgsapplication.h>
#include <qgsprocessingalgorithm.h>
#include <qgsprocessingcontext.h>
#include <qgsprocessingfeedback.h>
#include <qgsprocessingregistry.h>
#include <qgsprocessingutils.h>
#include <qgsproject.h>

#include <gtest/gtest.h>

namespace
{
/** Keeps the errors apart from the rest of the log. */
class RecordingFeedback : public QgsProcessingFeedback
{
public:
    void reportError(const QString& error, bool fatalError) override
    {
        mErrors += error;
        QgsProcessingFeedback::reportError(error, fatalError);
    }
    QString errors() const { return mErrors; }

private:
    QString mErrors;
};
} // namespace

QVariant nullText()
{
    return QVariant(QVariant::String);
}

std::unique_ptr<QgsVectorLayer> makeTable(const QStringList& fields, const QList<QVariantList>& rows)
{
    QString uri = QStringLiteral("None");
    for (int i = 0; i < fields.size(); ++i)
        uri += (i == 0 ? QStringLiteral("?field=") : QStringLiteral("&field=")) + fields.at(i);
    auto layer = std::make_unique<QgsVectorLayer>(uri, QStringLiteral("records"), QStringLiteral("memory"));
    EXPECT_TRUE(layer->isValid()) << uri.toStdString();
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

QList<QVariantList> repeated(const QVariantList& row, int times)
{
    QList<QVariantList> rows;
    for (int i = 0; i < times; ++i)
        rows.append(row);
    return rows;
}

AlgorithmRun runAlgorithm(const QString& id, const QVariantMap& parameters, bool canceled)
{
    const std::unique_ptr<QgsProcessingAlgorithm> algorithm(
        QgsApplication::processingRegistry()->createAlgorithmById(id));
    EXPECT_TRUE(algorithm) << id.toStdString();
    if (!algorithm)
        return {};
    QgsProcessingContext context;
    context.setProject(QgsProject::instance());
    RecordingFeedback feedback;
    if (canceled)
        feedback.cancel();
    AlgorithmRun run;
    run.results = algorithm->run(parameters, context, &feedback, &run.ok);
    run.errors = feedback.errors();
    run.log = feedback.textLog();
    if (run.results.contains(QStringLiteral("OUTPUT")))
    {
        auto* layer = qobject_cast<QgsVectorLayer*>(QgsProcessingUtils::mapLayerFromString(
            run.results.value(QStringLiteral("OUTPUT")).toString(), context));
        EXPECT_TRUE(layer);
        if (layer)
        {
            run.outputFields = layer->fields().names();
            QgsFeature feature;
            QgsFeatureIterator features = layer->getFeatures();
            while (features.nextFeature(feature))
                run.outputRows.append(feature.attributes());
        }
    }
    return run;
}

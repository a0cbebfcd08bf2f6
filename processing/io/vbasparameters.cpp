#include "vbasparameters.h"

#include "vbasqgiscompat.h"

#include "data/RecordCount.h"

#include <qgsfeature.h>
#include <qgsprocessingalgorithm.h>
#include <qgsprocessingcontext.h>
#include <qgsprocessingparameters.h>

#include <atomic>

namespace
{
/** Whether errors lead with labels (showLabels()). */
std::atomic<bool> gLabelsShown{false};
/** The algorithm whose labels the errors of this thread's run use (LabelScope). */
thread_local const QgsProcessingAlgorithm* tLabelled = nullptr;
/** The metadata of an output for review only: true, or the boolean parameter that makes it so. */
const QString kReviewOnly = QStringLiteral("vbas_review_only");
} // namespace

void VbasParameters::showLabels(bool shown)
{
    gLabelsShown = shown;
}

VbasParameters::LabelScope::LabelScope(const QgsProcessingAlgorithm& algorithm)
    : mPrevious(tLabelled)
{
    tLabelled = &algorithm;
}

VbasParameters::LabelScope::~LabelScope()
{
    tLabelled = mPrevious;
}

QString VbasParameters::parameterTitle(const QString& parameterName)
{
    const QgsProcessingParameterDefinition* definition =
        gLabelsShown && tLabelled ? tLabelled->parameterDefinition(parameterName) : nullptr;
    if (!definition || definition->description().isEmpty() || definition->description() == parameterName)
        return parameterName;
    return QStringLiteral("%1 \u2014 %2").arg(definition->description(), parameterName);
}

QgsProcessingException VbasParameters::parameterError(const QString& parameterName, const QString& message)
{
    return QgsProcessingException(QStringLiteral("%1: %2").arg(parameterTitle(parameterName), message));
}

QgsProcessingException VbasParameters::canceledError()
{
    return QgsProcessingException(QObject::tr("Canceled by the user; no output was written."));
}

void VbasParameters::markForReview(QgsProcessingParameterDefinition& definition, const QString& when)
{
    QVariantMap metadata = definition.metadata();
    metadata.insert(kReviewOnly, when.isEmpty() ? QVariant(true) : QVariant(when));
    definition.setMetadata(metadata);
}

bool VbasParameters::isForReview(const QgsProcessingParameterDefinition& definition,
                                 const QVariantMap& parameters, QgsProcessingContext& context)
{
    const QVariant mark = definition.metadata().value(kReviewOnly);
    if (mark.userType() != QMetaType::QString)
        return mark.toBool();
    const QgsProcessingAlgorithm* algorithm = definition.algorithm();
    const QgsProcessingParameterDefinition* when =
        algorithm ? algorithm->parameterDefinition(mark.toString()) : nullptr;
    return when && QgsProcessingParameters::parameterAsBoolean(when, parameters, context);
}

qint64 VbasParameters::recordCount(const QgsFeature& feature, int countFieldIndex)
{
    if (countFieldIndex < 0)
        return 1;
    const QVariant value = feature.attribute(countFieldIndex);
    bool isNumber = false;
    const double count = VbasCompat::isNull(value) ? -1.0 : value.toDouble(&isNumber);
    const std::optional<vbas::Count> records = isNumber ? vbas::wholeRecordCount(count) : std::nullopt;
    if (!records)
        throw countError(QObject::tr("feature %1").arg(feature.id()),
                         VbasCompat::isNull(value) ? QStringLiteral("NULL") : value.toString());
    return static_cast<qint64>(*records);
}

QgsProcessingException VbasParameters::countError(const QString& row, const QString& count)
{
    return parameterError(
        kParameterCountField,
        QObject::tr("%1 has the count '%2', but counts must be whole numbers of 0 or more (0: "
                    "the row holds no records); fix that row, or leave COUNT_FIELD empty "
                    "to count every row as one record")
            .arg(row, count));
}

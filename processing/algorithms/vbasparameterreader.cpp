#include "vbasparameterreader.h"

#include "privacy/RiskThreshold.h"
#include "vbasalgorithm.h"
#include "vbaschoiceparameter.h"

#include <qgsfields.h>
#include <qgsprocessingparameters.h>
#include <qgsvectorlayer.h>

using namespace VbasParameters;

VbasParameterReader::VbasParameterReader(const QgsProcessingAlgorithm& algorithm,
                                         const QVariantMap& parameters, QgsProcessingContext& context,
                                         VbasSubjectParameters subjects)
    : mAlgorithm(algorithm)
    , mLabels(algorithm)
    , mParameters(parameters)
    , mContext(context)
    , mSubjects(std::move(subjects))
{
}

int VbasParameterReader::asInt(const QString& name) const
{
    return QgsProcessingParameters::parameterAsInt(definition(name), mParameters, mContext);
}

double VbasParameterReader::asDouble(const QString& name) const
{
    return QgsProcessingParameters::parameterAsDouble(definition(name), mParameters, mContext);
}

bool VbasParameterReader::asBoolean(const QString& name) const
{
    return QgsProcessingParameters::parameterAsBoolean(definition(name), mParameters, mContext);
}

bool VbasParameterReader::isGiven(const QString& name) const
{
    const QVariant value = mParameters.value(name);
    return value.isValid() && !value.isNull() &&
           !(value.userType() == QMetaType::QString && value.toString().isEmpty());
}

QString VbasParameterReader::asString(const QString& name) const
{
    return QgsProcessingParameters::parameterAsString(definition(name), mParameters, mContext);
}

QString VbasParameterReader::asFileOutput(const QString& name) const
{
    return QgsProcessingParameters::parameterAsFileOutput(definition(name), mParameters, mContext);
}

QgsCoordinateReferenceSystem VbasParameterReader::asCrs(const QString& name) const
{
    return QgsProcessingParameters::parameterAsCrs(definition(name), mParameters, mContext);
}

QgsVectorLayer* VbasParameterReader::asVectorLayer(const QString& name) const
{
    return QgsProcessingParameters::parameterAsVectorLayer(definition(name), mParameters, mContext);
}

QList<QgsMapLayer*> VbasParameterReader::asLayerList(const QString& name) const
{
    return QgsProcessingParameters::parameterAsLayerList(definition(name), mParameters, mContext);
}

QStringList VbasParameterReader::asFileList(const QString& name) const
{
    return QgsProcessingParameters::parameterAsFileList(definition(name), mParameters, mContext);
}

std::unique_ptr<QgsProcessingFeatureSource> VbasParameterReader::source(const QString& name) const
{
    std::unique_ptr<QgsProcessingFeatureSource> source(
        QgsProcessingParameters::parameterAsSource(definition(name), mParameters, mContext));
    if (!source)
        throw QgsProcessingException(VbasAlgorithm::invalidSourceError(mParameters, name));
    return source;
}

std::unique_ptr<QgsFeatureSink> VbasParameterReader::sink(const QString& name, QString& destination,
                                                          const QgsFields& fields, VbasCompat::WkbType type,
                                                          const QgsCoordinateReferenceSystem& crs) const
{
    if (!definition(name))
        throw QgsProcessingException(QObject::tr("No parameter definition for the sink '%1'").arg(name));
    return std::unique_ptr<QgsFeatureSink>(QgsProcessingParameters::parameterAsSink(
        definition(name), mParameters, fields, type, crs, mContext, destination));
}

QgsProcessingException VbasParameterReader::invalidSinkError(const QString& name) const
{
    return QgsProcessingException(VbasAlgorithm::invalidSinkError(mParameters, name));
}

QgsProcessingException VbasParameterReader::writeFeatureError(QgsFeatureSink* sink, const QString& name) const
{
    return QgsProcessingException(VbasAlgorithm::writeFeatureError(sink, mParameters, name));
}

QStringList VbasParameterReader::choiceIds(const QString& name) const
{
    const auto* choice = dynamic_cast<const VbasChoiceParameter*>(definition(name));
    Q_ASSERT(choice);
    QVariant value = mParameters.value(name);
    if (value.userType() == qMetaTypeId<QgsProperty>())
        value = value.value<QgsProperty>().valueAsString(mContext.expressionContext());
    return choice->ids(value);
}

QStringList VbasParameterReader::strategyIds(const QString& name) const
{
    const QStringList ids = choiceIds(name);
    const auto* choice = dynamic_cast<const VbasChoiceParameter*>(definition(name));
    if (ids.isEmpty() || ids.contains(QString()))
        throw parameterError(name,
                             QObject::tr("no method chosen, or one that does not exist; choose at least "
                                         "one of: %1")
                                 .arg(choice->options().join(QStringLiteral(", "))));
    return ids;
}

QStringList VbasParameterReader::fieldNames(const QString& name) const
{
    // parameterAsFields is deprecated from 3.40 in favour of parameterAsStrings (3.32).
#if _QGIS_VERSION_INT >= 33200
    QStringList names = QgsProcessingParameters::parameterAsStrings(definition(name), mParameters, mContext);
#else
    QStringList names = QgsProcessingParameters::parameterAsFields(definition(name), mParameters, mContext);
#endif
    names.removeAll(QString()); // a field parameter that starts empty holds ""
    return names;
}

int VbasParameterReader::fieldIndex(const QString& name, const QgsFields& fields) const
{
    const QList<int> indices = fieldIndices(name, fields);
    return indices.isEmpty() ? -1 : indices.constFirst();
}

QList<int> VbasParameterReader::fieldIndices(const QString& name, const QgsFields& fields) const
{
    const auto* field = dynamic_cast<const QgsProcessingParameterField*>(definition(name));
    Q_ASSERT(field);
    const QString layerParameter = field->parentLayerParameterName();
    const QStringList names = fieldNames(name);
    if (names.isEmpty() && !(field->flags() & VbasCompat::ParameterFlagOptional))
        throw QgsProcessingException(
            QObject::tr("%1; its fields: %2")
                .arg(vbasEmptyFieldMessage(mAlgorithm, *field), fields.names().join(QStringLiteral(", "))));
    QList<int> indices;
    for (const QString& fieldName : names)
    {
        const int index = fields.lookupField(fieldName);
        if (index < 0)
            throw parameterError(
                name, QObject::tr("%1 has no field '%2'; choose one of its fields (%3)")
                          .arg(layerParameter, fieldName, fields.names().join(QStringLiteral(", "))));
        indices.append(index);
    }
    return indices;
}

int VbasParameterReader::k() const
{
    const int k = asInt(kParameterK);
    if (k < 2)
        throw parameterError(kParameterK,
                             QObject::tr("k is %1, but a group must hold at least 2 records to hide "
                                         "anyone; set K to 2 or more (5 is common)")
                                 .arg(k));
    return k;
}

vbas::Count VbasParameterReader::requiredK(QgsProcessingFeedback* feedback) const
{
    const double risk = has(kMaxRisk) ? asDouble(kMaxRisk) : 0.0;
    if (risk == 0.0)
        return vbas::Count(k());
    if (!(risk > 0.0 && risk <= 0.5))
        throw parameterError(kMaxRisk,
                             QObject::tr("the risk is %1, but it must lie in (0, 0.5]: 0.5 already means "
                                         "groups of 2; give 0.2 for 1 in 5, or 0 to use K")
                                 .arg(risk));
    const vbas::Count k = runEngine(feedback, [&](vbas::Feedback&) { return vbas::kForRiskThreshold(risk); });
    if (feedback)
        feedback->pushInfo(
            QObject::tr("MAX_RISK %1: k = ceil(1 / %1) = %2 (K is not used)").arg(risk).arg(k));
    return k;
}

QString vbasEmptyFieldMessage(const QgsProcessingAlgorithm& algorithm,
                              const QgsProcessingParameterField& field)
{
    if (field.name() == kParameterQuasiIdentifiers)
        return QObject::tr(
                   "%1: choose the fields an attacker may know about a person (age, sex...): without them "
                   "the release protects no one who can be recognised by them. A release that only "
                   "guarantees every region holds k records is 'Aggregate to a population floor' "
                   "(vbas:populationfloor)")
            .arg(parameterTitle(field.name()));
    const QgsProcessingParameterDefinition* parent =
        algorithm.parameterDefinition(field.parentLayerParameterName());
    return QObject::tr("%1: choose the %2 (a field of %3)")
        .arg(parameterTitle(field.name()), field.description().toLower(),
             parent ? parent->description() : field.parentLayerParameterName());
}

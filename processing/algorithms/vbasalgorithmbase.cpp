#include "vbasalgorithmbase.h"

#include "vbaschoiceparameter.h"
#include "vbashelppage.h"
#include "vbasmetadata.h"
#include "vbasoutputguard.h"
#include "vbasprovider.h"
#include "vbasqgiscompat.h"

#include <qgsfeature.h>
#include <qgsfields.h>
#include <qgsprocessingparameters.h>

#include <QIcon>

#include <cmath>

QIcon VbasAlgorithmBase::icon() const
{
    return QIcon(VbasProvider::iconPath());
}

QString VbasAlgorithmBase::helpUrl() const
{
    return vbasHelpUrl(*this, QStringLiteral(VBAS_METADATA_VERSION));
}

QString VbasAlgorithmBase::svgIconPath() const
{
    return VbasProvider::iconPath();
}

QVariantMap VbasAlgorithmBase::processAlgorithm(const QVariantMap& parameters, QgsProcessingContext& context,
                                                QgsProcessingFeedback* feedback)
{
    VbasOutputGuard outputs(*this, parameters, context, feedback);
    QVariantMap results;
    try
    {
        results = processGuarded(outputs.parameters(), context, feedback, outputs);
    }
    catch (const QgsProcessingException& error)
    {
        // The message names the file the user chose, not its staged copy.
        throw QgsProcessingException(outputs.finalDestination(error.what()));
    }
    // The run is done: a cancel that came after the algorithm's last check (while the report was written,
    // say) still takes every output back, so a canceled run never leaves files.
    if (feedback)
        feedback->setProgress(100.0);
    if (feedback && feedback->isCanceled())
        throw canceledError();
    return outputs.commit(results, [&] { beforePublishing(feedback); });
}

void VbasAlgorithmBase::beforePublishing(QgsProcessingFeedback*) {}

QStringList VbasAlgorithmBase::parameterAsChoiceIds(const QVariantMap& parameters, const QString& name,
                                                    QgsProcessingContext& context) const
{
    const auto* definition = dynamic_cast<const VbasChoiceParameter*>(parameterDefinition(name));
    Q_ASSERT(definition);
    QVariant value = parameters.value(name);
    if (value.userType() == qMetaTypeId<QgsProperty>())
        value = value.value<QgsProperty>().valueAsString(context.expressionContext());
    return definition->ids(value);
}

void VbasAlgorithmBase::addKParameter()
{
    auto* k = new QgsProcessingParameterNumber(kParameterK, QObject::tr("Smallest group k"),
                                               VbasCompat::NumberTypeInteger, 5, false, 2);
    k->setHelp(
        QObject::tr("Every group of released records that look alike (the same region and the same "
                    "values of every quasi-identifier) holds at least this many records, so that anyone "
                    "who knows a person's values finds at least k records that could be theirs: 5 is "
                    "common, 10 or more for rare conditions."));
    addParameter(k);
}

void VbasAlgorithmBase::addQuasiIdentifiersParameter(const QString& parentLayerParameter, bool required)
{
    auto* quasiIdentifiers = new QgsProcessingParameterField(
        kParameterQuasiIdentifiers, QObject::tr("Quasi-identifiers (what an attacker may know)"), QVariant(),
        parentLayerParameter, VbasCompat::FieldTypeAny, true, !required);
    quasiIdentifiers->setHelp(QObject::tr(
        "The fields someone could know about a person from elsewhere, e.g. age, sex, marital status: in "
        "every "
        "released region each combination of their values is shared by at least k records. Numbers such as "
        "age may be released in bands (see the generalization)."));
    addParameter(quasiIdentifiers);
}

void VbasAlgorithmBase::addCountFieldParameter(const QString& parentLayerParameter)
{
    auto* count =
        new QgsProcessingParameterField(kParameterCountField, QObject::tr("Records per row"), QVariant(),
                                        parentLayerParameter, VbasCompat::FieldTypeAny, false, true);
    count->setHelp(
        QObject::tr("Empty when every row is one record. For a table of counts (one row per small "
                    "area and combination of values, e.g. from GROUP BY), the field holding how many "
                    "records each row stands for, e.g. 'cases'."));
    addParameter(count);
}

bool VbasAlgorithmBase::checkParameterValues(const QVariantMap& parameters, QgsProcessingContext& context,
                                             QString* message) const
{
    for (const QgsProcessingParameterDefinition* definition : parameterDefinitions())
    {
        const auto* field = dynamic_cast<const QgsProcessingParameterField*>(definition);
        if (field == nullptr || (field->flags() & VbasCompat::ParameterFlagOptional) ||
            !parameterAsFieldNames(parameters, field->name(), context).isEmpty())
            continue;
        if (message != nullptr)
            *message = emptyFieldMessage(*field);
        return false;
    }
    return QgsProcessingAlgorithm::checkParameterValues(parameters, context, message);
}

QString VbasAlgorithmBase::emptyFieldMessage(const QgsProcessingParameterField& field) const
{
    if (field.name() == kParameterQuasiIdentifiers)
        return QObject::tr(
                   "%1: choose the fields an attacker may know about a person (age, sex...): without them "
                   "the release protects no one who can be recognised by them. A release that only "
                   "guarantees every region holds k records is 'Aggregate to a population floor' "
                   "(vbas:populationfloor)")
            .arg(field.name());
    const QgsProcessingParameterDefinition* parent = parameterDefinition(field.parentLayerParameterName());
    return QObject::tr("%1: choose the %2 (a field of %3)")
        .arg(field.name(), field.description().toLower(),
             parent ? parent->description() : field.parentLayerParameterName());
}

void VbasAlgorithmBase::addDiversityParameters(const QString& parentLayerParameter, bool verifying)
{
    auto* sensitive = new QgsProcessingParameterField(
        kParameterSensitiveFields, QObject::tr("Sensitive fields (published, varied in every group)"),
        QVariant(), parentLayerParameter, VbasCompat::FieldTypeAny, true, true);
    sensitive->setHelp(
        verifying
            ? QObject::tr("Fields whose values every group must vary in when L is set (a diagnosis, say).")
            : QObject::tr("Fields published as they are but protected by l-diversity when L is set (a "
                          "diagnosis, say): every released group must hold varied values of each. Fields "
                          "with no role (neither quasi-identifier, sensitive nor released) are not "
                          "published."));
    addParameter(sensitive);
    auto* l = new QgsProcessingParameterNumber(
        kParameterL, QObject::tr("Least different sensitive values per group, l (0: off)"),
        VbasCompat::NumberTypeInteger, 0, true, 0);
    l->setHelp(
        QObject::tr("When 2 or more, every group (region and quasi-identifier values) must hold l "
                    "well-represented values of every sensitive field%1: otherwise a group of k people who "
                    "share one diagnosis tells the diagnosis of each.")
            .arg(verifying ? QString() : QObject::tr(", or it is withheld and counted as suppressed")));
    addParameter(l);
    auto* measure = new VbasChoiceParameter(
        kParameterLMeasure, QObject::tr("Diversity measure"),
        VbasChoiceParameter::wordChoices({QStringLiteral("distinct"), QStringLiteral("entropy")}), false,
        QStringLiteral("distinct"), true);
    measure->setHelp(
        QObject::tr("Distinct: at least l different values in every group. Entropy: the values spread as "
                    "evenly as l equally common ones at least, which also refuses groups where one value "
                    "dominates."));
    addParameter(verifying ? measure : VbasCompat::advanced(measure));
}

VbasAlgorithmBase::Diversity VbasAlgorithmBase::parameterAsDiversity(const QVariantMap& parameters,
                                                                     QgsProcessingContext& context) const
{
    Diversity diversity;
    if (parameterDefinition(kParameterL) == nullptr)
        return diversity; // an algorithm without sensitive fields (a population floor)
    diversity.l = parameterAsInt(parameters, kParameterL, context);
    diversity.entropy =
        parameterAsChoiceId(parameters, kParameterLMeasure, context) == QLatin1String("entropy");
    if (diversity.l == 1 || diversity.l < 0)
        throw parameterError(kParameterL,
                             QObject::tr("l is %1, but one value is no diversity; set L to 2 or more, "
                                         "or 0 to leave l-diversity off")
                                 .arg(diversity.l));
    if (diversity.isOn() && parameterAsFieldNames(parameters, kParameterSensitiveFields, context).isEmpty())
        throw parameterError(kParameterL,
                             QObject::tr("l-diversity needs the fields it protects; give them as "
                                         "SENSITIVE_FIELDS, or set L to 0"));
    return diversity;
}

int VbasAlgorithmBase::parameterAsK(const QVariantMap& parameters, QgsProcessingContext& context) const
{
    const int k = parameterAsInt(parameters, kParameterK, context);
    if (k < 2)
        throw parameterError(kParameterK,
                             QObject::tr("k is %1, but a group must hold at least 2 records to hide "
                                         "anyone; set K to 2 or more (5 is common)")
                                 .arg(k));
    return k;
}

QStringList VbasAlgorithmBase::parameterAsFieldNames(const QVariantMap& parameters, const QString& name,
                                                     QgsProcessingContext& context) const
{
    // parameterAsFields is deprecated from 3.40 in favour of parameterAsStrings (3.32).
#if _QGIS_VERSION_INT >= 33200
    QStringList names = parameterAsStrings(parameters, name, context);
#else
    QStringList names = parameterAsFields(parameters, name, context);
#endif
    names.removeAll(QString()); // a field parameter that starts empty holds ""
    return names;
}

int VbasAlgorithmBase::parameterAsFieldIndex(const QVariantMap& parameters, const QString& name,
                                             const QgsFields& fields, QgsProcessingContext& context) const
{
    const QList<int> indices = parameterAsFieldIndices(parameters, name, fields, context);
    return indices.isEmpty() ? -1 : indices.constFirst();
}

QList<int> VbasAlgorithmBase::parameterAsFieldIndices(const QVariantMap& parameters, const QString& name,
                                                      const QgsFields& fields,
                                                      QgsProcessingContext& context) const
{
    const auto* definition = dynamic_cast<const QgsProcessingParameterField*>(parameterDefinition(name));
    Q_ASSERT(definition);
    const QString layerParameter = definition->parentLayerParameterName();
    const QStringList names = parameterAsFieldNames(parameters, name, context);
    if (names.isEmpty() && !(definition->flags() & VbasCompat::ParameterFlagOptional))
        throw QgsProcessingException(
            QObject::tr("%1; its fields: %2")
                .arg(emptyFieldMessage(*definition), fields.names().join(QStringLiteral(", "))));
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

QString VbasAlgorithmBase::parameterForSubject(vbas::Subject subject) const
{
    switch (subject)
    {
    case vbas::Subject::Regions:
        return kRegions;
    case vbas::Subject::Records:
        return kRecords;
    case vbas::Subject::RecordRegion:
        return kRecordRegionField;
    case vbas::Subject::RecordCount:
        return kParameterCountField;
    case vbas::Subject::QuasiIdentifier:
        return kParameterQuasiIdentifiers;
    case vbas::Subject::K:
        return kParameterK;
    case vbas::Subject::SiteCount:
        return kSiteCount;
    case vbas::Subject::SiteLocation:
        return kSiteLocation;
    case vbas::Subject::Partition:
        return kPartition;
    case vbas::Subject::Sensitive:
        return kParameterSensitiveFields;
    case vbas::Subject::Generalization:
        return kGeneralization;
    case vbas::Subject::Ledger:
        return kReleaseLedger;
    case vbas::Subject::General:
    case vbas::Subject::Strategy:
    case vbas::Subject::Option: // named by the error itself, see engineError()
        break;
    }
    return QString();
}

QgsProcessingException VbasAlgorithmBase::engineError(const vbas::Error& error) const
{
    if (error.subject() == vbas::Subject::Option)
        return parameterError(QString::fromStdString(error.option()).toUpper(),
                              QString::fromStdString(error.detail()));
    const QString message = QString::fromStdString(error.what());
    const QString parameter = parameterForSubject(error.subject());
    return parameter.isEmpty() ? QgsProcessingException(message) : parameterError(parameter, message);
}

QgsProcessingException VbasAlgorithmBase::unexpectedEngineError(const std::exception& error)
{
    return QgsProcessingException(
        QObject::tr("internal error in the VBAS engine (%1); please report it with the input that caused it")
            .arg(QString::fromLocal8Bit(error.what())));
}

#include "vbasenginecall.h"

#include <QObject>

VbasSubjectParameters VbasSubjectParameters::renamed(vbas::Subject subject, const QString& parameter) const
{
    VbasSubjectParameters renamed = *this;
    renamed.mRenamed.emplace_back(subject, parameter);
    return renamed;
}

QString VbasSubjectParameters::parameterFor(vbas::Subject subject) const
{
    for (const auto& [renamedSubject, parameter] : mRenamed)
        if (renamedSubject == subject)
            return parameter;
    using namespace VbasParameters;
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
    case vbas::Subject::Cases: // no algorithm reads rates yet (issue 41): the rate release will name them
    case vbas::Subject::Population: // with renamed()
    case vbas::Subject::General:
    case vbas::Subject::Strategy:
    case vbas::Subject::Option: // named by the error itself, see vbasEngineError()
        break;
    }
    return QString();
}

QgsProcessingException vbasEngineError(const vbas::Error& error, const VbasSubjectParameters& subjects)
{
    if (error.subject() == vbas::Subject::Option)
        return VbasParameters::parameterError(VbasParameters::optionParameterName(error.option()),
                                              QString::fromStdString(error.detail()));
    const QString message = QString::fromStdString(error.what());
    const QString parameter = subjects.parameterFor(error.subject());
    return parameter.isEmpty() ? QgsProcessingException(message)
                               : VbasParameters::parameterError(parameter, message);
}

QgsProcessingException vbasUnexpectedEngineError(const std::exception& error)
{
    return QgsProcessingException(
        QObject::tr("internal error in the VBAS engine (%1); please report it with the input that caused it")
            .arg(QString::fromLocal8Bit(error.what())));
}

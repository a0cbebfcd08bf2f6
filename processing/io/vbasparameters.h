#pragma once

#include <qgsexception.h>

#include <QString>

class QgsFeature;

/**
 * What every layer of the provider shares about parameters: the names of the shared ones (saved models and
 * scripts store them: never rename), the error a user can fix, which reads "PARAMETER: what is wrong; what
 * to do", and the reading of a record count. The algorithms inherit it; io code uses it directly, so it
 * needs no algorithm header.
 */
struct VbasParameters
{
    static inline const QString kParameterK = QStringLiteral("K");
    static inline const QString kParameterQuasiIdentifiers = QStringLiteral("QUASI_IDENTIFIERS");
    static inline const QString kParameterCountField = QStringLiteral("COUNT_FIELD");
    static inline const QString kParameterSensitiveFields = QStringLiteral("SENSITIVE_FIELDS");
    static inline const QString kParameterL = QStringLiteral("L");
    static inline const QString kParameterLMeasure = QStringLiteral("L_MEASURE");
    /** The record id field (identifying, never published), for the release ledger. */
    static inline const QString kRecordIdField = QStringLiteral("RECORD_ID_FIELD");
    /** Where the release ledger is kept. */
    static inline const QString kReleaseLedger = QStringLiteral("RELEASE_LEDGER");
    static inline const QString kRegions = QStringLiteral("REGIONS");
    static inline const QString kRegionIdField = QStringLiteral("REGION_ID_FIELD");
    static inline const QString kRecordRegionField = QStringLiteral("RECORD_REGION_FIELD");
    static inline const QString kUnknownRegions = QStringLiteral("UNKNOWN_REGIONS");
    /** The largest share of records (percent) that UNKNOWN_REGIONS=drop may drop. */
    static inline const QString kMaxDropped = QStringLiteral("MAX_DROPPED");
    static inline const QString kObstacles = QStringLiteral("OBSTACLES");
    static inline const QString& kSensitiveFields = kParameterSensitiveFields;
    static inline const QString kReleaseFields = QStringLiteral("RELEASE_FIELDS");

    /** Returns the error every user-fixable problem becomes: "PARAMETER: message". */
    static QgsProcessingException parameterError(const QString& parameterName, const QString& message);
    /** Returns the error a canceled run ends with; nothing has been written when it is thrown. */
    static QgsProcessingException canceledError();
    /**
     * Returns the number of records `feature` stands for: 1 without a count field
     * (`countFieldIndex` -1), else the field's value under vbas::wholeRecordCount's rule (text holding
     * one is accepted, as CSV files deliver it). Throws countError for anything else, NULL included.
     */
    static qint64 recordCount(const QgsFeature& feature, int countFieldIndex);
    /** Returns the COUNT_FIELD error for `row` (how the user finds it) holding the count text `count`. */
    static QgsProcessingException countError(const QString& row, const QString& count);
};

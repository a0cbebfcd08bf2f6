#pragma once

#include <qgsexception.h>

#include <QString>

class QgsFeature;

/**
 * What every layer of the provider shares about parameters: the name of every parameter and output of every
 * algorithm, in this one place (saved models and scripts store them: never rename; the strategies' options
 * are named by the engine's registry), the error a user can fix, which reads "PARAMETER: what is wrong; what
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

    // The records and how they are read
    static inline const QString kRecords = QStringLiteral("RECORDS");
    static inline const QString kNullCountAsZero = QStringLiteral("NULL_COUNT_AS_ZERO");
    static inline const QString kGroupRecords = QStringLiteral("GROUP_RECORDS");

    // Where regions come from and how they are made (the strategies' own options are named by the engine's
    // registry: optionParameterName())
    static inline const QString kRepresentativePoint = QStringLiteral("REPRESENTATIVE_POINT");
    static inline const QString kGlobalSuppression = QStringLiteral("GLOBAL_SUPPRESSION");
    static inline const QString kSiteCountMethod = QStringLiteral("SITE_COUNT_METHOD");
    static inline const QString kSiteCount = QStringLiteral("SITE_COUNT");
    static inline const QString kSiteLocation = QStringLiteral("SITE_LOCATION");
    static inline const QString kPartition = QStringLiteral("PARTITION");
    static inline const QString kParentField = QStringLiteral("PARENT_FIELD");
    static inline const QString kContiguity = QStringLiteral("CONTIGUITY");
    static inline const QString kAdjacencyTolerance = QStringLiteral("ADJACENCY_TOLERANCE");
    static inline const QString kComputationCrs = QStringLiteral("COMPUTATION_CRS");
    static inline const QString kMaxRisk = QStringLiteral("MAX_RISK");
    static inline const QString kGeneralization = QStringLiteral("GENERALIZATION");
    static inline const QString kHierarchyTables = QStringLiteral("HIERARCHY_TABLES");
    static inline const QString kSites = QStringLiteral("SITES");
    static inline const QString kSiteWeightField = QStringLiteral("SITE_WEIGHT_FIELD");

    // A release's outputs and their options
    static inline const QString kOutput = QStringLiteral("OUTPUT");
    static inline const QString kOutputMapping = QStringLiteral("OUTPUT_MAPPING");
    static inline const QString kOutputRecords = QStringLiteral("OUTPUT_RECORDS");
    static inline const QString kOutputSites = QStringLiteral("OUTPUT_SITES");
    static inline const QString kOutputCells = QStringLiteral("OUTPUT_CELLS");
    static inline const QString kOutputReview = QStringLiteral("OUTPUT_REVIEW");
    static inline const QString kOutputHtml = QStringLiteral("OUTPUT_HTML_FILE");
    static inline const QString kOutputMapImage = QStringLiteral("OUTPUT_MAP_IMAGE");
    static inline const QString kMapImageWidth = QStringLiteral("MAP_IMAGE_WIDTH");
    static inline const QString kMapImageHeight = QStringLiteral("MAP_IMAGE_HEIGHT");
    static inline const QString kShadeBy = QStringLiteral("SHADE_BY");
    static inline const QString kKeepSuppressed = QStringLiteral("KEEP_SUPPRESSED");
    static inline const QString kAddRowId = QStringLiteral("ADD_ROW_ID");

    // Releases on an earlier aggregation, and rating one
    static inline const QString kLedgerEntry = QStringLiteral("LEDGER_ENTRY");
    static inline const QString kAggregateField = QStringLiteral("AGGREGATE_FIELD");

    // Comparing approaches
    static inline const QString kSweepSteps = QStringLiteral("SWEEP_STEPS");
    static inline const QString kSweepFraction = QStringLiteral("SWEEP_FRACTION");
    static inline const QString kRows = QStringLiteral("ROWS");
    static inline const QString kParetoRows = QStringLiteral("PARETO_ROWS");
    static inline const QString kParetoChartX = QStringLiteral("PARETO_CHART_X");
    static inline const QString kParetoChartY = QStringLiteral("PARETO_CHART_Y");

    // Estimating the site count, selecting sites
    static inline const QString kEstimatedSites = QStringLiteral("ESTIMATED_SITES");
    static inline const QString kUnclampedEstimate = QStringLiteral("UNCLAMPED_ESTIMATE");
    static inline const QString kReleasableRecords = QStringLiteral("RELEASABLE_RECORDS");
    static inline const QString kRegionsWithRecords = QStringLiteral("REGIONS_WITH_RECORDS");
    static inline const QString kMaxCombs = QStringLiteral("MAX_COMBS");
    static inline const QString kSitesPlaced = QStringLiteral("SITES_PLACED");

    // Checking a release (vbas:checkanonymity)
    static inline const QString kInput = QStringLiteral("INPUT");
    static inline const QString kRegionField = QStringLiteral("REGION_FIELD");
    static inline const QString kGroups = QStringLiteral("GROUPS");
    static inline const QString kViolatingGroups = QStringLiteral("VIOLATING_GROUPS");
    static inline const QString kViolatingRecords = QStringLiteral("VIOLATING_RECORDS");
    static inline const QString kMinGroupSize = QStringLiteral("MIN_GROUP_SIZE");
    static inline const QString kVerdict = QStringLiteral("VERDICT");

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

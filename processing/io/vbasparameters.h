#pragma once

#include <qgsexception.h>

#include <QString>
#include <QVariantMap>

#include <string>

class QgsFeature;
class QgsProcessingAlgorithm;
class QgsProcessingContext;
class QgsProcessingParameterDefinition;

/**
 * What every layer of the provider shares about parameters: the name of every parameter and output of every
 * algorithm, in this one place (saved models and scripts store them: never rename; the strategies' options
 * and the metrics are named from the engine's registry, by optionParameterName() and
 * VbasOutputs::metricOutputName()), the error a user can fix, which reads "PARAMETER: what is wrong; what to
 * do", and the reading of a record count. Algorithms and io code alike use it, so that io code needs no
 * algorithm header.
 */
namespace VbasParameters
{
inline const QString kParameterK = QStringLiteral("K");
inline const QString kParameterQuasiIdentifiers = QStringLiteral("QUASI_IDENTIFIERS");
inline const QString kParameterCountField = QStringLiteral("COUNT_FIELD");
inline const QString kParameterSensitiveFields = QStringLiteral("SENSITIVE_FIELDS");
inline const QString kParameterL = QStringLiteral("L");
inline const QString kParameterLMeasure = QStringLiteral("L_MEASURE");
/** The person id field (identifying, never published): k counts people; the release ledger keeps a keyed
 * sample. */
inline const QString kRecordIdField = QStringLiteral("RECORD_ID_FIELD");
/** Where the release ledger is kept. */
inline const QString kReleaseLedger = QStringLiteral("RELEASE_LEDGER");
/** Make a new release ledger at RELEASE_LEDGER (never made silently). */
inline const QString kNewLedger = QStringLiteral("NEW_LEDGER");
/** The key file of the release ledger (kept apart from it); empty: the default key folder. */
inline const QString kLedgerKey = QStringLiteral("LEDGER_KEY");
/** From the command line: release without keeping a ledger, said explicitly. */
inline const QString kNoLedger = QStringLiteral("NO_LEDGER");
/** Ledger entries of other people's records, which do not bind this release's territory. */
inline const QString kOtherPeople = QStringLiteral("OTHER_PEOPLE");
/** Why a ledger entry is withdrawn. */
inline const QString kReason = QStringLiteral("REASON");
inline const QString kRegions = QStringLiteral("REGIONS");
inline const QString kRegionIdField = QStringLiteral("REGION_ID_FIELD");
inline const QString kRecordRegionField = QStringLiteral("RECORD_REGION_FIELD");
inline const QString kUnknownRegions = QStringLiteral("UNKNOWN_REGIONS");
/** The largest share of records (percent) that UNKNOWN_REGIONS=drop may drop. */
inline const QString kMaxDropped = QStringLiteral("MAX_DROPPED");
inline const QString kObstacles = QStringLiteral("OBSTACLES");
inline const QString& kSensitiveFields = kParameterSensitiveFields;
inline const QString kReleaseFields = QStringLiteral("RELEASE_FIELDS");

// The records and how they are read
inline const QString kRecords = QStringLiteral("RECORDS");
inline const QString kNullCountAsZero = QStringLiteral("NULL_COUNT_AS_ZERO");
inline const QString kGroupRecords = QStringLiteral("GROUP_RECORDS");

// Where regions come from and how they are made (the strategies' own options are named by the engine's
// registry: optionParameterName())
inline const QString kRepresentativePoint = QStringLiteral("REPRESENTATIVE_POINT");
inline const QString kGlobalSuppression = QStringLiteral("GLOBAL_SUPPRESSION");
inline const QString kSiteCountMethod = QStringLiteral("SITE_COUNT_METHOD");
inline const QString kSiteCount = QStringLiteral("SITE_COUNT");
inline const QString kSiteLocation = QStringLiteral("SITE_LOCATION");
inline const QString kPartition = QStringLiteral("PARTITION");
inline const QString kParentField = QStringLiteral("PARENT_FIELD");
inline const QString kContiguity = QStringLiteral("CONTIGUITY");
inline const QString kAdjacencyTolerance = QStringLiteral("ADJACENCY_TOLERANCE");
inline const QString kComputationCrs = QStringLiteral("COMPUTATION_CRS");
inline const QString kMaxRisk = QStringLiteral("MAX_RISK");
inline const QString kGeneralization = QStringLiteral("GENERALIZATION");
inline const QString kHierarchyTables = QStringLiteral("HIERARCHY_TABLES");
inline const QString kSites = QStringLiteral("SITES");
inline const QString kSiteWeightField = QStringLiteral("SITE_WEIGHT_FIELD");
// A release for maps (vbas:maprelease)
inline const QString kPopulationField = QStringLiteral("POPULATION_FIELD");
inline const QString kPopulationFloor = QStringLiteral("POPULATION_FLOOR");
inline const QString kCaseFloor = QStringLiteral("CASE_FLOOR");
inline const QString kMapRate = QStringLiteral("MAP_RATE");
inline const QString kOutputGal = QStringLiteral("OUTPUT_GAL");
inline const QString kOutputInlaGraph = QStringLiteral("OUTPUT_INLA_GRAPH");

// A release's outputs and their options
inline const QString kOutput = QStringLiteral("OUTPUT");
inline const QString kOutputMapping = QStringLiteral("OUTPUT_MAPPING");
inline const QString kOutputRecords = QStringLiteral("OUTPUT_RECORDS");
inline const QString kOutputSites = QStringLiteral("OUTPUT_SITES");
inline const QString kOutputCells = QStringLiteral("OUTPUT_CELLS");
inline const QString kOutputReview = QStringLiteral("OUTPUT_REVIEW");
inline const QString kOutputHtml = QStringLiteral("OUTPUT_HTML_FILE");
inline const QString kOutputMapImage = QStringLiteral("OUTPUT_MAP_IMAGE");
inline const QString kMapImageWidth = QStringLiteral("MAP_IMAGE_WIDTH");
inline const QString kMapImageHeight = QStringLiteral("MAP_IMAGE_HEIGHT");
inline const QString kShadeBy = QStringLiteral("SHADE_BY");
inline const QString kKeepSuppressed = QStringLiteral("KEEP_SUPPRESSED");
inline const QString kAddRowId = QStringLiteral("ADD_ROW_ID");
// The numbers every release gives besides the metrics
inline const QString kInputRecords = QStringLiteral("INPUT_RECORDS");
inline const QString kRecordsReleased = QStringLiteral("RECORDS_RELEASED");
inline const QString kRecordsDropped = QStringLiteral("RECORDS_DROPPED");
inline const QString kAggregates = QStringLiteral("AGGREGATES");
inline const QString kEmptySites = QStringLiteral("EMPTY_SITES");

// Releases on an earlier aggregation, and rating one
inline const QString kLedgerEntry = QStringLiteral("LEDGER_ENTRY");
inline const QString kAggregateField = QStringLiteral("AGGREGATE_FIELD");

// Checking a release
/** The small area of each row of a table kept for review: what the columns are judged to tell. */
inline const QString kSmallAreaField = QStringLiteral("SMALL_AREA_FIELD");
inline const QString kOutputColumns = QStringLiteral("OUTPUT_COLUMNS");

// Comparing approaches
inline const QString kSweepSteps = QStringLiteral("SWEEP_STEPS");
inline const QString kSweepFraction = QStringLiteral("SWEEP_FRACTION");
inline const QString kSweepGeneralizationLevels = QStringLiteral("SWEEP_GENERALIZATION_LEVELS");
inline const QString kRows = QStringLiteral("ROWS");
inline const QString kParetoRows = QStringLiteral("PARETO_ROWS");
inline const QString kParetoChartX = QStringLiteral("PARETO_CHART_X");
inline const QString kParetoChartY = QStringLiteral("PARETO_CHART_Y");

// Estimating the site count, selecting sites
inline const QString kEstimatedSites = QStringLiteral("ESTIMATED_SITES");
inline const QString kUnclampedEstimate = QStringLiteral("UNCLAMPED_ESTIMATE");
inline const QString kReleasableRecords = QStringLiteral("RELEASABLE_RECORDS");
inline const QString kRegionsWithRecords = QStringLiteral("REGIONS_WITH_RECORDS");
inline const QString kMaxCombs = QStringLiteral("MAX_COMBS");
inline const QString kSitesPlaced = QStringLiteral("SITES_PLACED");

// Checking a release (vbas:checkanonymity)
inline const QString kInput = QStringLiteral("INPUT");
inline const QString kRegionField = QStringLiteral("REGION_FIELD");
inline const QString kGroups = QStringLiteral("GROUPS");
inline const QString kViolatingGroups = QStringLiteral("VIOLATING_GROUPS");
inline const QString kViolatingRecords = QStringLiteral("VIOLATING_RECORDS");
inline const QString kMinGroupSize = QStringLiteral("MIN_GROUP_SIZE");
inline const QString kVerdict = QStringLiteral("VERDICT");

/** Returns the parameter of a strategy option or refinement switch: its key upper-cased (SITE_COUNT, ADC). */
inline QString optionParameterName(const std::string& key)
{
    return QString::fromStdString(key).toUpper();
}
/**
 * Sets whether errors lead with the parameters' labels: on in QGIS desktop, where the plugin turns it on
 * (vbas_show_dialog_labels()), since its users know the parameters by the dialog's words; off for the command
 * lines (qgis_process, vbas_process) and scripts, whose users typed the names.
 */
void showLabels(bool shown);
/**
 * While one lives, in its thread, the errors naming a parameter of `algorithm` lead with the parameter's
 * label as the dialog shows it (parameterTitle()), when showLabels() is on. The output guard and the
 * parameter reader of a run each hold one, so that every error of the run, checks of the dialog included,
 * reads like the dialog.
 */
class LabelScope
{
public:
    explicit LabelScope(const QgsProcessingAlgorithm& algorithm);
    ~LabelScope();
    LabelScope(const LabelScope&) = delete;
    LabelScope& operator=(const LabelScope&) = delete;

private:
    const QgsProcessingAlgorithm* mPrevious;
};
/**
 * Returns how errors name the parameter `parameterName`: "Small area id field — REGION_ID_FIELD" where
 * labels are shown, within a LabelScope of an algorithm that has it (the label for the dialog, the name for
 * scripts), else the name.
 */
QString parameterTitle(const QString& parameterName);
/** Returns the error every user-fixable problem becomes: "PARAMETER: message", the parameter as
 * parameterTitle() names it. */
QgsProcessingException parameterError(const QString& parameterName, const QString& message);
/** Returns the error a canceled run ends with; nothing has been written when it is thrown. */
QgsProcessingException canceledError();
/**
 * Marks the output `definition` as for the custodian's review only, never to publish (docs/publishing.md),
 * or, with `when`, as review only when the boolean parameter `when` is true (KEEP_SUPPRESSED): the output
 * guard keeps review outputs out of files that are published.
 */
void markForReview(QgsProcessingParameterDefinition& definition, const QString& when = QString());
/** Returns `definition` marked by markForReview(). */
template <typename Definition> Definition* forReview(Definition* definition, const QString& when = QString())
{
    markForReview(*definition, when);
    return definition;
}
/** Returns true when the output `definition` of an algorithm run with `parameters` is for review only. */
bool isForReview(const QgsProcessingParameterDefinition& definition, const QVariantMap& parameters,
                 QgsProcessingContext& context);
/**
 * Returns the number of records `feature` stands for: 1 without a count field
 * (`countFieldIndex` -1), else the field's value under vbas::wholeRecordCount's rule (text holding
 * one is accepted, as CSV files deliver it). Throws countError for anything else, NULL included.
 */
qint64 recordCount(const QgsFeature& feature, int countFieldIndex);
/** Returns the COUNT_FIELD error for `row` (how the user finds it) holding the count text `count`. */
QgsProcessingException countError(const QString& row, const QString& count);
} // namespace VbasParameters

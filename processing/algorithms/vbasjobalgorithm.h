#pragma once

#include "Pipeline.h"
#include "vbasalgorithmbase.h"
#include "vbasconvert.h"
#include "vbasqgiscompat.h"
#include "vbasjob.h"

#include <qgsprocessingutils.h>

#include <memory>
#include <optional>

/**
 * Base of the algorithms that run the engine on regions and records: the parameters they share
 * (the data, the strategies of each stage, built from the engine's registry), reading them into
 * engine types, and the map from engine error subjects to these parameter names.
 */
class VbasJobAlgorithm : public VbasAlgorithmBase
{
public:
    // Parameter names (those the io layer names are in VbasParameters). Saved models and scripts store
    // them: never rename.
    static inline const QString kRecords = QStringLiteral("RECORDS");
    static inline const QString kRepresentativePoint = QStringLiteral("REPRESENTATIVE_POINT");
    static inline const QString kGlobalSuppression = QStringLiteral("GLOBAL_SUPPRESSION");
    static inline const QString kSiteCountMethod = QStringLiteral("SITE_COUNT_METHOD");
    static inline const QString kSiteCount = QStringLiteral("SITE_COUNT");
    static inline const QString kSiteCountOffset = QStringLiteral("SITE_COUNT_OFFSET");
    static inline const QString kGapsModel = QStringLiteral("GAPS_MODEL");
    static inline const QString kGapsC = QStringLiteral("GAPS_C");
    static inline const QString kGapsB = QStringLiteral("GAPS_B");
    static inline const QString kSiteLocation = QStringLiteral("SITE_LOCATION");
    static inline const QString kCellCentre = QStringLiteral("CELL_CENTRE");
    static inline const QString kAdc = QStringLiteral("ADC");
    static inline const QString kAdcMaxMoves = QStringLiteral("ADC_MAX_MOVES");
    static inline const QString kAdcMaxSeconds = QStringLiteral("ADC_MAX_SECONDS");
    static inline const QString kPartition = QStringLiteral("PARTITION");
    static inline const QString kParentField = QStringLiteral("PARENT_FIELD");
    static inline const QString kContiguity = QStringLiteral("CONTIGUITY");
    static inline const QString kAdjacencyTolerance = QStringLiteral("ADJACENCY_TOLERANCE");
    static inline const QString kSeed = QStringLiteral("SEED");
    static inline const QString kMaxRisk = QStringLiteral("MAX_RISK");
    /** The id of the refinement the ADC switch turns on. */
    static inline const QString kAdcRefinement = QStringLiteral("refinement.adc");

    /** Whether a strategy parameter takes one method (a release) or several (a comparison). */
    enum class StrategyChoice
    {
        One,
        Several,
    };

    using Job = VbasJob;

protected:
    /** Adds REGIONS, REGION_ID_FIELD, RECORDS, RECORD_REGION_FIELD, QUASI_IDENTIFIERS, SENSITIVE_FIELDS,
     * COUNT_FIELD, K, MAX_RISK, L, L_MEASURE, GLOBAL_SUPPRESSION, REPRESENTATIVE_POINT and UNKNOWN_REGIONS.
     */
    void addDataParameters();
    /**
     * Adds SITE_COUNT_METHOD, SITE_COUNT, SITE_COUNT_OFFSET, GAPS_MODEL, GAPS_C and GAPS_B; with
     * StrategyChoice::Several, SITE_COUNT_METHOD takes several methods.
     */
    void addSiteCountParameters(StrategyChoice choice = StrategyChoice::One);
    /**
     * Adds SITE_LOCATION, CELL_CENTRE, ADC, ADC_MAX_MOVES, ADC_MAX_SECONDS and SEED; with
     * StrategyChoice::Several, SITE_LOCATION takes several methods and ADC means "also with ADC".
     */
    void addSiteLocationParameters(StrategyChoice choice = StrategyChoice::One);
    /** Adds PARTITION, OBSTACLES, PARENT_FIELD, CONTIGUITY and ADJACENCY_TOLERANCE. */
    void addPartitionParameters();

    /**
     * Returns the k the parameters ask for: ceil(1 / MAX_RISK) when a highest re-identification risk is
     * given, else K; says which in the log.
     */
    vbas::Count parameterAsRequiredK(const QVariantMap& parameters, QgsProcessingContext& context,
                                     QgsProcessingFeedback* feedback = nullptr) const;

    /**
     * Reads the data parameters, failing fast on bad ones, and loads regions and records through
     * the engine funnel; progress runs to `progressEnd` (0..1) of the whole algorithm.
     */
    Job loadJob(const QVariantMap& parameters, QgsProcessingContext& context, QgsProcessingFeedback* feedback,
                double progressEnd) const;
    /**
     * Returns the pipeline the strategy parameters describe, built through the funnel. Without a job
     * it checks the configuration before any data is read; with the loaded job it adds the job's
     * obstacles, parents, adjacency and contiguity repair.
     */
    std::unique_ptr<vbas::Pipeline> makePipeline(const QVariantMap& parameters, QgsProcessingContext& context,
                                                 QgsProcessingFeedback* feedback,
                                                 const Job* job = nullptr) const;
    /**
     * Refuses a field given two roles (region, count, quasi-identifier, sensitive, released) and a data
     * provider's key given to be published; logs the fields that are not published.
     */
    void checkRoles(const Job& job, const QVariantMap& parameters, QgsProcessingContext& context,
                    QgsProcessingFeedback* feedback) const;
    /** Adds the loaded job's spatial inputs and the CONTIGUITY choice to `config`. */
    void applySpatial(vbas::PipelineConfig& config, const QVariantMap& parameters,
                      QgsProcessingContext& context, const Job& job) const;
    /** Returns the registry ids chosen in the strategy parameter `name` (at least one, else it throws). */
    QStringList parameterAsStrategyIds(const QVariantMap& parameters, const QString& name,
                                       QgsProcessingContext& context) const;
    /**
     * Returns the configuration the strategy parameters describe (the first method where several were
     * chosen); those an algorithm lacks keep their defaults.
     */
    vbas::PipelineConfig pipelineConfig(const QVariantMap& parameters, QgsProcessingContext& context) const;

    /**
     * Throws, naming `parameter`, unless `source` holds geometries of `type` (`typeName` in the
     * message: "polygons", "points"); scripts and models can pass any layer.
     */
    static void requireGeometryType(const QgsFeatureSource& source, const QString& parameter,
                                    decltype(VbasCompat::GeometryPolygon) type, const QString& typeName);

    /** Returns the registry's ids of `entries`, the values of a strategy enum parameter. */
    template <typename Entry> static QStringList strategyIds(const std::vector<Entry>& entries)
    {
        QStringList ids;
        for (const Entry& entry : entries)
            ids << QString::fromStdString(entry.id);
        return ids;
    }
    /** Returns one line "id: name, help" per entry, for a strategy parameter's help. */
    template <typename Entry> static QString strategyHelp(const std::vector<Entry>& entries)
    {
        QStringList lines;
        for (const Entry& entry : entries)
            lines << QStringLiteral("%1: %2, %3")
                         .arg(QString::fromStdString(entry.id), QString::fromStdString(entry.name),
                              QString::fromStdString(entry.help));
        return lines.join('\n');
    }
};

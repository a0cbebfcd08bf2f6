#pragma once

#include "Pipeline.h"
#include "vbasalgorithmbase.h"
#include "vbasconvert.h"
#include "vbasjob.h"
#include "vbasqgiscompat.h"

#include <qgsprocessingutils.h>

#include <map>
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
    // The strategies' options (SITE_COUNT, GAPS_MODEL, SEED...) and refinement switches (ADC) are named
    // by the engine's registry: optionParameterName().

    /** Returns the parameter of a strategy option or refinement switch: its key upper-cased. */
    static QString optionParameterName(const std::string& key)
    {
        return QString::fromStdString(key).toUpper();
    }

    /**
     * Returns one line "name: help" per entry, for a strategy parameter's help, with the option keys the help
     * names shown as parameter names.
     */
    template <typename Entry> static QString strategyHelp(const std::vector<Entry>& entries)
    {
        QStringList lines;
        for (const Entry& entry : entries)
            lines << QStringLiteral("%1: %2").arg(QString::fromStdString(entry.name),
                                                  withParameterNames(entry.help));
        return lines.join('\n');
    }
    /** Returns `text` (engine help) with every registered option key and switch key upper-cased. */
    static QString withParameterNames(const std::string& text);

    /** Whether a strategy parameter takes one method (a release) or several (a comparison). */
    enum class StrategyChoice
    {
        One,
        Several,
    };

    using Job = VbasJob;

protected:
    /** What the quasi-identifiers are to an algorithm. */
    enum class QuasiIdentifiers
    {
        Required, //!< a release protects records against anyone who knows them: at least one
        Optional, //!< a stage or estimate may run without them
        None,     //!< a population floor: none (the algorithm says so)
    };
    /** Adds REGIONS, REGION_ID_FIELD, RECORDS, RECORD_REGION_FIELD, QUASI_IDENTIFIERS (as `quasiIdentifiers`
     * says), SENSITIVE_FIELDS, COUNT_FIELD, K, MAX_RISK, L, L_MEASURE, GLOBAL_SUPPRESSION,
     * REPRESENTATIVE_POINT, UNKNOWN_REGIONS, MAX_DROPPED, NULL_COUNT_AS_ZERO and COMPUTATION_CRS.
     */
    void addDataParameters(QuasiIdentifiers quasiIdentifiers = QuasiIdentifiers::Required);
    /** Adds GENERALIZATION and HIERARCHY_TABLES (both optional: without them nothing is generalized). */
    void addGeneralizationParameters();
    /** The layer behind RECORDS, given whole or as a source definition (selected features, feature limit). */
    const QgsVectorLayer* recordsLayer(const QVariantMap& parameters, QgsProcessingContext& context) const;
    /**
     * The layer behind RECORDS when QGIS reads it whole (no selected features only, no feature limit), for
     * reading it through GDAL's Arrow stream; nullptr otherwise.
     */
    const QgsVectorLayer* wholeRecordsLayer(const QVariantMap& parameters,
                                            QgsProcessingContext& context) const;
    /** Returns the text of every HIERARCHY_TABLES file by the field its name names. */
    std::map<std::string, std::string> parameterAsHierarchyTables(const QVariantMap& parameters,
                                                                  QgsProcessingContext& context) const;
    /** How the quasi-identifiers may be generalized: the hierarchy specs and the ARX tables by field. */
    struct GeneralizationDefinition
    {
        std::string text;
        std::map<std::string, std::string> tables;
        /** Numeric quasi-identifiers the text does not name get the automatic bands (GENERALIZATION's
         * default); a release at an earlier release's levels takes that one's text as it is. */
        bool bandNumbers = false;
        bool empty() const { return text.empty() && tables.empty(); }
    };
    /** The generalization loadJob() builds the hierarchies of: by default GENERALIZATION and
     * HIERARCHY_TABLES, numeric quasi-identifiers banded automatically unless named. */
    virtual GeneralizationDefinition generalizationDefinition(const QVariantMap& parameters,
                                                              QgsProcessingContext& context) const;
    /**
     * Adds SITE_COUNT_METHOD and a parameter for every option the registered site counters declare
     * (SITE_COUNT, SITE_COUNT_OFFSET, GAPS_MODEL...); with StrategyChoice::Several,
     * SITE_COUNT_METHOD takes several methods. `defaults` gives the method chosen by default (the
     * engine's recommended release, or the thesis's method).
     */
    void addSiteCountParameters(StrategyChoice choice = StrategyChoice::One,
                                const vbas::PipelineConfig& defaults = vbas::recommendedConfig());
    /**
     * Adds SITE_LOCATION, the options of the registered site locators (CELL_CENTRE, SEED...), a switch
     * for every registered refinement (ADC) and their options (ADC_MAX_MOVES...); with
     * StrategyChoice::Several, SITE_LOCATION takes several methods and a switch means "also refined".
     * With one method, the switch of the engine's recommended refinement is on by default.
     */
    void addSiteLocationParameters(StrategyChoice choice = StrategyChoice::One);
    /**
     * Adds PARTITION, the options of the registered partitioners, OBSTACLES, PARENT_FIELD, CONTIGUITY,
     * a switch for every registered boundary refinement (REFINE_BOUNDARIES...) with their options, and
     * ADJACENCY_TOLERANCE. `recommendedBoundaries`: the switch of the engine's recommended boundary
     * refinement is on by default (off where the user places the sites, selects them for that, or
     * compares methods).
     */
    void addPartitionParameters(bool recommendedBoundaries = true);

    /**
     * Returns the k the parameters ask for: ceil(1 / MAX_RISK) when a highest re-identification risk is
     * given, else K; says which in the log.
     */
    vbas::Count parameterAsRequiredK(const QVariantMap& parameters, QgsProcessingContext& context,
                                     QgsProcessingFeedback* feedback = nullptr) const;

    /**
     * Reads the data parameters, failing fast on bad ones, and loads regions, records, obstacles and
     * parents through the engine funnel, reporting progress to `feedback` (a step of the algorithm's).
     */
    Job loadJob(const QVariantMap& parameters, QgsProcessingContext& context,
                QgsProcessingFeedback* feedback) const;
    /**
     * Returns the pipeline the strategy parameters describe, built through the funnel: a bad
     * configuration fails here, before any data is read.
     */
    std::unique_ptr<vbas::Pipeline> makePipeline(const QVariantMap& parameters, QgsProcessingContext& context,
                                                 QgsProcessingFeedback* feedback) const;
    /**
     * Refuses a field given two roles (region, count, quasi-identifier, sensitive, released) and a data
     * provider's key given to be published; logs the fields that are not published.
     */
    void checkRoles(const Job& job, const QVariantMap& parameters, QgsProcessingContext& context,
                    QgsProcessingFeedback* feedback) const;
    /** Returns the registry ids chosen in the strategy parameter `name` (at least one, else it throws). */
    QStringList parameterAsStrategyIds(const QVariantMap& parameters, const QString& name,
                                       QgsProcessingContext& context) const;
    /**
     * Returns the ids of the refinements whose switch (ADC...) is on, in registry order; when several are,
     * those given in `parameters` (a switch on only by default gives way).
     */
    QStringList parameterAsRefinerIds(const QVariantMap& parameters, QgsProcessingContext& context) const;
    /** The same for the boundary refinements (REFINE_BOUNDARIES...). */
    QStringList parameterAsBoundaryRefinerIds(const QVariantMap& parameters,
                                              QgsProcessingContext& context) const;
    /** The ids of `entries` whose switch is on, as parameterAsRefinerIds() says. */
    template <typename Entry>
    QStringList switchedOnIds(const std::vector<Entry>& entries, const QVariantMap& parameters,
                              QgsProcessingContext& context) const;
    /**
     * Adds a switch for every refinement of `entries` (`label`: its text, %1 the name; among the advanced
     * settings when `advanced`), then their options.
     */
    template <typename Entry>
    void addRefinerSwitches(const std::vector<Entry>& entries, const QString& label,
                            const std::string& onByDefault, bool advanced);
    /**
     * Returns the configuration the strategy parameters describe (the first method where several were
     * chosen); those an algorithm lacks keep their defaults. Says in the log which k a MAX_RISK gives.
     */
    vbas::PipelineConfig pipelineConfig(const QVariantMap& parameters, QgsProcessingContext& context,
                                        QgsProcessingFeedback* feedback) const;

    /**
     * Throws, naming `parameter`, unless `source` holds geometries of `type` (`typeName` in the
     * message: "polygons", "points"); scripts and models can pass any layer.
     */
    static void requireGeometryType(const QgsFeatureSource& source, const QString& parameter,
                                    decltype(VbasCompat::GeometryPolygon) type, const QString& typeName);

private:
    /**
     * Adds a parameter for every option of `entries` that no earlier parameter has (options shared by
     * several strategies become one parameter); its help says which strategies read it.
     */
    template <typename Entry> void addOptionParameters(const std::vector<Entry>& entries);
    /** Reads the parameter of every registered option this algorithm has into `options`. */
    void readOptions(const QVariantMap& parameters, QgsProcessingContext& context,
                     vbas::StrategyOptions& options) const;
};

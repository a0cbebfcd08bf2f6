#pragma once

#include "Pipeline.h"
#include "vbasparameters.h"

#include <QStringList>

#include <memory>
#include <string>
#include <vector>

class QgsProcessingFeedback;
class VbasAlgorithm;
class VbasParameterReader;

/**
 * The parameters of how the engine makes regions: the strategy of each stage and their options, built from
 * the engine's registry (a strategy added there needs nothing here). The add...To() functions declare them
 * on an algorithm; readConfig() reads them into the engine's configuration.
 */
namespace VbasStrategyParameters
{
/** Whether a strategy parameter takes one method (a release) or several (a comparison). */
enum class Choice
{
    One,
    Several,
};

/**
 * Adds SITE_COUNT_METHOD and a parameter for every option the registered site counters declare
 * (SITE_COUNT, SITE_COUNT_OFFSET, GAPS_MODEL...); with Choice::Several, SITE_COUNT_METHOD takes several
 * methods. `defaults` gives the method chosen by default (the engine's recommended release, or the thesis's
 * method).
 */
void addSiteCountTo(VbasAlgorithm& algorithm, Choice choice = Choice::One,
                    const vbas::PipelineConfig& defaults = vbas::recommendedConfig());
/**
 * Adds SITE_LOCATION, the options of the registered site locators (CELL_CENTRE, SEED...), a switch
 * for every registered refinement (ADC) and their options (ADC_MAX_MOVES...); with Choice::Several,
 * SITE_LOCATION takes several methods and a switch means "also refined". With one method, the switch of
 * the engine's recommended refinement is on by default.
 */
void addSiteLocationTo(VbasAlgorithm& algorithm, Choice choice = Choice::One);
/**
 * Adds PARTITION, the options of the registered partitioners, OBSTACLES, PARENT_FIELD, CONTIGUITY,
 * a switch for every registered boundary refinement (REFINE_BOUNDARIES...) with their options, and
 * ADJACENCY_TOLERANCE. `recommendedBoundaries`: the switch of the engine's recommended boundary
 * refinement is on by default (off where the user places the sites, selects them for that, or
 * compares methods).
 */
void addPartitionTo(VbasAlgorithm& algorithm, bool recommendedBoundaries = true);
/**
 * Adds a parameter for every option the registered privacy criteria declare (L, L_MEASURE, C, T...): a
 * criterion added to the registry needs nothing here.
 */
void addCriteriaTo(VbasAlgorithm& algorithm);
/** Adds a parameter for every option the registered suppressions declare (K_COUNTS...). */
void addSuppressionTo(VbasAlgorithm& algorithm);

/**
 * Returns the configuration the strategy parameters describe (the first method where several were
 * chosen); those an algorithm lacks keep their defaults. Says in the log which k a MAX_RISK gives.
 */
vbas::PipelineConfig readConfig(const VbasParameterReader& read, QgsProcessingFeedback* feedback);
/** Returns the privacy criteria besides k the criterion parameters (L, L_MEASURE, T...) turn on. */
vbas::Criteria readCriteria(const VbasParameterReader& read);
/**
 * Returns the pipeline the strategy parameters describe, built through the engine funnel: a bad
 * configuration fails here, before any data is read.
 */
std::unique_ptr<vbas::Pipeline> makePipeline(const VbasParameterReader& read,
                                             QgsProcessingFeedback* feedback);
/**
 * Returns the ids of the refinements whose switch (ADC...) is on, in registry order; when several are,
 * those given in the parameters (a switch on only by default gives way).
 */
QStringList refinerIds(const VbasParameterReader& read);
/** The same for the boundary refinements (REFINE_BOUNDARIES...). */
QStringList boundaryRefinerIds(const VbasParameterReader& read);

/**
 * Adds a parameter for each of `specs` (options declared outside the registry, such as the rate settings),
 * named by the upper-cased key.
 */
void addOptionsTo(VbasAlgorithm& algorithm, const std::vector<vbas::OptionSpec>& specs);
/** Returns the values of the parameters addOptionsTo() added for `specs` (those absent keep their default).
 */
vbas::StrategyOptions readOptions(const VbasParameterReader& read,
                                  const std::vector<vbas::OptionSpec>& specs);

/** Returns `text` (engine help) with every registered option key and switch key upper-cased. */
QString withParameterNames(const std::string& text);
/**
 * Returns one line "name: help" per entry, for a strategy parameter's help, with the option keys the help
 * names shown as parameter names.
 */
template <typename Entry> QString strategyHelp(const std::vector<Entry>& entries)
{
    QStringList lines;
    for (const Entry& entry : entries)
        lines << QStringLiteral("%1: %2").arg(QString::fromStdString(entry.name),
                                              withParameterNames(entry.help));
    return lines.join('\n');
}
} // namespace VbasStrategyParameters

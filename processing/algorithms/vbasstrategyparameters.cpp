#include "vbasstrategyparameters.h"

#include "sitecount/SuppressionBudget.h"
#include "vbasdataparameters.h"

#include "vbasalgorithm.h"
#include "vbaschoiceparameter.h"
#include "vbasparameterreader.h"
#include "vbasqgiscompat.h"

#include <qgsapplication.h>
#include <qgsprocessingparameters.h>

#include <QHash>
#include <QMutex>
#include <QRegularExpression>

#include <cmath>
#include <limits>

using namespace VbasParameters;

namespace
{
/**
 * Returns the parameter choosing among registered strategies: shown by their names, stored and read by
 * their ids, one line of help per strategy.
 */
template <typename Entry>
VbasChoiceParameter* strategyChoice(const QString& name, const QString& description,
                                    const std::vector<Entry>& entries, const std::string& defaultId,
                                    bool several)
{
    QVector<VbasChoiceParameter::Choice> choices;
    for (const Entry& entry : entries)
        choices.push_back({QString::fromStdString(entry.id), QString::fromStdString(entry.name)});
    auto* parameter =
        new VbasChoiceParameter(name, description, choices, several, QString::fromStdString(defaultId));
    parameter->setHelp(VbasStrategyParameters::strategyHelp(entries));
    return parameter;
}

QStringList texts(const std::vector<std::string>& values)
{
    QStringList list;
    for (const std::string& value : values)
        list << QString::fromStdString(value);
    return list;
}

/** Calls `visit(entries)` for the strategy list of every component that has options. */
template <typename Visit> void forEachComponent(const vbas::Registry& registry, Visit visit)
{
    visit(registry.siteCounters);
    visit(registry.siteLocators);
    visit(registry.siteRefiners);
    visit(registry.partitioners);
    visit(registry.boundaryRefiners);
    visit(registry.suppressors);
    visit(registry.criteria);
}

/** Returns the names of `entries` that declare the option `key`. */
template <typename Entry> QStringList namesReading(const std::vector<Entry>& entries, const std::string& key)
{
    QStringList names;
    for (const Entry& entry : entries)
        for (const vbas::OptionSpec& spec : entry.options)
            if (spec.key == key)
                names << QString::fromStdString(entry.name);
    return names;
}

/**
 * Returns the parameter a strategy option is shown as (QGIS's own bounds stand for an open range). It is
 * optional with the option's default, as is every parameter added after the first release: QGIS refuses
 * a saved model whose step lacks a mandatory parameter, so a new strategy's options must not be.
 */
QgsProcessingParameterDefinition* optionParameter(const vbas::OptionSpec& spec, const QString& help)
{
    const QString name = optionParameterName(spec.key);
    const QString label = QString::fromStdString(spec.label);
    const double minimum =
        std::isfinite(spec.minimum) ? spec.minimum : std::numeric_limits<double>::lowest() + 1;
    const double maximum = std::isfinite(spec.maximum) ? spec.maximum : std::numeric_limits<double>::max();
    QgsProcessingParameterDefinition* definition = nullptr;
    switch (spec.type)
    {
    case vbas::OptionSpec::Type::Choice:
        definition = vbasWordChoice(name, label, texts(spec.choices),
                                    QString::fromStdString(spec.defaultChoice), help, true);
        break;
    case vbas::OptionSpec::Type::Flag:
        definition = vbasWithHelp(
            new QgsProcessingParameterBoolean(name, label, spec.defaultValue != 0.0, true), help);
        break;
    case vbas::OptionSpec::Type::Integer:
        definition = vbasWithHelp(new QgsProcessingParameterNumber(name, label, VbasCompat::NumberTypeInteger,
                                                                   static_cast<int>(spec.defaultValue), true,
                                                                   minimum, maximum),
                                  help);
        break;
    case vbas::OptionSpec::Type::Number:
        definition = vbasWithHelp(new QgsProcessingParameterNumber(name, label, VbasCompat::NumberTypeDouble,
                                                                   spec.defaultValue, true, minimum, maximum),
                                  help);
        break;
    }
    return spec.advanced ? VbasCompat::advanced(definition) : definition;
}

/**
 * Adds a parameter for every option of `entries` that no earlier parameter has (options shared by
 * several strategies become one parameter); its help says which strategies read it.
 */
template <typename Entry>
void addOptionParameters(VbasAlgorithm& algorithm, const std::vector<Entry>& entries)
{
    for (const Entry& entry : entries)
        for (const vbas::OptionSpec& spec : entry.options)
        {
            if (algorithm.parameterDefinition(optionParameterName(spec.key)) != nullptr)
                continue;
            QString help = VbasStrategyParameters::withParameterNames(spec.help);
            help +=
                (help.isEmpty() ? QString() : QStringLiteral("\n")) +
                QObject::tr("Used by: %1").arg(namesReading(entries, spec.key).join(QStringLiteral(", ")));
            algorithm.addParameter(optionParameter(spec, help));
        }
}

/** Reads the parameter of option `spec` into `options` when the algorithm has it and `options` lacks it. */
void readOption(const VbasParameterReader& read, const vbas::OptionSpec& spec, vbas::StrategyOptions& options)
{
    const QString name = optionParameterName(spec.key);
    if (options.has(spec.key) || !read.has(name))
        return;
    switch (spec.type)
    {
    case vbas::OptionSpec::Type::Choice:
        options.set(spec.key, read.choiceId(name).toStdString());
        break;
    case vbas::OptionSpec::Type::Flag:
        options.set(spec.key, read.asBoolean(name) ? 1.0 : 0.0);
        break;
    case vbas::OptionSpec::Type::Integer:
    case vbas::OptionSpec::Type::Number:
        options.set(spec.key, read.asDouble(name));
        break;
    }
}

/** Reads the parameter of every registered option the algorithm has into `options`. */
void readRegistryOptions(const VbasParameterReader& read, vbas::StrategyOptions& options)
{
    forEachComponent(vbas::Registry::builtIn(),
                     [&](const auto& entries)
                     {
                         for (const auto& entry : entries)
                             for (const vbas::OptionSpec& spec : entry.options)
                                 readOption(read, spec, options);
                     });
}

/**
 * Adds a switch for every refinement of `entries` (`label`: its text, %1 the name; among the advanced
 * settings when `advanced`), then their options.
 */
template <typename Entry>
void addRefinerSwitches(VbasAlgorithm& algorithm, const std::vector<Entry>& entries, const QString& label,
                        const std::string& onByDefault, bool advanced)
{
    for (const Entry& refiner : entries)
    {
        auto* on =
            vbasWithHelp(new QgsProcessingParameterBoolean(optionParameterName(refiner.switchKey),
                                                           label.arg(QString::fromStdString(refiner.name)),
                                                           refiner.id == onByDefault, true),
                         VbasStrategyParameters::withParameterNames(refiner.help));
        algorithm.addParameter(advanced ? VbasCompat::advanced(on) : on);
    }
    addOptionParameters(algorithm, entries);
}

/**
 * Returns the ids of `entries` whose switch is on, in registry order; when several are, those given in the
 * parameters (a switch on only by default gives way).
 */
template <typename Entry>
QStringList switchedOnIds(const std::vector<Entry>& entries, const VbasParameterReader& read)
{
    QStringList ids, given;
    for (const Entry& refiner : entries)
    {
        const QString name = optionParameterName(refiner.switchKey);
        if (!read.has(name) || !read.asBoolean(name))
            continue;
        ids << QString::fromStdString(refiner.id);
        if (read.parameters().contains(name))
            given << QString::fromStdString(refiner.id);
    }
    // A switch turned on by a script or model wins over one that is on only by default (ADC=true
    // alone replaces the default refinement); two turned on explicitly stay an error.
    return ids.size() > 1 && !given.isEmpty() ? given : ids;
}
} // namespace

QString VbasStrategyParameters::withParameterNames(const std::string& text)
{
    // Every algorithm instance (one per run) builds its help from these texts: render each text once, as
    // compiling a pattern per option key per text made creating an algorithm cost more than a small run.
    static QMutex mutex;
    static QHash<QString, QString> rendered;
    const QString original = QString::fromStdString(text);
    const QMutexLocker lock(&mutex);
    const auto found = rendered.constFind(original);
    if (found != rendered.constEnd())
        return found.value();
    QString shown = original;
    const auto upper = [&shown](const std::string& key)
    {
        const QString name = QString::fromStdString(key);
        shown.replace(QRegularExpression(QStringLiteral("\\b%1\\b").arg(QRegularExpression::escape(name))),
                      optionParameterName(key));
    };
    forEachComponent(vbas::Registry::builtIn(),
                     [&](const auto& entries)
                     {
                         for (const auto& entry : entries)
                         {
                             for (const vbas::OptionSpec& spec : entry.options)
                                 upper(spec.key);
                             if (!entry.switchKey.empty())
                                 upper(entry.switchKey);
                         }
                     });
    rendered.insert(original, shown);
    return shown;
}

void VbasStrategyParameters::addSiteCountTo(VbasAlgorithm& algorithm, Choice choice,
                                            const vbas::PipelineConfig& defaults)
{
    const vbas::Registry& registry = vbas::Registry::builtIn();
    const bool several = choice == Choice::Several;
    auto* method = strategyChoice(
        kSiteCountMethod,
        several ? QObject::tr("Ways to choose the number of regions, to compare")
                : QObject::tr("How the number of regions is chosen"),
        registry.siteCounters, several ? vbas::PipelineConfig{}.siteCounter : defaults.siteCounter, several);
    algorithm.addParameter(several ? method : VbasCompat::advanced(method));
    addOptionParameters(algorithm, registry.siteCounters);
    // The suppression budget is the configuration's, shown as an option of the counters that read it.
    QStringList readers;
    for (const auto& counter : registry.siteCounters)
        if (counter.needs.suppressionBudget)
            readers << QString::fromStdString(counter.name);
    const vbas::OptionSpec& budget = vbas::suppressionBudgetOption();
    algorithm.addParameter(
        optionParameter(budget, withParameterNames(budget.help) + QStringLiteral("\n") +
                                    QObject::tr("Used by: %1").arg(readers.join(QStringLiteral(", ")))));
}

void VbasStrategyParameters::addSiteLocationTo(VbasAlgorithm& algorithm, Choice choice)
{
    const vbas::Registry& registry = vbas::Registry::builtIn();
    const bool several = choice == Choice::Several;
    auto* method = strategyChoice(kSiteLocation,
                                  several ? QObject::tr("Ways to place the region centres, to compare")
                                          : QObject::tr("How the region centres (sites) are placed"),
                                  registry.siteLocators, vbas::PipelineConfig{}.siteLocator, several);
    algorithm.addParameter(several ? method : VbasCompat::advanced(method));
    addOptionParameters(algorithm, registry.siteLocators);
    addRefinerSwitches(algorithm, registry.siteRefiners,
                       several ? QObject::tr("Also try every combination refined with %1")
                               : QObject::tr("Refine sites with %1"),
                       several ? std::string() : vbas::recommendedConfig().siteRefiner, !several);
}

void VbasStrategyParameters::addCriteriaTo(VbasAlgorithm& algorithm)
{
    addOptionParameters(algorithm, vbas::Registry::builtIn().criteria);
}

void VbasStrategyParameters::addSuppressionTo(VbasAlgorithm& algorithm)
{
    addOptionParameters(algorithm, vbas::Registry::builtIn().suppressors);
}

void VbasStrategyParameters::addPartitionTo(VbasAlgorithm& algorithm, bool recommendedBoundaries)
{
    // Every parameter added after the first release is optional, with a default: QGIS refuses a saved model
    // whose step lacks a mandatory parameter, even one with a default.
    const vbas::Registry& registry = vbas::Registry::builtIn();
    algorithm.addParameter(VbasCompat::advanced(
        strategyChoice(kPartition, QObject::tr("How small areas join a region centre"), registry.partitioners,
                       vbas::PipelineConfig{}.partitioner, false)));
    addOptionParameters(algorithm, registry.partitioners);
    QStringList usingObstacles;
    for (const auto& partitioner : registry.partitioners)
        if (partitioner.needs.obstacles)
            usingObstacles << QString::fromStdString(partitioner.name);
    algorithm.addParameter(VbasCompat::advanced(vbasWithHelp(
        new QgsProcessingParameterMultipleLayers(kObstacles,
                                                 QObject::tr("Obstacles (rivers, lakes, motorways)"),
                                                 VbasCompat::SourceTypeVector, QVariant(), true),
        QObject::tr(
            "Line and polygon layers in any CRS that people do not cross; used by the %1 ways of joining "
            "(see PARTITION). The others ignore them; small areas moved across region borders never cross "
            "them.")
            .arg(usingObstacles.join(QStringLiteral(", "))))));
    algorithm.addParameter(VbasCompat::advanced(vbasWithHelp(
        new QgsProcessingParameterField(kParentField,
                                        QObject::tr("Parent field (province, health authority)"), QVariant(),
                                        kRegions, VbasCompat::FieldTypeAny, false, true),
        QObject::tr(
            "A field of the small areas, e.g. a health district: no released region mixes small areas "
            "of different values, so the released region still tells the district."))));
    algorithm.addParameter(VbasCompat::advanced(vbasWithHelp(
        new QgsProcessingParameterBoolean(kContiguity, QObject::tr("Make every released region one piece"),
                                          false, true),
        QObject::tr("Moves small areas cut off from the rest of their region to the neighbouring region they "
                    "share the longest border with, before suppression; islands stay with the nearest "
                    "region."))));
    addRefinerSwitches(algorithm, registry.boundaryRefiners, QObject::tr("Refine region borders with %1"),
                       recommendedBoundaries ? vbas::recommendedConfig().boundaryRefiner : std::string(),
                       true);
    algorithm.addParameter(VbasCompat::advanced(vbasWithHelp(
        new QgsProcessingParameterNumber(kAdjacencyTolerance, QObject::tr("Neighbour tolerance (metres)"),
                                         VbasCompat::NumberTypeDouble, 0.0, true, 0.0),
        QObject::tr(
            "areas closer than this count as neighbours (slivers and gaps between digitised borders); "
            "0 takes a millionth of the extent of REGIONS."))));
}

std::unique_ptr<vbas::Pipeline> VbasStrategyParameters::makePipeline(const VbasParameterReader& read,
                                                                     QgsProcessingFeedback* feedback)
{
    const vbas::PipelineConfig config = readConfig(read, feedback);
    return read.runEngine(feedback,
                          [&](vbas::Feedback&) { return std::make_unique<vbas::Pipeline>(config); });
}

QStringList VbasStrategyParameters::refinerIds(const VbasParameterReader& read)
{
    return switchedOnIds(vbas::Registry::builtIn().siteRefiners, read);
}

QStringList VbasStrategyParameters::boundaryRefinerIds(const VbasParameterReader& read)
{
    return switchedOnIds(vbas::Registry::builtIn().boundaryRefiners, read);
}

vbas::Criteria VbasStrategyParameters::readCriteria(const VbasParameterReader& read)
{
    vbas::StrategyOptions options;
    readRegistryOptions(read, options);
    return read.runEngine(nullptr, [&](vbas::Feedback&)
                          { return vbas::Criteria::fromOptions(vbas::Registry::builtIn(), options); });
}

vbas::PipelineConfig VbasStrategyParameters::readConfig(const VbasParameterReader& read,
                                                        QgsProcessingFeedback* feedback)
{
    vbas::PipelineConfig config;
    config.k = read.requiredK(feedback);

    config.globalSuppression = read.asBoolean(kGlobalSuppression);
    const auto has = [&read](const QString& name)
    {
        return read.has(name);
    };
    if (has(kSiteCountMethod))
        config.siteCounter = read.strategyIds(kSiteCountMethod).value(0).toStdString();
    if (has(kSiteLocation))
    {
        config.siteLocator = read.strategyIds(kSiteLocation).value(0).toStdString();
        const QStringList refiners = refinerIds(read);
        const auto* locators = dynamic_cast<const QgsProcessingParameterEnum*>(
            read.algorithm().parameterDefinition(kSiteLocation));
        if (refiners.size() > 1 && !(locators && locators->allowMultiple()))
            throw QgsProcessingException(
                QObject::tr("%1 refinements are switched on; switch on one at most").arg(refiners.size()));
        config.siteRefiner = refiners.value(0).toStdString();
    }
    if (has(kPartition))
    {
        config.partitioner = read.strategyIds(kPartition).value(0).toStdString();
        config.repairContiguity = read.asBoolean(kContiguity);
        const QStringList boundaryRefiners = boundaryRefinerIds(read);
        if (boundaryRefiners.size() > 1)
            throw QgsProcessingException(
                QObject::tr("%1 boundary refinements are switched on; switch on one at most")
                    .arg(boundaryRefiners.size()));
        config.boundaryRefiner = boundaryRefiners.value(0).toStdString();
    }
    if (const QString budget = optionParameterName(vbas::suppressionBudgetOption().key); has(budget))
        config.suppressionBudget = read.asDouble(budget);
    if (has(kPartition))
        config.adjacencyTolerance = read.asDouble(kAdjacencyTolerance);
    config.generalization = VbasDataParameters::readGeneralization(read, feedback);
    // QGIS's "max cores to use" (Settings > Options > Rendering): one core means one release at a time.
    config.releasesSideBySide = QgsApplication::maxThreads() != 1;
    // Every option goes to the engine, which checks those of the chosen strategies against their specs.
    readRegistryOptions(read, config.options);
    return config;
}

void VbasStrategyParameters::addOptionsTo(VbasAlgorithm& algorithm,
                                          const std::vector<vbas::OptionSpec>& specs)
{
    for (const vbas::OptionSpec& spec : specs)
        algorithm.addParameter(optionParameter(spec, withParameterNames(spec.help)));
}

vbas::StrategyOptions VbasStrategyParameters::readOptions(const VbasParameterReader& read,
                                                          const std::vector<vbas::OptionSpec>& specs)
{
    vbas::StrategyOptions options;
    for (const vbas::OptionSpec& spec : specs)
        readOption(read, spec, options);
    return options;
}

#include "vbasjobalgorithm.h"

#include "RiskThreshold.h"
#include "generalization/HierarchyKinds.h"
#include "vbaschoiceparameter.h"
#include "vbasqgiscompat.h"

#include <qgsapplication.h>
#include <qgsprocessingparameters.h>
#include <qgsrectangle.h>
#include <qgsvectordataprovider.h>
#include <qgsvectorlayer.h>

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>

namespace
{
const QString kCentroid = QStringLiteral("centroid");
const QString kPointOnSurface = QStringLiteral("point_on_surface");
const QString kUnknownFail = QStringLiteral("fail");
const QString kUnknownDrop = QStringLiteral("drop");
const QString kGroupAutomatic = QStringLiteral("auto");
const QString kGroupDatabase = QStringLiteral("database");
const QString kGroupRows = QStringLiteral("rows");

/** Returns `definition` with its tooltip help set. */
template <typename Definition> Definition* withHelp(Definition* definition, const QString& help)
{
    definition->setHelp(help);
    return definition;
}

/** Returns a choice among words (stored and read as they are, shown as words: "point_on_surface" as
 * "Point on surface"). */
VbasChoiceParameter* wordChoice(const QString& name, const QString& description, const QStringList& values,
                                const QString& defaultValue, const QString& help, bool optional = false)
{
    return withHelp(new VbasChoiceParameter(name, description, VbasChoiceParameter::wordChoices(values),
                                            false, defaultValue, optional),
                    help);
}

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
    parameter->setHelp(VbasJobAlgorithm::strategyHelp(entries));
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
    const QString name = VbasJobAlgorithm::optionParameterName(spec.key);
    const QString label = QString::fromStdString(spec.label);
    const double minimum =
        std::isfinite(spec.minimum) ? spec.minimum : std::numeric_limits<double>::lowest() + 1;
    const double maximum = std::isfinite(spec.maximum) ? spec.maximum : std::numeric_limits<double>::max();
    QgsProcessingParameterDefinition* definition = nullptr;
    switch (spec.type)
    {
    case vbas::OptionSpec::Type::Choice:
        definition = wordChoice(name, label, texts(spec.choices), QString::fromStdString(spec.defaultChoice),
                                help, true);
        break;
    case vbas::OptionSpec::Type::Flag:
        definition =
            withHelp(new QgsProcessingParameterBoolean(name, label, spec.defaultValue != 0.0, true), help);
        break;
    case vbas::OptionSpec::Type::Integer:
        definition = withHelp(new QgsProcessingParameterNumber(name, label, VbasCompat::NumberTypeInteger,
                                                               static_cast<int>(spec.defaultValue), true,
                                                               minimum, maximum),
                              help);
        break;
    case vbas::OptionSpec::Type::Number:
        definition = withHelp(new QgsProcessingParameterNumber(name, label, VbasCompat::NumberTypeDouble,
                                                               spec.defaultValue, true, minimum, maximum),
                              help);
        break;
    }
    return spec.advanced ? VbasCompat::advanced(definition) : definition;
}
} // namespace

QString VbasJobAlgorithm::withParameterNames(const std::string& text)
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

template <typename Entry> void VbasJobAlgorithm::addOptionParameters(const std::vector<Entry>& entries)
{
    for (const Entry& entry : entries)
        for (const vbas::OptionSpec& spec : entry.options)
        {
            if (parameterDefinition(optionParameterName(spec.key)) != nullptr)
                continue;
            QString help = withParameterNames(spec.help);
            help +=
                (help.isEmpty() ? QString() : QStringLiteral("\n")) +
                QObject::tr("Used by: %1").arg(namesReading(entries, spec.key).join(QStringLiteral(", ")));
            addParameter(optionParameter(spec, help));
        }
}

void VbasJobAlgorithm::readOptions(const QVariantMap& parameters, QgsProcessingContext& context,
                                   vbas::StrategyOptions& options) const
{
    forEachComponent(
        vbas::Registry::builtIn(),
        [&](const auto& entries)
        {
            for (const auto& entry : entries)
                for (const vbas::OptionSpec& spec : entry.options)
                {
                    const QString name = optionParameterName(spec.key);
                    if (options.has(spec.key) || parameterDefinition(name) == nullptr)
                        continue;
                    switch (spec.type)
                    {
                    case vbas::OptionSpec::Type::Choice:
                        options.set(spec.key, parameterAsChoiceId(parameters, name, context).toStdString());
                        break;
                    case vbas::OptionSpec::Type::Flag:
                        options.set(spec.key, parameterAsBoolean(parameters, name, context) ? 1.0 : 0.0);
                        break;
                    case vbas::OptionSpec::Type::Integer:
                    case vbas::OptionSpec::Type::Number:
                        options.set(spec.key, parameterAsDouble(parameters, name, context));
                        break;
                    }
                }
        });
}

void VbasJobAlgorithm::addDataParameters(QuasiIdentifiers quasiIdentifiers)
{
    addParameter(withHelp(
        new QgsProcessingParameterFeatureSource(kRegions, QObject::tr("Small areas"),
                                                {static_cast<int>(VbasCompat::SourceTypeVectorPolygon)}),
        QObject::tr("The polygons of the small areas the records are coded by: census tracts, postal areas, "
                    "municipalities. Any CRS: a geographic one is projected for the computation, and the "
                    "results come back in it.")));
    // Field parameters start empty (the widget would offer a layer's first field, which is rarely the
    // right one): the user chooses, and the join check says when two fields do not correspond.
    addParameter(withHelp(new QgsProcessingParameterField(kRegionIdField, QObject::tr("Small area id field"),
                                                          QStringLiteral(""), kRegions),
                          QObject::tr("The field of the small areas that holds their id, e.g. a tract code "
                                      "such as 260960005000213; the records name their small area by it.")));
    addParameter(withHelp(
        new QgsProcessingParameterFeatureSource(kRecords, QObject::tr("Records"),
                                                {static_cast<int>(VbasCompat::SourceTypeVector)}),
        QObject::tr("The records to release, one row each (a case list, a patient table): any table QGIS "
                    "reads, a CSV, a GeoPackage, a PostgreSQL table. Their geometries are never used.")));
    addParameter(withHelp(
        new QgsProcessingParameterField(kRecordRegionField, QObject::tr("Small area of each record"),
                                        QStringLiteral(""), kRecords),
        QObject::tr("The field of the records that names each record's small area, with the same values as "
                    "the small area id field (compared as text), e.g. 'tract'.")));
    if (quasiIdentifiers != QuasiIdentifiers::None)
        addQuasiIdentifiersParameter(kRecords, quasiIdentifiers == QuasiIdentifiers::Required);
    addCountFieldParameter(kRecords);
    addKParameter();
    addParameter(VbasCompat::advanced(withHelp(
        new QgsProcessingParameterNumber(kMaxRisk, QObject::tr("Highest re-identification risk (0: use k)"),
                                         VbasCompat::NumberTypeDouble, 0.0, true, 0.0, 0.5),
        QObject::tr(
            "The policy form of k: the highest chance of re-identifying a released record, e.g. 0.2 for "
            "1 in 5. When set, k = ceil(1 / risk) replaces K: 0.2 gives k = 5, 0.09 gives k = 12; the "
            "log and the report show both."))));
    if (quasiIdentifiers != QuasiIdentifiers::None)
        addDiversityParameters(kRecords, false);
    addParameter(VbasCompat::advanced(
        withHelp(new QgsProcessingParameterBoolean(
                     kGlobalSuppression, QObject::tr("Withhold records rare in the whole table first"), true),
                 QObject::tr("Withholds, before merging, the records whose quasi-identifier values occur "
                             "fewer than k times in the whole table: no region could hide them."))));
    addParameter(VbasCompat::advanced(wordChoice(
        kRepresentativePoint, QObject::tr("Representative point of a small area"),
        {kCentroid, kPointOnSurface}, kCentroid,
        QObject::tr(
            "centroid: the centre of mass (may fall outside concave areas); point_on_surface: a point always "
            "inside the area. Areas join the site nearest this point."))));
    addParameter(VbasCompat::advanced(wordChoice(
        kUnknownRegions, QObject::tr("Records naming unknown small areas"), {kUnknownFail, kUnknownDrop},
        kUnknownFail,
        QObject::tr("Fail: stop and name the first unknown id. Drop: leave those records out of the release "
                    "(counted in the log and the report), at most MAX_DROPPED percent of them."))));
    addParameter(VbasCompat::advanced(withHelp(
        new QgsProcessingParameterNumber(kMaxDropped,
                                         QObject::tr("Most records to drop for unknown small areas (%)"),
                                         VbasCompat::NumberTypeDouble, 1.0, true, 0.0, 100.0),
        QObject::tr(
            "With UNKNOWN_REGIONS = drop: the run stops instead when more than this share of the "
            "records name small areas that do not exist, e.g. 1 (%). Many unknown ids mean the two id "
            "fields do not correspond, and dropping them would release the wrong records."))));
    // Optional, like every parameter added after the first release: a saved model without it stays valid
    // (QGIS 3.22 refuses a model whose step lacks a mandatory parameter, default or not).
    addParameter(VbasCompat::advanced(withHelp(
        new QgsProcessingParameterBoolean(VbasParameters::kNullCountAsZero,
                                          QObject::tr("Read NULL counts as 0 (no records)"), false, true),
        QObject::tr("With COUNT_FIELD: a row whose count is NULL is refused (how many records it holds is "
                    "unknown); checked, it is read as 0 and holds no records, and the log says how many rows "
                    "were. Rows of count 0 always hold no records."))));
    addParameter(VbasCompat::advanced(wordChoice(
        VbasParameters::kGroupRecords, QObject::tr("Where the records are counted"),
        {kGroupAutomatic, kGroupDatabase, kGroupRows}, kGroupAutomatic,
        QObject::tr(
            "auto: a PostgreSQL/PostGIS table streams the small area and the fields the release reads (COPY, "
            "the layer's filter applies) and identical records are counted as they come (35 M records over "
            "56 k areas: 12 s; PostgreSQL's own GROUP BY of them took 58 s); a SpatiaLite table is grouped "
            "by "
            "its database (GROUP BY with COUNT(*)); files are read row by row, which GDAL does faster than "
            "SQLite groups them (2.85 M records of a GeoPackage: 1.2 s read, 4.1 s grouped). database: group "
            "in the database whenever the records are in PostgreSQL, SpatiaLite, a GeoPackage or an SQLite "
            "file, so that only counts travel: for a server far away over a slow network. rows: read every "
            "row through QGIS or GDAL. The release is the same, with COUNT_FIELD too (identical rows, counts "
            "included, are grouped alike)."),
        true)));
    addParameter(VbasCompat::advanced(withHelp(
        new QgsProcessingParameterCrs(VbasParameters::kComputationCrs,
                                      QObject::tr("Computation CRS (projected, in metres)"), QVariant(),
                                      true),
        QObject::tr("the plane distances, nearest sites and areas are computed in. Empty: the CRS of REGIONS "
                    "when it is projected, else an azimuthal equidistant projection centred on the small "
                    "areas. The log warns when that plane distorts areas or distances by more than 1 % over "
                    "the data (a country or a continent in a geographic CRS): then choose a projected CRS in "
                    "metres made for the area, an equal-area or conformal projection of it."))));
}

void VbasJobAlgorithm::addGeneralizationParameters()
{
    // One line per registered kind. QGIS shows the help as HTML in the tooltip: no '<' in it, which would
    // start a tag and hide the rest.
    QStringList kinds;
    for (const vbas::HierarchyKind& kind : vbas::hierarchyKinds())
        kinds << QString::fromUtf8(kind.help) + QLatin1Char('.');
    auto* generalization = new QgsProcessingParameterString(
        kGeneralization, QObject::tr("Generalize quasi-identifiers (hierarchies)"), QVariant(), true, true);
    addParameter(withHelp(
        generalization,
        QObject::tr(
            "Coarser values for the quasi-identifiers, searched together with the geography: the release "
            "uses the levels that give the most regions within the suppression budget (SUPPRESSION_BUDGET), "
            "and of those the least attribute loss.\n"
            "Left empty, numeric quasi-identifiers (integer or real fields, or text holding only numbers) "
            "are banded automatically ('auto' below; the log shows the bands chosen), and the others stay "
            "as they are. No quasi-identifier is removed (all its values '*') unless its line allows it.\n"
            "One line (or ';'-separated part) per quasi-identifier, 'field: kind arguments', optionally "
            "ending in 'max LEVEL':\n%1\n"
            "none: the values as they are ('age: none' keeps exact ages).\n"
            "'max LEVEL' keeps at least that detail ('age: interval 5 10 20 max 10': bands of 5 or 10 "
            "years); levels are named as written (5, month, 3) or numbered (0: as they are). 'max *' allows "
            "removing the quasi-identifier where that gives more regions ('age: auto max *'). Without 'max', "
            "every level below removal may be used; when the budget cannot be met without removing one, the "
            "log says which one, why, and what else to do.\n"
            "Examples: 'age: auto max 10'; 'age: interval 5 10 20 bottom 20 top 85'; 'onset: date week "
            "month'; 'icd: prefix 3 1'; 'education: table' (education.csv in HIERARCHY_TABLES); 'age: none'. "
            "The released records carry the labels ('30-34', '85+', '2004-W21', 'J45'); the report lists "
            "every combination tried.")
            .arg(kinds.join(QLatin1Char('\n')))));
    addParameter(VbasCompat::advanced(withHelp(
        new QgsProcessingParameterMultipleLayers(kHierarchyTables,
                                                 QObject::tr("Hierarchy tables (ARX CSV, one per field)"),
                                                 VbasCompat::SourceTypeFile, QVariant(), true),
        QObject::tr(
            "CSV files in ARX's format, one line per value: value;level 1;level 2;... Each file's name "
            "names its quasi-identifier (education.csv for 'education'); a table makes that field "
            "'field: table' unless GENERALIZATION says otherwise."))));
}

void VbasJobAlgorithm::addSiteCountParameters(StrategyChoice choice, const vbas::PipelineConfig& defaults)
{
    const vbas::Registry& registry = vbas::Registry::builtIn();
    const bool several = choice == StrategyChoice::Several;
    auto* method = strategyChoice(
        kSiteCountMethod,
        several ? QObject::tr("Ways to choose the number of regions, to compare")
                : QObject::tr("How the number of regions is chosen"),
        registry.siteCounters, several ? vbas::PipelineConfig{}.siteCounter : defaults.siteCounter, several);
    addParameter(several ? method : VbasCompat::advanced(method));
    addOptionParameters(registry.siteCounters);
}

void VbasJobAlgorithm::addSiteLocationParameters(StrategyChoice choice)
{
    const vbas::Registry& registry = vbas::Registry::builtIn();
    const bool several = choice == StrategyChoice::Several;
    auto* method = strategyChoice(kSiteLocation,
                                  several ? QObject::tr("Ways to place the region centres, to compare")
                                          : QObject::tr("How the region centres (sites) are placed"),
                                  registry.siteLocators, vbas::PipelineConfig{}.siteLocator, several);
    addParameter(several ? method : VbasCompat::advanced(method));
    addOptionParameters(registry.siteLocators);
    addRefinerSwitches(registry.siteRefiners,
                       several ? QObject::tr("Also try every combination refined with %1")
                               : QObject::tr("Refine sites with %1"),
                       several ? std::string() : vbas::recommendedConfig().siteRefiner, !several);
}

template <typename Entry>
void VbasJobAlgorithm::addRefinerSwitches(const std::vector<Entry>& entries, const QString& label,
                                          const std::string& onByDefault, bool advanced)
{
    for (const Entry& refiner : entries)
    {
        auto* on = withHelp(new QgsProcessingParameterBoolean(optionParameterName(refiner.switchKey),
                                                              label.arg(QString::fromStdString(refiner.name)),
                                                              refiner.id == onByDefault, true),
                            withParameterNames(refiner.help));
        addParameter(advanced ? VbasCompat::advanced(on) : on);
    }
    addOptionParameters(entries);
}

void VbasJobAlgorithm::addPartitionParameters(bool recommendedBoundaries)
{
    // Every parameter added after the first release is optional, with a default: QGIS refuses a saved model
    // whose step lacks a mandatory parameter, even one with a default.
    const vbas::Registry& registry = vbas::Registry::builtIn();
    addParameter(VbasCompat::advanced(
        strategyChoice(kPartition, QObject::tr("How small areas join a region centre"), registry.partitioners,
                       vbas::PipelineConfig{}.partitioner, false)));
    addOptionParameters(registry.partitioners);
    QStringList usingObstacles;
    for (const auto& partitioner : registry.partitioners)
        if (partitioner.needs.obstacles)
            usingObstacles << QString::fromStdString(partitioner.name);
    addParameter(VbasCompat::advanced(withHelp(
        new QgsProcessingParameterMultipleLayers(kObstacles,
                                                 QObject::tr("Obstacles (rivers, lakes, motorways)"),
                                                 VbasCompat::SourceTypeVector, QVariant(), true),
        QObject::tr(
            "Line and polygon layers in any CRS that people do not cross; used by the %1 ways of joining "
            "(see PARTITION). The others ignore them; small areas moved across region borders never cross "
            "them.")
            .arg(usingObstacles.join(QStringLiteral(", "))))));
    addParameter(VbasCompat::advanced(withHelp(
        new QgsProcessingParameterField(kParentField,
                                        QObject::tr("Parent field (province, health authority)"), QVariant(),
                                        kRegions, VbasCompat::FieldTypeAny, false, true),
        QObject::tr(
            "A field of the small areas, e.g. a health district: no released region mixes small areas "
            "of different values, so the released region still tells the district."))));
    addParameter(VbasCompat::advanced(withHelp(
        new QgsProcessingParameterBoolean(kContiguity, QObject::tr("Make every released region one piece"),
                                          false, true),
        QObject::tr("Moves small areas cut off from the rest of their region to the neighbouring region they "
                    "share the longest border with, before suppression; islands stay with the nearest "
                    "region."))));
    addRefinerSwitches(registry.boundaryRefiners, QObject::tr("Refine region borders with %1"),
                       recommendedBoundaries ? vbas::recommendedConfig().boundaryRefiner : std::string(),
                       true);
    addParameter(VbasCompat::advanced(withHelp(
        new QgsProcessingParameterNumber(kAdjacencyTolerance, QObject::tr("Neighbour tolerance (metres)"),
                                         VbasCompat::NumberTypeDouble, 0.0, true, 0.0),
        QObject::tr(
            "areas closer than this count as neighbours (slivers and gaps between digitised borders); "
            "0 takes a millionth of the extent of REGIONS."))));
}

std::unique_ptr<vbas::Pipeline> VbasJobAlgorithm::makePipeline(const QVariantMap& parameters,
                                                               QgsProcessingContext& context,
                                                               QgsProcessingFeedback* feedback) const
{
    const vbas::PipelineConfig config = pipelineConfig(parameters, context, feedback);
    return runEngine(feedback, [&](vbas::Feedback&) { return std::make_unique<vbas::Pipeline>(config); });
}

QStringList VbasJobAlgorithm::parameterAsStrategyIds(const QVariantMap& parameters, const QString& name,
                                                     QgsProcessingContext& context) const
{
    const QStringList ids = parameterAsChoiceIds(parameters, name, context);
    const auto* definition = dynamic_cast<const VbasChoiceParameter*>(parameterDefinition(name));
    if (ids.isEmpty() || ids.contains(QString()))
        throw parameterError(name,
                             QObject::tr("no method chosen, or one that does not exist; choose at least "
                                         "one of: %1")
                                 .arg(definition->options().join(QStringLiteral(", "))));
    return ids;
}

QStringList VbasJobAlgorithm::parameterAsRefinerIds(const QVariantMap& parameters,
                                                    QgsProcessingContext& context) const
{
    return switchedOnIds(vbas::Registry::builtIn().siteRefiners, parameters, context);
}

QStringList VbasJobAlgorithm::parameterAsBoundaryRefinerIds(const QVariantMap& parameters,
                                                            QgsProcessingContext& context) const
{
    return switchedOnIds(vbas::Registry::builtIn().boundaryRefiners, parameters, context);
}

template <typename Entry>
QStringList VbasJobAlgorithm::switchedOnIds(const std::vector<Entry>& entries, const QVariantMap& parameters,
                                            QgsProcessingContext& context) const
{
    QStringList ids, given;
    for (const Entry& refiner : entries)
    {
        const QString name = optionParameterName(refiner.switchKey);
        if (parameterDefinition(name) == nullptr || !parameterAsBoolean(parameters, name, context))
            continue;
        ids << QString::fromStdString(refiner.id);
        if (parameters.contains(name))
            given << QString::fromStdString(refiner.id);
    }
    // A switch turned on by a script or model wins over one that is on only by default (ADC=true
    // alone replaces the default refinement); two turned on explicitly stay an error.
    return ids.size() > 1 && !given.isEmpty() ? given : ids;
}

void VbasJobAlgorithm::requireGeometryType(const QgsFeatureSource& source, const QString& parameter,
                                           decltype(VbasCompat::GeometryPolygon) type,
                                           const QString& typeName)
{
    if (QgsWkbTypes::geometryType(source.wkbType()) == type)
        return;
    const QString held =
        source.wkbType() == VbasCompat::WkbNoGeometry
            ? QObject::tr("the layer is a table without geometries")
            : QObject::tr("the layer holds %1 geometries").arg(QgsWkbTypes::displayString(source.wkbType()));
    throw parameterError(parameter,
                         QObject::tr("%1, but it must hold %2; choose a layer of %2").arg(held, typeName));
}

VbasJobAlgorithm::Job VbasJobAlgorithm::loadJob(const QVariantMap& parameters, QgsProcessingContext& context,
                                                QgsProcessingFeedback* feedback) const
{
    Job job;
    job.regions.reset(parameterAsSource(parameters, kRegions, context));
    if (!job.regions)
        throw QgsProcessingException(invalidSourceError(parameters, kRegions));
    requireGeometryType(*job.regions, kRegions, VbasCompat::GeometryPolygon, QObject::tr("polygons"));
    job.regionIdField = parameterAsFieldIndex(parameters, kRegionIdField, job.regions->fields(), context);
    job.records.reset(parameterAsSource(parameters, kRecords, context));
    if (!job.records)
        throw QgsProcessingException(invalidSourceError(parameters, kRecords));
    const QgsFields& fields = job.records->fields();
    job.recordFields.region = parameterAsFieldIndex(parameters, kRecordRegionField, fields, context);
    if (parameterDefinition(kParameterQuasiIdentifiers))
        job.recordFields.quasiIdentifiers =
            parameterAsFieldIndices(parameters, kParameterQuasiIdentifiers, fields, context);
    job.recordFields.count = parameterAsFieldIndex(parameters, kParameterCountField, fields, context);
    job.recordFields.nullCountAsZero =
        parameterDefinition(VbasParameters::kNullCountAsZero) != nullptr &&
        parameterAsBoolean(parameters, VbasParameters::kNullCountAsZero, context);
    const QString grouping = parameterAsChoiceId(parameters, VbasParameters::kGroupRecords, context);
    job.recordFields.grouping = grouping == kGroupRows       ? VbasGrouping::Rows
                                : grouping == kGroupDatabase ? VbasGrouping::Database
                                                             : VbasGrouping::Automatic;
    if (parameterDefinition(kSensitiveFields))
        job.recordFields.sensitive = parameterAsFieldIndices(parameters, kSensitiveFields, fields, context);
    if (parameterDefinition(kReleaseFields))
        job.recordFields.released = parameterAsFieldIndices(parameters, kReleaseFields, fields, context);
    if (parameterDefinition(kRecordIdField))
        job.recordFields.recordId = parameterAsFieldIndex(parameters, kRecordIdField, fields, context);
    // The configuration already said in the log which k a MAX_RISK gives.
    job.recordFields.k = parameterAsRequiredK(parameters, context);
    job.recordFields.emptyTextIsNull = vbasIsCsvFile(recordsLayer(parameters, context));
    checkRoles(job, parameters, context, feedback);
    // Hierarchies are read before the records, so that a typo fails at once.
    const GeneralizationDefinition generalization = generalizationDefinition(parameters, context);
    const std::vector<vbas::HierarchySpec> specs =
        runEngine(feedback, [&](vbas::Feedback&) { return vbas::parseGeneralization(generalization.text); });
    const std::map<std::string, std::string>& tables = generalization.tables;
    const vbas::RepresentativePoint point =
        parameterAsChoiceId(parameters, kRepresentativePoint, context) == kPointOnSurface
            ? vbas::RepresentativePoint::PointOnSurface
            : vbas::RepresentativePoint::Centroid;
    vbas::DatasetOptions options;
    if (parameterAsChoiceId(parameters, kUnknownRegions, context) == kUnknownDrop)
        options.unknownRegions = vbas::UnknownRegionPolicy::Drop;
    options.maxDroppedShare = parameterAsDouble(parameters, kMaxDropped, context) / 100.0;

    const QgsCoordinateReferenceSystem computationCrs =
        parameterAsCrs(parameters, VbasParameters::kComputationCrs, context);
    const QVariant givenCrs = parameters.value(VbasParameters::kComputationCrs);
    if (!computationCrs.isValid() && givenCrs.isValid() && !givenCrs.isNull() &&
        !(givenCrs.canConvert<QString>() && givenCrs.toString().trimmed().isEmpty()))
        throw parameterError(VbasParameters::kComputationCrs,
                             QObject::tr("'%1' is no CRS QGIS knows; give a projected CRS in metres (an "
                                         "authority code such as EPSG:3338), or leave it empty to let VBAS "
                                         "choose")
                                 .arg(givenCrs.toString()));
    job.frame.emplace(*job.regions, context.transformContext(), computationCrs);
    feedback->pushInfo(job.frame->description());
    if (const QString warning = job.frame->distortionWarning(); !warning.isEmpty())
        feedback->pushWarning(warning);
    job.recordsLayer = wholeRecordsLayer(parameters, context);
    job.data =
        runEngine(feedback,
                  [&](vbas::Feedback& engineFeedback)
                  {
                      return loadJobData(*job.regions, job.regionIdField, *job.frame, point, *job.records,
                                         job.recordsLayer, job.recordFields, options, engineFeedback);
                  });
    if (parameterDefinition(kPartition) != nullptr)
    {
        const QList<QgsMapLayer*> obstacles = parameterAsLayerList(parameters, kObstacles, context);
        const int parentField =
            parameterAsFieldIndex(parameters, kParentField, job.regions->fields(), context);
        job.adjacencyTolerance = parameterAsDouble(parameters, kAdjacencyTolerance, context);
        job.spatial = runEngine(feedback,
                                [&](vbas::Feedback& engineFeedback) {
                                    return vbasLoadSpatial(obstacles, *job.regions, parentField, job.data,
                                                           *job.frame, engineFeedback);
                                });
    }
    if (!specs.empty() || !tables.empty() || generalization.bandNumbers)
    {
        vbas::Hierarchies hierarchies =
            runEngine(feedback,
                      [&](vbas::Feedback&)
                      {
                          std::vector<std::string> names;
                          for (const int field : job.recordFields.quasiIdentifiers)
                              names.push_back(fields.at(field).name().toStdString());
                          return vbas::buildHierarchies(specs, tables, names, job.data.quasiIdentifierValues,
                                                        {vbas::categoryRecords(*job.data.dataset),
                                                         job.recordFields.k, generalization.bandNumbers});
                      });
        if (std::any_of(hierarchies.begin(), hierarchies.end(), [](const auto& h) { return h.has_value(); }))
            job.hierarchies = std::move(hierarchies);
        for (const auto& qi : job.hierarchies)
            if (qi && qi->automatic && feedback)
            {
                const QString field = QString::fromStdString(qi->spec.field);
                feedback->pushInfo(
                    QObject::tr("%1: numbers, banded automatically as '%2' (the bands for its range, the "
                                "sparse ends coded until each holds k records; never removed unless "
                                "allowed). In %3, '%1: none' keeps the values as they are, '%1: auto max *' "
                                "allows removing %1")
                        .arg(field, QString::fromStdString(qi->spec.text()), kGeneralization));
            }
    }
    return job;
}

VbasJobAlgorithm::GeneralizationDefinition
VbasJobAlgorithm::generalizationDefinition(const QVariantMap& parameters, QgsProcessingContext& context) const
{
    if (parameterDefinition(kGeneralization) == nullptr)
        return {};
    return {parameterAsString(parameters, kGeneralization, context).toStdString(),
            parameterAsHierarchyTables(parameters, context), true};
}

const QgsVectorLayer* VbasJobAlgorithm::recordsLayer(const QVariantMap& parameters,
                                                     QgsProcessingContext& context) const
{
    const QVariant given = parameters.value(kRecords);
    if (given.userType() == qMetaTypeId<QgsProcessingFeatureSourceDefinition>())
    {
        // QGIS 3.22 finds no layer behind a source definition (selected features, a feature limit): its
        // source names it.
        const auto definition = given.value<QgsProcessingFeatureSourceDefinition>();
        return qobject_cast<const QgsVectorLayer*>(QgsProcessingUtils::mapLayerFromString(
            definition.source.valueAsString(context.expressionContext()), context));
    }
    return parameterAsVectorLayer(parameters, kRecords, context);
}

const QgsVectorLayer* VbasJobAlgorithm::wholeRecordsLayer(const QVariantMap& parameters,
                                                          QgsProcessingContext& context) const
{
    const QVariant given = parameters.value(kRecords);
    if (given.userType() == qMetaTypeId<QgsProcessingFeatureSourceDefinition>())
    {
        const auto definition = given.value<QgsProcessingFeatureSourceDefinition>();
        if (definition.selectedFeaturesOnly || definition.featureLimit >= 0)
            return nullptr;
    }
    return recordsLayer(parameters, context);
}

std::map<std::string, std::string>
VbasJobAlgorithm::parameterAsHierarchyTables(const QVariantMap& parameters,
                                             QgsProcessingContext& context) const
{
    std::map<std::string, std::string> tables;
    if (parameterDefinition(kHierarchyTables) == nullptr)
        return tables;
    for (const QString& path : parameterAsFileList(parameters, kHierarchyTables, context))
    {
        if (path.isEmpty())
            continue; // QGIS 3.22 gives one empty path for an unset parameter
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            throw parameterError(kHierarchyTables,
                                 QObject::tr("cannot read '%1': %2").arg(path, file.errorString()));
        const std::string field = QFileInfo(path).completeBaseName().toStdString();
        if (!tables.emplace(field, file.readAll().toStdString()).second)
            throw parameterError(kHierarchyTables,
                                 QObject::tr("two tables are named '%1'; give one table per field")
                                     .arg(QString::fromStdString(field)));
    }
    return tables;
}

vbas::Count VbasJobAlgorithm::parameterAsRequiredK(const QVariantMap& parameters,
                                                   QgsProcessingContext& context,
                                                   QgsProcessingFeedback* feedback) const
{
    const double risk =
        parameterDefinition(kMaxRisk) ? parameterAsDouble(parameters, kMaxRisk, context) : 0.0;
    if (risk == 0.0)
        return vbas::Count(parameterAsK(parameters, context));
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

void VbasJobAlgorithm::checkRoles(const Job& job, const QVariantMap& parameters,
                                  QgsProcessingContext& context, QgsProcessingFeedback* feedback) const
{
    const VbasRecordFields& roles = job.recordFields;
    const QgsFields& fields = job.records->fields();
    // Each field has one role: a field listed under two would be published by one and coarsened by the other.
    QHash<int, QString> roleOf{{roles.region, kRecordRegionField}};
    if (roles.count >= 0)
        roleOf.insert(roles.count, kParameterCountField);
    if (roles.recordId >= 0)
    {
        if (roles.count >= 0)
            throw parameterError(kRecordIdField,
                                 QObject::tr("a row of a table with counts (COUNT_FIELD) stands for several "
                                             "records, which have no one id; leave RECORD_ID_FIELD empty"));
        if (roleOf.contains(roles.recordId))
            throw parameterError(kRecordIdField,
                                 QObject::tr("'%1' is also given as %2; give each field one role")
                                     .arg(fields.at(roles.recordId).name(), roleOf.value(roles.recordId)));
        roleOf.insert(roles.recordId, kRecordIdField);
    }
    const std::pair<const QString&, const QList<int>&> lists[] = {
        {kParameterQuasiIdentifiers, roles.quasiIdentifiers},
        {kSensitiveFields, roles.sensitive},
        {kReleaseFields, roles.released}};
    for (const auto& [parameter, list] : lists)
    {
        for (const int field : list)
        {
            if (roleOf.contains(field))
                throw parameterError(parameter,
                                     QObject::tr("'%1' is also given as %2; give each field one role")
                                         .arg(fields.at(field).name(), roleOf.value(field)));
            roleOf.insert(field, parameter);
        }
    }
    // A key the data provider gives each row (a GeoPackage fid, a primary key) tells the row: never
    // published.
    if (const QgsVectorLayer* layer = parameterAsVectorLayer(parameters, kRecords, context);
        layer && layer->dataProvider())
    {
        for (const int key : layer->dataProvider()->pkAttributeIndexes())
        {
            const QString parameter = roleOf.value(key);
            if (parameter == kSensitiveFields || parameter == kReleaseFields)
                throw parameterError(
                    parameter,
                    QObject::tr("'%1' is the key the data source gives each row; keys tell the rows "
                                "apart and are never published: remove it from %2")
                        .arg(fields.at(key).name(), parameter));
        }
    }
    if (!parameterDefinition(kReleaseFields) || !feedback)
        return;
    QStringList unpublished;
    for (int i = 0; i < fields.count(); ++i)
        if (!roleOf.contains(i))
            unpublished << fields.at(i).name();
    if (!unpublished.isEmpty())
        feedback->pushInfo(QObject::tr("Not published (no role; give them as RELEASE_FIELDS or "
                                       "SENSITIVE_FIELDS to publish them): %1")
                               .arg(unpublished.join(QStringLiteral(", "))));
}

vbas::PipelineConfig VbasJobAlgorithm::pipelineConfig(const QVariantMap& parameters,
                                                      QgsProcessingContext& context,
                                                      QgsProcessingFeedback* feedback) const
{
    vbas::PipelineConfig config;
    config.k = parameterAsRequiredK(parameters, context, feedback);
    if (const Diversity diversity = parameterAsDiversity(parameters, context); diversity.isOn())
    {
        config.diversity.l = vbas::Count(diversity.l);
        config.diversity.measure = diversity.entropy ? vbas::DiversityRule::Measure::Entropy
                                                     : vbas::DiversityRule::Measure::Distinct;
    }
    config.globalSuppression = parameterAsBoolean(parameters, kGlobalSuppression, context);
    const auto has = [this](const QString& name)
    {
        return parameterDefinition(name) != nullptr;
    };
    if (has(kSiteCountMethod))
        config.siteCounter =
            parameterAsStrategyIds(parameters, kSiteCountMethod, context).value(0).toStdString();
    if (has(kSiteLocation))
    {
        config.siteLocator =
            parameterAsStrategyIds(parameters, kSiteLocation, context).value(0).toStdString();
        const QStringList refiners = parameterAsRefinerIds(parameters, context);
        const auto* locators =
            dynamic_cast<const QgsProcessingParameterEnum*>(parameterDefinition(kSiteLocation));
        if (refiners.size() > 1 && !(locators && locators->allowMultiple()))
            throw QgsProcessingException(
                QObject::tr("%1 refinements are switched on; switch on one at most").arg(refiners.size()));
        config.siteRefiner = refiners.value(0).toStdString();
    }
    if (has(kPartition))
    {
        config.partitioner = parameterAsStrategyIds(parameters, kPartition, context).value(0).toStdString();
        config.repairContiguity = parameterAsBoolean(parameters, kContiguity, context);
        const QStringList boundaryRefiners = parameterAsBoundaryRefinerIds(parameters, context);
        if (boundaryRefiners.size() > 1)
            throw QgsProcessingException(
                QObject::tr("%1 boundary refinements are switched on; switch on one at most")
                    .arg(boundaryRefiners.size()));
        config.boundaryRefiner = boundaryRefiners.value(0).toStdString();
    }
    // QGIS's "max cores to use" (Settings > Options > Rendering): one core means one release at a time.
    config.releasesSideBySide = QgsApplication::maxThreads() != 1;
    // Every option goes to the engine, which checks those of the chosen strategies against their specs.
    readOptions(parameters, context, config.options);
    return config;
}

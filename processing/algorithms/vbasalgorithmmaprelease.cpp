#include "vbasalgorithmmaprelease.h"

#include "vbaschoiceparameter.h"
#include "vbasdataparameters.h"
#include "vbasenginecall.h"
#include "vbaslayerstyler.h"
#include "vbasmapoutputs.h"
#include "vbasmapreport.h"
#include "vbasoutputguard.h"
#include "vbasparameterreader.h"
#include "vbaspopulationparameters.h"
#include "vbasqgiscompat.h"
#include "vbasreleaseoutputs.h"
#include "vbasreleaserun.h"
#include "vbasstrategyparameters.h"

#include "MapRelease.h"

#include <qgsfeaturerequest.h>

#include <QFile>

#include <cmath>

using namespace VbasParameters;

namespace
{
/** Writes `text` to the file output `name` (the guard's staged file, published whole with the rest), if
 * asked. */
void writeText(const VbasParameterReader& read, const QString& name, const QString& text,
               QVariantMap& outputs)
{
    const QString path = read.asFileOutput(name);
    if (path.isEmpty())
        return;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text) || file.write(text.toUtf8()) < 0 || !file.flush())
        throw QgsProcessingException(
            QObject::tr("%1: %2 cannot be written (%3)").arg(name, path, file.errorString()));
    outputs.insert(name, path);
}

/** The inputs of the engine call: the job's small areas with their people, cases and parent, and the
 * settings. */
vbas::MapReleaseInputs mapInputs(const VbasParameterReader& read, const VbasJob& job,
                                 QgsProcessingFeedback* feedback)
{
    vbas::MapReleaseInputs inputs;
    inputs.geometries = job.data.geometries.get();
    VbasPopulationParameters::read(read, job, inputs);
    if (const int parent = read.fieldIndex(kParentField, job.regions->fields()); parent >= 0)
    {
        QHash<QgsFeatureId, std::size_t> areaOf;
        for (std::size_t a = 0; a < job.data.regionFeatures.size(); ++a)
            areaOf.insert(job.data.regionFeatures[a], a);
        std::vector<QString> parents(areaOf.size());
        QgsFeatureRequest request = QgsFeatureRequest().setFlags(VbasCompat::RequestNoGeometry);
        request.setFilterFids(QgsFeatureIds(areaOf.keyBegin(), areaOf.keyEnd()));
        QgsFeatureIterator it = job.regions->getFeatures(request);
        QgsFeature feature;
        while (it.nextFeature(feature))
            parents[areaOf.value(feature.id())] = feature.attribute(parent).toString();
        QHash<QString, std::uint32_t> codes;
        for (const QString& text : parents)
            inputs.parent.push_back(
                codes.insert(text, codes.value(text, std::uint32_t(codes.size()))).value());
    }
    inputs.floors.populationFloor = read.asDouble(kPopulationFloor);
    inputs.floors.caseFloor = read.asDouble(kCaseFloor);
    inputs.rates =
        read.runEngine(feedback,
                       [&](vbas::Feedback&)
                       {
                           return vbas::RateSettings::fromOptions(
                               VbasStrategyParameters::readOptions(read, vbas::RateSettings::options()));
                       });
    return inputs;
}
} // namespace

void VbasAlgorithmMapRelease::initAlgorithm(const QVariantMap&)
{
    VbasDataParameters::addTo(*this, VbasDataParameters::QuasiIdentifiers::None);
    // The cases are counted, not k-anonymized: the parameters of k and l-diversity stay out of sight.
    for (const QString& name :
         {kParameterK, kMaxRisk, kSensitiveFields, kParameterL, kParameterLMeasure, kGlobalSuppression})
        if (const QgsProcessingParameterDefinition* definition = parameterDefinition(name))
            // The algorithm owns its definitions; QGIS offers no mutable access to one.
            const_cast<QgsProcessingParameterDefinition*>(definition)
                ->setFlags(definition->flags() | VbasCompat::ParameterFlagHidden);
    VbasPopulationParameters::addTo(*this);
    auto* floor = new QgsProcessingParameterNumber(kPopulationFloor, QObject::tr("Least people in a region"),
                                                   VbasCompat::NumberTypeDouble, 5000.0, false, 0.0);
    floor->setHelp(
        QObject::tr("Every region holds at least this many people (CDC's Tracking Network: 5,000 for "
                    "common outcomes, 20,000 for rare ones); 0: no population floor."));
    addParameter(floor);
    auto* cases = new QgsProcessingParameterNumber(kCaseFloor, QObject::tr("Least cases in a region"),
                                                   VbasCompat::NumberTypeDouble, 0.0, false, 0.0);
    cases->setHelp(
        QObject::tr("Every region holds at least this many cases as well (20 makes every rate stable "
                    "by NCHS's rule); 0: no case floor."));
    addParameter(cases);
    auto* parent =
        new QgsProcessingParameterField(kParentField, QObject::tr("Parent of each small area (county)"),
                                        QVariant(), kRegions, VbasCompat::FieldTypeAny, false, true);
    parent->setHelp(QObject::tr("No region crosses the border of a parent (county, state). A parent holding "
                                "fewer than the floors is one region, flagged."));
    addParameter(parent);
    VbasStrategyParameters::addOptionsTo(*this, vbas::RateSettings::options());
    addParameter(vbasWordChoice(
        kMapRate, QObject::tr("Rate the map shows"), VbasMapOutputs::rateFields(),
        QStringLiteral("crude_rate"),
        QObject::tr("The figure the regions are shaded by, in QGIS and in the report."), true));
    VbasReleaseOutputs::addLedgerTo(*this);
    addParameter(new QgsProcessingParameterFeatureSink(
        kOutput, QObject::tr("Regions with their rates (publishable)"), VbasCompat::SourceTypeVectorPolygon));
    addParameter(new QgsProcessingParameterFeatureSink(
        kOutputMapping, QObject::tr("Crosswalk: small areas with their region (publishable)"),
        VbasCompat::SourceTypeVectorPolygon, QVariant(), true));
    addParameter(new QgsProcessingParameterFileDestination(
        kOutputGal, QObject::tr("Region adjacency, GAL (publishable)"), QObject::tr("GAL files (*.gal)"),
        QVariant(), true));
    addParameter(new QgsProcessingParameterFileDestination(
        kOutputInlaGraph, QObject::tr("Region adjacency, INLA graph (publishable)"),
        QObject::tr("Graph files (*.graph *.adj)"), QVariant(), true));
    addParameter(new QgsProcessingParameterFileDestination(kOutputHtml, QObject::tr("Report (review only)"),
                                                           QObject::tr("HTML files (*.html)"), QVariant(),
                                                           true));
}

QString VbasAlgorithmMapRelease::name() const
{
    return QStringLiteral("maprelease");
}

QString VbasAlgorithmMapRelease::displayName() const
{
    return QObject::tr("Release rates for a map");
}

QStringList VbasAlgorithmMapRelease::tags() const
{
    return QObject::tr("rates,map,choropleth,population floor,case floor,GAT,age-standardized,SIR,empirical "
                       "Bayes,smoothing,INLA,GAL,crosswalk,epidemiology")
        .split(',');
}

QString VbasAlgorithmMapRelease::group() const
{
    return QObject::tr("Release");
}

QString VbasAlgorithmMapRelease::groupId() const
{
    return QStringLiteral("release");
}

QString VbasAlgorithmMapRelease::shortHelpString() const
{
    return QObject::tr(
        "Merges small areas into as many regions as it can that each hold at least POPULATION_FLOOR people "
        "and CASE_FLOOR cases (GAT's two variables), every small area in a region and every region "
        "connected, "
        "within PARENT_FIELD when given; an island that cannot reach the floors joins the nearest region and "
        "is "
        "flagged in the crosswalk. Then computes per region: the cases and people, the crude rate with its "
        "exact "
        "interval, the directly age-standardized rate with its Fay-Feuer interval, the expected cases and "
        "the "
        "SIR with its exact interval, the global and local empirical Bayes rates, and the flags of "
        "RATE_PRESET, whose withheld figures are left empty in the published layer.\n\n"
        "The cases come from RECORDS: a case list (one row per case, RECORD_REGION_FIELD its small area), a "
        "table of counts (COUNT_FIELD), or the small areas themselves with their cases field as "
        "COUNT_FIELD.\n\n"
        "Publishable: the regions (shaded by MAP_RATE, unstable rates hatched), the crosswalk, the region "
        "adjacency as GAL and as an INLA graph. For review: the report. The release is recorded in the "
        "release "
        "ledger, which refuses a second aggregation of the same small areas.");
}

QString VbasAlgorithmMapRelease::shortDescription() const
{
    return QObject::tr(
        "Regions at a population or case floor, no area dropped, with their rates, intervals, SIR "
        "and smoothed rates.");
}

VbasAlgorithmMapRelease* VbasAlgorithmMapRelease::createInstance() const
{
    return new VbasAlgorithmMapRelease();
}

QVariantMap VbasAlgorithmMapRelease::processAlgorithm(const QVariantMap& parameters,
                                                      QgsProcessingContext& context,
                                                      QgsProcessingFeedback* feedback)
{
    VbasOutputGuard guard(*this, parameters, context, feedback);
    const VbasParameterReader read(*this, guard.parameters(), context);
    VbasReleaseRun run(read, feedback);
    QStringList lines;
    return guard.runAndCommit(
        feedback,
        [&]
        {
            run.configure();
            run.openLedger();
            const VbasJob& job = run.loadJob();
            run.checkLedger();
            const vbas::MapReleaseInputs inputs = mapInputs(read, job, feedback);
            std::optional<vbas::MapRelease> map;
            run.compute(
                [&](const vbas::Pipeline& pipeline, const VbasJob& loaded,
                    const vbas::ReleaseRequest& request, QgsProcessingFeedback* steps)
                {
                    map = read.runEngine(steps, [&](vbas::Feedback& engineFeedback)
                                         { return vbas::releaseMap(inputs, engineFeedback); });
                    // What the ledger records: the regions and the cases counted in each.
                    vbas::PipelineConfig config = pipeline.config();
                    config.k = 2;
                    const vbas::Pipeline counting(config);
                    const std::vector<std::uint32_t> group(map->regions.regionOfArea.begin(),
                                                           map->regions.regionOfArea.end());
                    return read.runEngine(steps,
                                          [&](vbas::Feedback& engineFeedback)
                                          {
                                              return VbasRelease(counting.releaseGroups(
                                                  loaded.engineJob(), group, map->regions.regionCount,
                                                  request, engineFeedback));
                                          });
                });
            lines << QObject::tr(
                         "%1 regions from %2 small areas (%3 site counts tried; %4 areas joined the nearest "
                         "region across a gap, %5 in regions below the floor)")
                         .arg(map->regions.regionCount)
                         .arg(map->regions.regionOfArea.size())
                         .arg(map->regions.countsTried.size())
                         .arg(map->regions.joinedAreas)
                         .arg(map->regions.belowFloorAreas);
            for (const std::string& note : map->rates.notes)
                lines << QString::fromStdString(note);
            for (const QString& line : std::as_const(lines))
                feedback->pushInfo(line);
            QVariantMap outputs;
            const QString rate = read.choiceId(kMapRate);
            for (const QString& name : {kOutput, kOutputMapping})
            {
                const bool regions = name == kOutput;
                QString destination;
                std::unique_ptr<QgsFeatureSink> sink = read.sink(
                    name, destination,
                    regions ? VbasMapOutputs::regionFields()
                            : VbasMapOutputs::crosswalkFields(job.regions->fields().at(job.regionIdField)),
                    VbasCompat::WkbMultiPolygon, job.frame->sourceCrs());
                if (!sink)
                {
                    if (regions)
                        throw read.invalidSinkError(name);
                    continue;
                }
                VbasSink out(*sink, name, *feedback, &guard.writtenCounts());
                if (regions)
                    VbasMapOutputs::writeRegions(out, *map, *job.frame);
                else
                    VbasMapOutputs::writeCrosswalk(out, *job.regions, job.regionIdField,
                                                   job.data.regionFeatures, *map);
                outputs.insert(name, destination);
                VbasLayerStyler::attach(guard, context, destination,
                                        regions ? VbasStyling::Role::Rates : VbasStyling::Role::Mapping, rate,
                                        outputs.value(kOutput).toString());
            }
            writeText(read, kOutputGal, VbasMapOutputs::galText(*map), outputs);
            writeText(read, kOutputInlaGraph, VbasMapOutputs::inlaGraphText(*map), outputs);
            if (const QString report = read.asFileOutput(kOutputHtml); !report.isEmpty())
            {
                QStringList floors;
                if (map->floors.populationFloor > 0)
                    floors << QObject::tr("%1 people or more").arg(std::ceil(map->floors.populationFloor));
                if (map->floors.caseFloor > 0)
                    floors << QObject::tr("%1 cases or more").arg(std::ceil(map->floors.caseFloor));
                VbasHtml::write(report, kOutputHtml,
                                VbasMapReport::html(*map, rate, inputs.rates.multiplier,
                                                    floors.join(QObject::tr(" and ")), lines,
                                                    VbasHtml::parameters(*this, parameters, context)));
                outputs.insert(kOutputHtml, report);
            }
            return outputs;
        },
        [&] { run.record(); });
}

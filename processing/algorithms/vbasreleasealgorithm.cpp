#include "vbasreleasealgorithm.h"

#include "vbaslayerstyler.h"
#include "vbasmapimage.h"
#include "vbasogrtable.h"
#include "vbasqgiscompat.h"
#include "vbasreport.h"
#include "vbassteps.h"

#include <qgsfeaturesink.h>
#include <qgsprocessingfeedback.h>
#include <qgsprocessingoutputs.h>
#include <qgsprocessingparameters.h>

#include <QElapsedTimer>

#include <algorithm>
#include <iterator>
#include <optional>

namespace
{
struct CountOutput
{
    const char* name;
    const char* description;
};
/** Numbers every release gives besides the metrics. */
constexpr CountOutput kCountOutputs[] = {
    {"INPUT_RECORDS", QT_TR_NOOP("Records in the input")},
    {"RECORDS_RELEASED", QT_TR_NOOP("Records released")},
    {"RECORDS_DROPPED", QT_TR_NOOP("Records dropped (unknown small area)")},
    {"AGGREGATES", QT_TR_NOOP("Aggregated regions")},
    {"EMPTY_SITES", QT_TR_NOOP("Sites that received no small area")}};

/** Returns true when the optional output `name` has a destination (the user did not skip it). */
bool isWanted(const QVariantMap& parameters, const QString& name)
{
    QVariant value = parameters.value(name);
    if (value.userType() == qMetaTypeId<QgsProcessingOutputLayerDefinition>())
        value = value.value<QgsProcessingOutputLayerDefinition>().sink.staticValue();
    return value.isValid() && !value.toString().isEmpty();
}
} // namespace

void VbasReleaseAlgorithm::addReleaseOutputs(bool withSites)
{
    auto* releaseFields =
        new QgsProcessingParameterField(kReleaseFields, QObject::tr("Other fields to publish as they are"),
                                        QVariant(), kRecords, VbasCompat::FieldTypeAny, true, true);
    releaseFields->setHelp(QObject::tr(
        "Insensitive fields of RECORDS published unchanged beside the quasi-identifiers and sensitive "
        "fields. "
        "Only fields given a role are published: ids and every other field stay out. A field is refused as "
        "an identifier when the records it singles out or links in small sets (a value held by fewer than "
        "max(K, 3) records) outnumber those it leaves in larger groups, its most common value left out."));
    addParameter(releaseFields);
    auto* rowId = new QgsProcessingParameterBoolean(
        kAddRowId, QObject::tr("Number the released records (a fresh row_id in their random order)"), false,
        true);
    rowId->setHelp(QObject::tr("Released records come in a random order and carry no id of the input; this "
                               "adds row_id 1, 2, 3... in that order, which tells nothing about the input."));
    addParameter(VbasCompat::advanced(rowId));
    addParameter(new QgsProcessingParameterBoolean(
        kKeepSuppressed,
        QObject::tr("Keep withheld records in the records output, flagged (review only: never publish)"),
        false));
    addParameter(new QgsProcessingParameterFeatureSink(
        kOutput, QObject::tr("Aggregated regions (publishable)"), VbasCompat::SourceTypeVectorPolygon));
    if (withSites)
        addParameter(new QgsProcessingParameterFeatureSink(
            kOutputMapping, QObject::tr("Small areas with their aggregate (publishable)"),
            VbasCompat::SourceTypeVectorPolygon, QVariant(), true));
    addParameter(new QgsProcessingParameterFeatureSink(kOutputRecords,
                                                       QObject::tr("Anonymized records (publishable)"),
                                                       VbasCompat::SourceTypeVector, QVariant(), true));
    if (withSites)
    {
        addParameter(new QgsProcessingParameterFeatureSink(kOutputSites, QObject::tr("Sites (publishable)"),
                                                           VbasCompat::SourceTypeVectorPoint, QVariant(),
                                                           true));
        addParameter(new QgsProcessingParameterFeatureSink(
            kOutputCells, QObject::tr("Voronoi cells of the sites (publishable)"),
            VbasCompat::SourceTypeVectorPolygon, QVariant(), true, false));
    }
    addParameter(new QgsProcessingParameterFeatureSink(
        kOutputReview, QObject::tr("Aggregated regions with withheld counts (review only: never publish)"),
        VbasCompat::SourceTypeVectorPolygon, QVariant(), true, false));
    addParameter(new QgsProcessingParameterFileDestination(
        kOutputHtml, QObject::tr("Report (review only: never publish)"), QObject::tr("HTML files (*.html)"),
        QVariant(), true));
    addParameter(
        new QgsProcessingParameterFileDestination(kOutputMapImage, QObject::tr("Map image (publishable)"),
                                                  QObject::tr("PNG files (*.png)"), QVariant(), true));
    // Optional with defaults, so that models saved before these parameters existed stay valid.
    auto* shadeBy = new QgsProcessingParameterEnum(kShadeBy, QObject::tr("Shade the aggregated regions by"),
                                                   VbasStyling::shadeFields(), false,
                                                   VbasStyling::kDefaultShadeField, true, true);
    shadeBy->setHelp(
        QObject::tr("Which figure of the aggregated regions (one of their fields) their colour shows in "
                    "QGIS, in the map image and in the report."));
    addParameter(VbasCompat::advanced(shadeBy));
    addParameter(VbasCompat::advanced(
        new QgsProcessingParameterNumber(kMapImageWidth, QObject::tr("Map image width (pixels)"),
                                         VbasCompat::NumberTypeInteger, 1600, true, 400, 8000)));
    addParameter(VbasCompat::advanced(
        new QgsProcessingParameterNumber(kMapImageHeight, QObject::tr("Map image height (pixels)"),
                                         VbasCompat::NumberTypeInteger, 1000, true, 300, 8000)));
    for (const CountOutput& count : kCountOutputs)
        addOutput(new QgsProcessingOutputNumber(count.name, QObject::tr(count.description)));
    for (const vbas::MetricEntry& metric : vbas::Registry::builtIn().metrics)
        addOutput(new QgsProcessingOutputNumber(VbasOutputs::metricOutputName(metric.id),
                                                QString::fromStdString(metric.name)));
}

void VbasReleaseAlgorithm::checkInputs(const QVariantMap&, QgsProcessingContext&) const {}

QVariantMap VbasReleaseAlgorithm::processGuarded(const QVariantMap& parameters, QgsProcessingContext& context,
                                                 QgsProcessingFeedback* feedback)
{
    const std::unique_ptr<vbas::Pipeline> pipeline = makePipeline(parameters, context, feedback);
    checkInputs(parameters, context);
    vbas::ReleaseRequest request;
    request.cells = parameterDefinition(kOutputCells) && isWanted(parameters, kOutputCells);
    VbasSteps steps(3, feedback);
    const Job job = loadJob(parameters, context, &steps);
    steps.next();
    QElapsedTimer engine;
    engine.start();
    const VbasRelease release = computeRelease(*pipeline, job, request, parameters, context, &steps);
    feedback->pushInfo(
        QObject::tr("release computed in %1 s").arg(double(engine.elapsed()) / 1000.0, 0, 'f', 2));
    steps.next();
    return writeRelease(parameters, context, &steps, job, release);
}

QVariantMap VbasReleaseAlgorithm::writeRelease(const QVariantMap& parameters, QgsProcessingContext& context,
                                               QgsProcessingFeedback* feedback, const Job& job,
                                               const VbasRelease& release) const
{
    const VbasPlanarFrame& frame = *job.frame;
    const vbas::Dataset& dataset = *job.data.dataset;
    const QString shadeBy = parameterAsEnumString(parameters, kShadeBy, context);
    using VbasOutputs::Audience;
    if (const QString published =
            VbasStyling::shadeField(VbasOutputs::aggregateFields(release, Audience::Publication), shadeBy);
        published != shadeBy)
        feedback->pushWarning(
            QObject::tr("%1: '%2' is for review only, not in the published aggregated regions: %3 and %4 "
                        "are shaded by '%5' instead, and their titles and legends say so; %6 and the report "
                        "are shaded by '%2'")
                .arg(kShadeBy, shadeBy, kOutput, kOutputMapImage, published, kOutputReview));
    QVariantMap outputs;
    // Progress: one share per output asked for, files and images alike.
    int wanted = 0;
    for (const QgsProcessingParameterDefinition* destination : destinationParameterDefinitions())
        wanted += isWanted(parameters, destination->name()) ? 1 : 0;
    const auto advance = [&]()
    {
        feedback->setProgress(100.0 * double(outputs.size()) / double(std::max(wanted, 1)));
    };
    const auto write = [&](const QString& name, std::optional<VbasStyling::Role> role,
                           const QgsFields& fields, VbasCompat::WkbType type,
                           const std::function<void(VbasSink&)>& writer)
    {
        if (!parameterDefinition(name))
            return;
        advance();
        QString destination;
        std::unique_ptr<QgsFeatureSink> sink(
            parameterAsSink(parameters, name, context, destination, fields, type, frame.sourceCrs()));
        if (!sink)
        {
            if (name == kOutput)
                throw QgsProcessingException(invalidSinkError(parameters, name));
            return;
        }
        // The output's share of the bar, and a line saying what was written and how long it took.
        QgsProcessingMultiStepFeedback share(std::max(wanted, 1), feedback);
        share.setCurrentStep(int(outputs.size()));
        QElapsedTimer timer;
        timer.start();
        // Rows without geometry (millions of records) go straight into the table QGIS created (VbasOgrTable).
        std::unique_ptr<VbasOgrTable> table;
        if (type == VbasCompat::WkbNoGeometry && VbasOgrTable::accepts(destination, fields))
        {
            table = std::make_unique<VbasOgrTable>(std::move(sink), destination, fields, name);
        }
        VbasSink out = table ? VbasSink(*table, name, share) : VbasSink(*sink, name, share);
        writer(out);
        if (table)
            table->finish();
        feedback->pushInfo(QObject::tr("%1: wrote %2 features in %3 s")
                               .arg(name)
                               .arg(out.written())
                               .arg(double(timer.elapsed()) / 1000.0, 0, 'f', 2));
        outputs.insert(name, destination);
        if (role)
            VbasLayerStyler::attach(context, destination, *role, shadeBy, outputs.value(kOutput).toString());
    };
    for (const auto& [name, audience] :
         {std::pair(kOutput, Audience::Publication), std::pair(kOutputReview, Audience::Review)})
        write(name, VbasStyling::Role::Aggregates, VbasOutputs::aggregateFields(release, audience),
              VbasCompat::WkbMultiPolygon,
              [&, audience = audience](VbasSink& sink)
              { VbasOutputs::writeAggregates(sink, release, frame, audience); });
    write(kOutputMapping, VbasStyling::Role::Mapping,
          VbasOutputs::mappingFields(job.regions->fields(), job.regionIdField, release),
          QgsWkbTypes::multiType(job.regions->wkbType()),
          [&](VbasSink& sink)
          { VbasOutputs::writeMapping(sink, *job.regions, job.regionIdField, job.data, release); });
    VbasOutputs::RecordLayout layout;
    layout.roles = job.recordFields;
    layout.rowId = parameterAsBoolean(parameters, kAddRowId, context);
    layout.flagFates = parameterAsBoolean(parameters, kKeepSuppressed, context);
    layout.hierarchies = job.hierarchies.empty() ? nullptr : &job.hierarchies;
    if (layout.flagFates)
        feedback->pushWarning(
            QObject::tr("KEEP_SUPPRESSED: the records output holds withheld records; it is for "
                        "review only and must not be published"));
    write(kOutputRecords, std::nullopt, VbasOutputs::recordFields(job.records->fields(), layout, release),
          VbasCompat::WkbNoGeometry,
          [&](VbasSink& sink)
          { VbasOutputs::writeRecords(sink, job.records->fields(), layout, job.data, release); });
    write(kOutputSites, VbasStyling::Role::Sites, VbasOutputs::siteFields(&release), VbasCompat::WkbPoint,
          [&](VbasSink& sink)
          {
              VbasOutputs::writeSites(
                  sink, {release.result.partition.sites, release.result.partition.weights}, frame, &release);
          });
    write(kOutputCells, VbasStyling::Role::Cells, VbasOutputs::cellFields(release),
          VbasCompat::WkbMultiPolygon,
          [&](VbasSink& sink) { VbasOutputs::writeCells(sink, release, frame); });
    if (const QString without = VbasOutputs::sitesWithoutCell(release);
        outputs.contains(kOutputCells) && !without.isEmpty())
        feedback->pushInfo(QStringLiteral("%1: %2").arg(kOutputCells, without));

    const QString mapImage = parameterAsFileOutput(parameters, kOutputMapImage, context);
    const QString report = parameterAsFileOutput(parameters, kOutputHtml, context);
    const QSize mapSize(parameterAsInt(parameters, kMapImageWidth, context),
                        parameterAsInt(parameters, kMapImageHeight, context));
    const bool withSites = parameterDefinition(kOutputSites) != nullptr;
    // The published map shows no hot spots of withheld records; the report's map, for review, does.
    if (!mapImage.isEmpty())
    {
        advance();
        const VbasMapImage map(job, release, withSites, shadeBy, Audience::Publication, *feedback);
        VbasMapImage::save(mapImage, kOutputMapImage, map.png(mapSize));
        outputs.insert(kOutputMapImage, mapImage);
    }
    if (!report.isEmpty())
    {
        advance();
        const VbasMapImage map(job, release, withSites, shadeBy, Audience::Review, *feedback);
        vbasWriteReleaseReport(report, kOutputHtml, displayName(),
                               VbasHtml::parameters(*this, parameters, context), release, dataset, frame,
                               {map.png(mapSize), map.caption()}, layout.hierarchies);
        outputs.insert(kOutputHtml, report);
    }

    const vbas::Release& counts = release.result.release;
    const qlonglong countValues[] = {qlonglong(dataset.totalRecords() + dataset.droppedRecords()),
                                     qlonglong(counts.released), qlonglong(dataset.droppedRecords()),
                                     qlonglong(release.result.aggregation.size()),
                                     qlonglong(release.result.aggregation.emptySites)};
    static_assert(std::size(countValues) == std::size(kCountOutputs));
    for (std::size_t i = 0; i < std::size(kCountOutputs); ++i)
        outputs.insert(kCountOutputs[i].name, countValues[i]);
    for (const vbas::MetricValue& metric : release.result.metrics)
        outputs.insert(VbasOutputs::metricOutputName(metric.id), metric.value);
    feedback->pushInfo(
        QObject::tr(
            "Released %1 of %2 records in %3 aggregated regions; suppressed %4 globally, "
            "%5 locally and %6 for l-diversity. Release only one aggregation of these records, ever: two "
            "can be overlaid to single people out.")
            .arg(counts.released)
            .arg(dataset.totalRecords() + dataset.droppedRecords())
            .arg(release.result.aggregation.size())
            .arg(counts.globallySuppressed)
            .arg(counts.locallySuppressed)
            .arg(counts.diversitySuppressed));
    return outputs;
}

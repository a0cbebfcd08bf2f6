#include "vbasreleasealgorithm.h"

#include "geometry/ClippedCells.h"
#include "vbaslayerstyler.h"
#include "vbasmapimage.h"
#include "vbasqgiscompat.h"
#include "vbasreport.h"

#include <qgsfeaturesink.h>
#include <qgsprocessingoutputs.h>
#include <qgsprocessingparameters.h>

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
    addParameter(new QgsProcessingParameterBoolean(
        kKeepSuppressed,
        QObject::tr("Keep suppressed records in the records output, flagged (not for release)"), false));
    addParameter(new QgsProcessingParameterFeatureSink(kOutput, QObject::tr("Aggregated regions"),
                                                       VbasCompat::SourceTypeVectorPolygon));
    if (withSites)
        addParameter(new QgsProcessingParameterFeatureSink(
            kOutputMapping, QObject::tr("Small areas with their aggregate"),
            VbasCompat::SourceTypeVectorPolygon, QVariant(), true));
    addParameter(new QgsProcessingParameterFeatureSink(kOutputRecords, QObject::tr("Anonymized records"),
                                                       VbasCompat::SourceTypeVector, QVariant(), true));
    if (withSites)
    {
        addParameter(new QgsProcessingParameterFeatureSink(
            kOutputSites, QObject::tr("Sites"), VbasCompat::SourceTypeVectorPoint, QVariant(), true));
        addParameter(new QgsProcessingParameterFeatureSink(
            kOutputCells, QObject::tr("Voronoi cells of the sites"), VbasCompat::SourceTypeVectorPolygon,
            QVariant(), true, false));
    }
    addParameter(new QgsProcessingParameterFileDestination(
        kOutputHtml, QObject::tr("Report"), QObject::tr("HTML files (*.html)"), QVariant(), true));
    addParameter(new QgsProcessingParameterFileDestination(
        kOutputMapImage, QObject::tr("Map image"), QObject::tr("PNG files (*.png)"), QVariant(), true));
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

VbasRelease
VbasReleaseAlgorithm::runRelease(const QVariantMap& parameters, const Job& job,
                                 QgsProcessingFeedback* feedback,
                                 const std::function<vbas::PipelineResult(vbas::Feedback&)>& compute) const
{
    const bool cells = parameterDefinition(kOutputCells) && isWanted(parameters, kOutputCells);
    VbasRelease release =
        runEngine(feedback,
                  [&](vbas::Feedback& engineFeedback)
                  {
                      vbas::Feedback::Stage stage(engineFeedback, 0.2, 0.9);
                      VbasRelease computed;
                      {
                          vbas::Feedback::Stage result(engineFeedback, 0.0, 0.7);
                          computed.result = compute(engineFeedback);
                      }
                      {
                          vbas::Feedback::Stage dissolve(engineFeedback, 0.7, cells ? 0.85 : 1.0);
                          computed.polygons = vbas::dissolve(*job.data.geometries,
                                                             computed.result.aggregation, engineFeedback);
                      }
                      if (cells)
                      {
                          vbas::Feedback::Stage clip(engineFeedback, 0.85, 1.0);
                          computed.cells = vbas::clippedVoronoiCells(
                              *job.data.geometries, computed.result.partition.sites, engineFeedback);
                      }
                      return computed;
                  });
    release.numberAggregates();
    return release;
}

QVariantMap VbasReleaseAlgorithm::writeRelease(const QVariantMap& parameters, QgsProcessingContext& context,
                                               QgsProcessingFeedback* feedback, const Job& job,
                                               const VbasRelease& release) const
{
    const VbasPlanarFrame& frame = *job.frame;
    const vbas::Dataset& dataset = *job.data.dataset;
    const QString shadeBy = parameterAsEnumString(parameters, kShadeBy, context);
    QVariantMap outputs;
    const auto write = [&](const QString& name, std::optional<VbasStyling::Role> role,
                           const QgsFields& fields, QgsWkbTypes::Type type,
                           const std::function<void(VbasSink&)>& writer)
    {
        if (!parameterDefinition(name))
            return;
        feedback->setProgress(90.0 + 10.0 * double(outputs.size()) / 6.0);
        QString destination;
        const std::unique_ptr<QgsFeatureSink> sink(
            parameterAsSink(parameters, name, context, destination, fields, type, frame.sourceCrs()));
        if (!sink)
        {
            if (name == kOutput)
                throw QgsProcessingException(invalidSinkError(parameters, name));
            return;
        }
        VbasSink out(*sink, name, *feedback);
        writer(out);
        outputs.insert(name, destination);
        if (role)
            VbasLayerStyler::attach(context, destination, *role, shadeBy, outputs.value(kOutput).toString());
    };
    write(kOutput, VbasStyling::Role::Aggregates, VbasOutputs::aggregateFields(release),
          VbasCompat::WkbMultiPolygon,
          [&](VbasSink& sink) { VbasOutputs::writeAggregates(sink, release, dataset, frame); });
    write(kOutputMapping, VbasStyling::Role::Mapping,
          VbasOutputs::mappingFields(job.regions->fields(), release),
          QgsWkbTypes::multiType(job.regions->wkbType()),
          [&](VbasSink& sink) { VbasOutputs::writeMapping(sink, *job.regions, job.data, release); });
    const bool flagFates = parameterAsBoolean(parameters, kKeepSuppressed, context);
    write(kOutputRecords, std::nullopt,
          VbasOutputs::recordFields(job.records->fields(), job.recordFields.region, release, flagFates),
          VbasCompat::WkbNoGeometry,
          [&](VbasSink& sink) {
              VbasOutputs::writeRecords(sink, *job.records, job.recordFields.region, job.data, release,
                                        flagFates);
          });
    write(kOutputSites, VbasStyling::Role::Sites, VbasOutputs::siteFields(&release), VbasCompat::WkbPoint,
          [&](VbasSink& sink)
          { VbasOutputs::writeSites(sink, release.result.partition.sites, frame, &release); });
    write(kOutputCells, VbasStyling::Role::Cells, VbasOutputs::cellFields(release),
          VbasCompat::WkbMultiPolygon,
          [&](VbasSink& sink) { VbasOutputs::writeCells(sink, release, frame); });

    const QString mapImage = parameterAsFileOutput(parameters, kOutputMapImage, context);
    const QString report = parameterAsFileOutput(parameters, kOutputHtml, context);
    if (!mapImage.isEmpty() || !report.isEmpty())
    {
        const VbasMapImage map(job, release, parameterDefinition(kOutputSites) != nullptr, shadeBy,
                               *feedback);
        const QByteArray png = map.png(QSize(parameterAsInt(parameters, kMapImageWidth, context),
                                             parameterAsInt(parameters, kMapImageHeight, context)));
        if (!mapImage.isEmpty())
        {
            VbasMapImage::save(mapImage, kOutputMapImage, png);
            outputs.insert(kOutputMapImage, mapImage);
        }
        if (!report.isEmpty())
        {
            vbasWriteReleaseReport(report, kOutputHtml, displayName(),
                                   VbasHtml::parameters(*this, parameters, context), release, dataset, frame,
                                   {png, map.caption()});
            outputs.insert(kOutputHtml, report);
        }
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
        QObject::tr("Released %1 of %2 records in %3 aggregated regions; suppressed %4 globally and "
                    "%5 locally. Release only one aggregation of these records, ever: two can be overlaid to "
                    "single people out.")
            .arg(counts.released)
            .arg(dataset.totalRecords() + dataset.droppedRecords())
            .arg(release.result.aggregation.size())
            .arg(counts.globallySuppressed)
            .arg(counts.locallySuppressed));
    return outputs;
}

#include "vbasalgorithmselectsites.h"

#include "vbasoutputs.h"
#include "vbasqgiscompat.h"

#include <qgsfeaturesink.h>
#include <qgsprocessingoutputs.h>

namespace
{
const QString kOutput = QStringLiteral("OUTPUT");
const QString kSitesPlaced = QStringLiteral("SITES_PLACED");
} // namespace

void VbasAlgorithmSelectSites::initAlgorithm(const QVariantMap&)
{
    addDataParameters();
    addSiteCountParameters();
    addSiteLocationParameters();
    addPartitionParameters();
    addParameter(new QgsProcessingParameterFeatureSink(kOutput, QObject::tr("Sites"),
                                                       VbasCompat::SourceTypeVectorPoint));
    addOutput(new QgsProcessingOutputNumber(kSitesPlaced, QObject::tr("Sites placed")));
}

QString VbasAlgorithmSelectSites::name() const
{
    return QStringLiteral("selectsites");
}

QString VbasAlgorithmSelectSites::displayName() const
{
    return QObject::tr("Select Voronoi sites");
}

QStringList VbasAlgorithmSelectSites::tags() const
{
    return QObject::tr("k-anonymity,sites,voronoi,balanced density,ADC,seeds,centres").split(',');
}

QString VbasAlgorithmSelectSites::group() const
{
    return QObject::tr("Stages");
}

QString VbasAlgorithmSelectSites::groupId() const
{
    return QStringLiteral("stages");
}

QString VbasAlgorithmSelectSites::shortHelpString() const
{
    return QObject::tr(
        "Runs the site stages of 'Aggregate to k-anonymity' alone: the site count, the site location and, "
        "when ADC is on, its refinement. The sites come out as points (site_id) in the CRS of the small "
        "areas.\n\n"
        "Look at them on the map, move or delete some by hand, then give them to 'Aggregate around given "
        "sites' to make the release. SITES_PLACED can be lower than the count asked for when the data cannot "
        "support more distinct sites (the log says why).");
}

VbasAlgorithmSelectSites* VbasAlgorithmSelectSites::createInstance() const
{
    return new VbasAlgorithmSelectSites();
}

QVariantMap VbasAlgorithmSelectSites::processGuarded(const QVariantMap& parameters,
                                                     QgsProcessingContext& context,
                                                     QgsProcessingFeedback* feedback)
{
    makePipeline(parameters, context, feedback); // a bad configuration fails before any data is read
    const Job job = loadJob(parameters, context, feedback, 0.2);
    const std::unique_ptr<vbas::Pipeline> pipeline = makePipeline(parameters, context, feedback, &job);
    const std::vector<vbas::Point> sites =
        runEngine(feedback,
                  [&](vbas::Feedback& engineFeedback)
                  {
                      vbas::Feedback::Stage stage(engineFeedback, 0.2, 0.95);
                      const vbas::PreparedData data = pipeline->prepare(*job.data.dataset, engineFeedback);
                      const std::uint64_t count = pipeline->estimateSiteCount(data, engineFeedback);
                      engineFeedback.info("site count: " + std::to_string(count) + " (" +
                                          pipeline->config().siteCounter + ")");
                      std::optional<vbas::RefinementReport> refinement;
                      return pipeline->refineSites(data, pipeline->locateSites(data, count, engineFeedback),
                                                   refinement, engineFeedback);
                  });

    QString destination;
    const std::unique_ptr<QgsFeatureSink> sink(parameterAsSink(parameters, kOutput, context, destination,
                                                               VbasOutputs::siteFields(nullptr),
                                                               VbasCompat::WkbPoint, job.frame->sourceCrs()));
    if (!sink)
        throw QgsProcessingException(invalidSinkError(parameters, kOutput));
    VbasSink out(*sink, kOutput, *feedback);
    VbasOutputs::writeSites(out, sites, *job.frame, nullptr);
    return {{kOutput, destination}, {kSitesPlaced, qulonglong(sites.size())}};
}

#include "vbasalgorithmpartition.h"

#include "vbasdataparameters.h"
#include "vbasoutputguard.h"
#include "vbasparameterreader.h"
#include "vbasqgiscompat.h"
#include "vbasreleaseoutputs.h"
#include "vbasreleaserun.h"
#include "vbasstrategyparameters.h"

using namespace VbasParameters;

void VbasAlgorithmPartition::initAlgorithm(const QVariantMap&)
{
    VbasDataParameters::addTo(*this);
    auto* sites = new QgsProcessingParameterFeatureSource(
        kSites, QObject::tr("Sites"), {static_cast<int>(VbasCompat::SourceTypeVectorPoint)});
    sites->setHelp(QObject::tr("One point per aggregated region, in any CRS. Every small area joins the site "
                               "nearest its representative point."));
    addParameter(sites);
    auto* weight = new QgsProcessingParameterField(kSiteWeightField, QObject::tr("Site weight field"),
                                                   QVariant(), kSites, VbasCompat::FieldNumeric, false, true);
    weight->setHelp(
        QObject::tr("Optional: the power weight of each site (the 'weight' field of 'Select Voronoi "
                    "sites', square metres of the computation plane). A small area joins the site "
                    "with the least squared distance minus weight (with the barrier and geodesic "
                    "partitions, the squared path length): a heavier site reaches further. Empty: every "
                    "weight 0, the plain Voronoi partition."));
    addParameter(weight);
    VbasStrategyParameters::addPartitionTo(*this, false);
    VbasReleaseOutputs::addTo(*this, true);
}

QString VbasAlgorithmPartition::name() const
{
    return QStringLiteral("partitionregions");
}

QString VbasAlgorithmPartition::displayName() const
{
    return QObject::tr("Aggregate around given sites");
}

QStringList VbasAlgorithmPartition::tags() const
{
    return QObject::tr("k-anonymity,anonymize,aggregate,partition,voronoi,sites,manual,privacy,records")
        .split(',');
}

QString VbasAlgorithmPartition::group() const
{
    return QObject::tr("Release");
}

QString VbasAlgorithmPartition::groupId() const
{
    return QStringLiteral("release");
}

QString VbasAlgorithmPartition::shortHelpString() const
{
    return QObject::tr(
        "Makes the release of 'Aggregate to k-anonymity' around sites you give instead of computed ones: "
        "every small area joins the site nearest its representative point, the records that stay in groups "
        "smaller than k are suppressed, and the release is rated.\n\n"
        "Typical use: run 'Select Voronoi sites', move or delete sites by hand (say, to keep a town whole), "
        "then run this. Sites may be in any CRS; sites that receive no small area form no region (counted in "
        "EMPTY_SITES). With REFINE_BOUNDARIES on, single small areas then move to a bordering region while "
        "that withholds fewer records (off by default: the regions stay the sites' cells).\n\n"
        "The outputs are the same as those of the main job. Release only one aggregation of the same "
        "records, ever: two aggregations can be overlaid to single people out.");
}

QString VbasAlgorithmPartition::shortDescription() const
{
    return QObject::tr("The release around sites you give, for example sites moved by hand.");
}

VbasAlgorithmPartition* VbasAlgorithmPartition::createInstance() const
{
    return new VbasAlgorithmPartition();
}

QVariantMap VbasAlgorithmPartition::processAlgorithm(const QVariantMap& parameters,
                                                     QgsProcessingContext& context,
                                                     QgsProcessingFeedback* feedback)
{
    VbasOutputGuard guard(*this, VbasReleaseOutputs::withReportKept(*this, parameters, context), context,
                          feedback);
    // The sites are where this release's regions come from: errors about site locations point at them.
    const VbasParameterReader read(*this, guard.parameters(), context,
                                   VbasSubjectParameters().renamed(vbas::Subject::SiteLocation, kSites));
    VbasReleaseRun run(read, feedback);
    return guard.runAndCommit(
        feedback,
        [&]
        {
            run.configure();
            VbasDataParameters::requireGeometryType(*read.source(kSites), kSites, VbasCompat::GeometryPoint,
                                                    QObject::tr("points"));
            run.openLedger();
            run.loadJob();
            run.checkLedger();
            run.compute(
                [&](const vbas::Pipeline& pipeline, const VbasJob& job, const vbas::ReleaseRequest& request,
                    QgsProcessingFeedback* steps)
                {
                    const std::unique_ptr<QgsProcessingFeatureSource> sitesSource = read.source(kSites);
                    const QString weightField = read.asString(kSiteWeightField);
                    vbas::Sites sites = read.runEngine(
                        steps, [&](vbas::Feedback& engineFeedback)
                        { return loadSites(*sitesSource, kSites, weightField, *job.frame, engineFeedback); });
                    if (sites.points.empty())
                        throw parameterError(
                            kSites, QObject::tr("the layer holds no points; give at least one site"));
                    return read.runEngine(
                        steps,
                        [&](vbas::Feedback& engineFeedback)
                        {
                            return VbasRelease(pipeline.releaseAroundSites(job.engineJob(), std::move(sites),
                                                                           request, engineFeedback));
                        });
                });
            return run.write(guard);
        },
        [&] { run.record(); });
}

#include "vbasalgorithmselectsites.h"

#include "vbasdataparameters.h"
#include "vbasoutputguard.h"
#include "vbasoutputs.h"
#include "vbasparameterreader.h"
#include "vbasqgiscompat.h"
#include "vbassteps.h"
#include "vbasstrategyparameters.h"

#include <qgsfeaturesink.h>
#include <qgsprocessingoutputs.h>

using namespace VbasParameters;

void VbasAlgorithmSelectSites::initAlgorithm(const QVariantMap&)
{
    VbasDataParameters::addTo(*this, VbasDataParameters::QuasiIdentifiers::Optional);
    VbasStrategyParameters::addSiteCountTo(*this);
    VbasStrategyParameters::addSiteLocationTo(*this);
    // Off by default, as in 'Aggregate around given sites': the count searched here is the one that
    // release reaches with the same switch.
    VbasStrategyParameters::addPartitionTo(*this, false);
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
        "sites' to make the release, with the same REFINE_BOUNDARIES (the site count is searched for it). "
        "SITES_PLACED can be lower than the count asked for when the data cannot "
        "support more distinct sites (the log says why).");
}

QString VbasAlgorithmSelectSites::shortDescription() const
{
    return QObject::tr("The Voronoi sites alone, as points to inspect, move and give back.");
}

VbasAlgorithmSelectSites* VbasAlgorithmSelectSites::createInstance() const
{
    return new VbasAlgorithmSelectSites();
}

QVariantMap VbasAlgorithmSelectSites::processAlgorithm(const QVariantMap& parameters,
                                                       QgsProcessingContext& context,
                                                       QgsProcessingFeedback* feedback)
{
    VbasOutputGuard guard(*this, parameters, context, feedback);
    const VbasParameterReader read(*this, guard.parameters(), context);
    return guard.runAndCommit(
        feedback,
        [&]() -> QVariantMap
        {
            const std::unique_ptr<vbas::Pipeline> pipeline =
                VbasStrategyParameters::makePipeline(read, feedback);
            VbasSteps steps(3, feedback);
            const VbasJob job = VbasDataParameters::loadJob(read, &steps);
            steps.next();
            const vbas::Sites sites =
                read.runEngine(&steps, [&](vbas::Feedback& engineFeedback)
                               { return pipeline->selectSites(job.engineJob(), engineFeedback); });
            steps.next();
            QString destination;
            const std::unique_ptr<QgsFeatureSink> sink =
                read.sink(kOutput, destination, VbasOutputs::siteFields(nullptr), VbasCompat::WkbPoint,
                          job.frame->sourceCrs());
            if (!sink)
                throw read.invalidSinkError(kOutput);
            VbasSink out(*sink, kOutput, steps, &guard.writtenCounts(), destination);
            VbasOutputs::writeSites(out, sites, *job.frame, nullptr);
            return {{kOutput, destination}, {kSitesPlaced, qulonglong(sites.points.size())}};
        });
}

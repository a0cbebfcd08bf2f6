#include "vbasalgorithmestimatesitecount.h"

#include "vbasdataparameters.h"
#include "vbasoutputguard.h"
#include "vbasparameterreader.h"
#include "vbassteps.h"
#include "vbasstrategyparameters.h"

#include <qgsprocessingoutputs.h>

using namespace VbasParameters;

void VbasAlgorithmEstimateSiteCount::initAlgorithm(const QVariantMap&)
{
    VbasDataParameters::addTo(*this, VbasDataParameters::QuasiIdentifiers::Optional);
    // The thesis's estimate by default: the suppression budget searches whole releases, whose site
    // location, refinement and partition this stage does not take.
    VbasStrategyParameters::addSiteCountTo(*this, VbasStrategyParameters::Choice::One,
                                           vbas::PipelineConfig{});
    addOutput(new QgsProcessingOutputNumber(kEstimatedSites, QObject::tr("Site count")));
    addOutput(new QgsProcessingOutputNumber(kUnclampedEstimate, QObject::tr("Estimate before clamping")));
    addOutput(
        new QgsProcessingOutputNumber(kReleasableRecords, QObject::tr("Records after global suppression")));
    addOutput(new QgsProcessingOutputNumber(kRegionsWithRecords, QObject::tr("Small areas holding records")));
    addOutput(new QgsProcessingOutputNumber(kMaxCombs, QObject::tr("MaxCombs (product of category counts)")));
}

QString VbasAlgorithmEstimateSiteCount::name() const
{
    return QStringLiteral("estimatesitecount");
}

QString VbasAlgorithmEstimateSiteCount::displayName() const
{
    return QObject::tr("Estimate the number of regions");
}

QStringList VbasAlgorithmEstimateSiteCount::tags() const
{
    return QObject::tr("k-anonymity,site count,GAPS,MaxCombs,entropy,regions,estimate").split(',');
}

QString VbasAlgorithmEstimateSiteCount::group() const
{
    return QObject::tr("Stages");
}

QString VbasAlgorithmEstimateSiteCount::groupId() const
{
    return QStringLiteral("stages");
}

QString VbasAlgorithmEstimateSiteCount::shortHelpString() const
{
    return QObject::tr(
        "Runs the first stage of 'Aggregate to k-anonymity' alone: how many sites, and so aggregated "
        "regions, the chosen site-count method asks for on these records and this k.\n\n"
        "ESTIMATED_SITES is the count the release would use: the estimate clamped between 1 and the number "
        "of small areas holding records (UNCLAMPED_ESTIMATE is before clamping). RELEASABLE_RECORDS (N after "
        "global suppression), REGIONS_WITH_RECORDS and MAX_COMBS (the product of the category counts of the "
        "quasi-identifiers, NULL counting as a category) are the figures the methods use.\n\n"
        "More sites means smaller regions (more precise geography) and more suppression. In a model, feed "
        "ESTIMATED_SITES (or a multiple of it) to SITE_COUNT with the fixed site-count method to try "
        "variations.");
}

QString VbasAlgorithmEstimateSiteCount::shortDescription() const
{
    return QObject::tr("How many regions a site-count method asks for, with the figures it uses.");
}

VbasAlgorithmEstimateSiteCount* VbasAlgorithmEstimateSiteCount::createInstance() const
{
    return new VbasAlgorithmEstimateSiteCount();
}

QVariantMap VbasAlgorithmEstimateSiteCount::processAlgorithm(const QVariantMap& parameters,
                                                             QgsProcessingContext& context,
                                                             QgsProcessingFeedback* feedback)
{
    VbasOutputGuard guard(*this, parameters, context, feedback);
    const VbasParameterReader read(*this, guard.parameters(), context);
    return guard.runAndCommit(feedback,
                              [&]() -> QVariantMap
                              {
                                  const std::unique_ptr<vbas::Pipeline> pipeline =
                                      VbasStrategyParameters::makePipeline(read, feedback);
                                  VbasSteps steps(2, feedback);
                                  const VbasJob job = VbasDataParameters::loadJob(read, &steps);
                                  steps.next();
                                  const vbas::SiteCountEstimate estimate = read.runEngine(
                                      &steps, [&](vbas::Feedback& engineFeedback)
                                      { return pipeline->estimateSites(job.engineJob(), engineFeedback); });
                                  return {{kEstimatedSites, qulonglong(estimate.sites)},
                                          {kUnclampedEstimate, qulonglong(estimate.unclamped)},
                                          {kReleasableRecords, qulonglong(estimate.releasableRecords)},
                                          {kRegionsWithRecords, qulonglong(estimate.regionsWithRecords)},
                                          {kMaxCombs, double(estimate.maxCombs)}};
                              });
}

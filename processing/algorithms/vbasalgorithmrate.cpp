#include "vbasalgorithmrate.h"

#include "vbasdataparameters.h"
#include "vbasgivenaggregation.h"
#include "vbasoutputguard.h"
#include "vbasparameterreader.h"
#include "vbasqgiscompat.h"
#include "vbasreleaseoutputs.h"
#include "vbasreleaserun.h"

using namespace VbasParameters;

void VbasAlgorithmRate::initAlgorithm(const QVariantMap&)
{
    VbasDataParameters::addTo(*this);
    auto* aggregate = new QgsProcessingParameterField(
        kAggregateField, QObject::tr("Aggregate of each small area"), QStringLiteral(""), kRegions);
    aggregate->setHelp(
        QObject::tr("A field of the small areas naming the region each belongs to (a town, a "
                    "health district, an earlier release). Compared as text; NULL is not allowed."));
    addParameter(aggregate);
    VbasReleaseOutputs::addTo(*this, false);
}

QString VbasAlgorithmRate::name() const
{
    return QStringLiteral("rateaggregation");
}

QString VbasAlgorithmRate::displayName() const
{
    return QObject::tr("Rate an existing aggregation");
}

QStringList VbasAlgorithmRate::tags() const
{
    return QObject::tr("k-anonymity,rate,quality,metrics,aggregation,regions,districts,suppression")
        .split(',');
}

QString VbasAlgorithmRate::group() const
{
    return QObject::tr("Evaluation");
}

QString VbasAlgorithmRate::groupId() const
{
    return QStringLiteral("evaluation");
}

QString VbasAlgorithmRate::shortHelpString() const
{
    return QObject::tr(
        "Rates any aggregation of the small areas, for example towns or health districts, the way VBAS rates "
        "its own: the records that stay in groups smaller than k inside their aggregate are suppressed, and "
        "every quality metric is computed, so the aggregation can be compared with a VBAS release.\n\n"
        "AGGREGATE_FIELD names the aggregate of each small area; every small area needs one. An aggregation "
        "has no sites: distances are measured to the mean of each aggregate's small-area points, and "
        "site_x/site_y hold that mean.\n\n"
        "Publishable outputs: the aggregated regions with their figures (aggregate_id holds the field's "
        "values), the anonymized records (only fields with a role, in a random order) and a map image. For "
        "review only: OUTPUT_REVIEW with the withheld counts, and the HTML report. Release only one "
        "aggregation of the same records, ever.");
}

QString VbasAlgorithmRate::shortDescription() const
{
    return QObject::tr(
        "Rates any aggregation (towns, districts, an earlier release) the way VBAS rates its own.");
}

VbasAlgorithmRate* VbasAlgorithmRate::createInstance() const
{
    return new VbasAlgorithmRate();
}

QVariantMap VbasAlgorithmRate::processAlgorithm(const QVariantMap& parameters, QgsProcessingContext& context,
                                                QgsProcessingFeedback* feedback)
{
    VbasOutputGuard guard(*this, VbasReleaseOutputs::withReportKept(*this, parameters, context), context,
                          feedback);
    const VbasParameterReader read(*this, guard.parameters(), context);
    VbasReleaseRun run(read, feedback);
    return guard.runAndCommit(
        feedback,
        [&]
        {
            run.configure();
            run.openLedger();
            const VbasJob& job = run.loadJob();
            const VbasGivenAggregation given = VbasGivenAggregation::fromField(
                job, read.fieldIndex(kAggregateField, job.regions->fields()), kAggregateField, nullptr);
            run.checkLedger(given.areas);
            run.compute([&](const vbas::Pipeline& pipeline, const VbasJob& loaded,
                            const vbas::ReleaseRequest& request, QgsProcessingFeedback* steps)
                        { return run.releaseOn(pipeline, loaded, given, request, steps); });
            return run.write(guard);
        },
        [&] { run.record(); });
}

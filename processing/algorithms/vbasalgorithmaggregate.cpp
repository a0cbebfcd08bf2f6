#include "vbasalgorithmaggregate.h"

#include "vbasdataparameters.h"
#include "vbasoutputguard.h"
#include "vbasparameterreader.h"
#include "vbaspopulationparameters.h"
#include "vbasreleaseoutputs.h"
#include "vbasreleaserun.h"
#include "vbasstrategyparameters.h"

void VbasAlgorithmAggregate::initAlgorithm(const QVariantMap&)
{
    VbasDataParameters::addTo(*this);
    VbasStrategyParameters::addSiteCountTo(*this);
    VbasStrategyParameters::addSiteLocationTo(*this);
    VbasStrategyParameters::addPartitionTo(*this);
    VbasDataParameters::addGeneralizationTo(*this);
    VbasPopulationParameters::addKMapTo(*this);
    VbasReleaseOutputs::addTo(*this, true);
}

QString VbasAlgorithmAggregate::name() const
{
    return QStringLiteral("aggregateregions");
}

QString VbasAlgorithmAggregate::displayName() const
{
    return QObject::tr("Aggregate to k-anonymity");
}

QStringList VbasAlgorithmAggregate::tags() const
{
    return QObject::
        tr("k-anonymity,anonymize,aggregate,merge,regions,voronoi,privacy,disclosure,health,records,census "
           "tracts,population floor")
            .split(',');
}

QString VbasAlgorithmAggregate::group() const
{
    return QObject::tr("Release");
}

QString VbasAlgorithmAggregate::groupId() const
{
    return QStringLiteral("release");
}

QString VbasAlgorithmAggregate::shortHelpString() const
{
    return QObject::tr(
        "Releases a table of records (cases, patients) with a geography as fine as their protection allows: "
        "small areas (census tracts, postal areas) are merged into larger regions until, in every region, "
        "every "
        "group of records that look alike (the same age band, sex...) holds at least k records; the few "
        "records that still stand out are withheld.\n\n"
        "To fill in: the small areas and their id field; the records and the field naming each record's "
        "small "
        "area (the same ids); the quasi-identifiers, i.e. what someone may know about a person (age, sex, "
        "marital status); k (5 is common). Optional: sensitive fields such as a diagnosis, published with at "
        "least l different values in every group; the share of records the release may withhold (1 % by "
        "default: the most regions within it are made); how ages and other numbers may be banded (by default "
        "they are banded automatically when that gives a finer map, and never removed).\n\n"
        "Published (safe to share): the released regions with their figures, the released records (each with "
        "its region, in a random order, only the fields given a role), the small areas with their region, "
        "the region centres and a map. For your review only, never to publish: the report (what was released "
        "and what was withheld, from whom) and the regions with their withheld counts.\n\n"
        "Every release is recorded in a release ledger (in QGIS, one in your profile), which refuses a "
        "second "
        "aggregation of the same records: overlaid on the first, it would single people out. New records, "
        "such as the next quarter, are released on the same regions with 'Release new records on an earlier "
        "aggregation'. For a minimum population per region without quasi-identifiers, use 'Aggregate to a "
        "population floor'. Check any released table with 'Check k-anonymity of a release'.");
}

QString VbasAlgorithmAggregate::shortDescription() const
{
    return QObject::tr("Merges small areas until every group of look-alike records holds k, withholds what "
                       "still stands out and writes the release.");
}

VbasAlgorithmAggregate* VbasAlgorithmAggregate::createInstance() const
{
    return new VbasAlgorithmAggregate();
}

QVariantMap VbasAlgorithmAggregate::processAlgorithm(const QVariantMap& parameters,
                                                     QgsProcessingContext& context,
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
            run.loadJob();
            run.checkLedger();
            run.computeRelease();
            return run.write(guard);
        },
        [&] { run.record(); });
}

#include "vbasalgorithmpopulationfloor.h"

#include "vbasdataparameters.h"
#include "vbasoutputguard.h"
#include "vbasparameterreader.h"
#include "vbasreleaseoutputs.h"
#include "vbasreleaserun.h"
#include "vbasstrategyparameters.h"

void VbasAlgorithmPopulationFloor::initAlgorithm(const QVariantMap&)
{
    VbasDataParameters::addTo(*this, VbasDataParameters::QuasiIdentifiers::None);
    VbasStrategyParameters::addSiteCountTo(*this);
    VbasStrategyParameters::addSiteLocationTo(*this);
    VbasStrategyParameters::addPartitionTo(*this);
    VbasReleaseOutputs::addTo(*this, true);
}

QString VbasAlgorithmPopulationFloor::name() const
{
    return QStringLiteral("populationfloor");
}

QString VbasAlgorithmPopulationFloor::displayName() const
{
    return QObject::tr("Aggregate to a population floor");
}

QStringList VbasAlgorithmPopulationFloor::tags() const
{
    return QObject::tr(
               "population floor,minimum population,aggregate,merge,regions,voronoi,counts,census tracts")
        .split(',');
}

QString VbasAlgorithmPopulationFloor::group() const
{
    return QObject::tr("Release");
}

QString VbasAlgorithmPopulationFloor::groupId() const
{
    return QStringLiteral("release");
}

QString VbasAlgorithmPopulationFloor::shortHelpString() const
{
    return QObject::tr(
        "Merges small areas into regions until every region holds at least K records (or people: give the "
        "small areas layer itself as the records, its population as the records per row and, say, K = "
        "20000). "
        "This is a population floor, not k-anonymity: it keeps counts from being published for small "
        "populations, but it does NOT protect a person whose age, sex or other values someone knows, since "
        "no such values are considered. To protect records against that, use 'Aggregate to k-anonymity' with "
        "the quasi-identifiers.\n\n"
        "Regions with fewer than K records are withheld; by default the release makes the most regions that "
        "withhold at most 1 % of the records. The outputs are those of the main job: the released regions, "
        "the records with their region, the report.");
}

QString VbasAlgorithmPopulationFloor::shortDescription() const
{
    return QObject::tr(
        "Merges small areas until every region holds at least K records (no quasi-identifiers).");
}

VbasAlgorithmPopulationFloor* VbasAlgorithmPopulationFloor::createInstance() const
{
    return new VbasAlgorithmPopulationFloor();
}

QVariantMap VbasAlgorithmPopulationFloor::processAlgorithm(const QVariantMap& parameters,
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
            feedback->pushWarning(
                QObject::tr("Population floor: every released region holds at least %1 records. No "
                            "quasi-identifiers were given, so nothing protects a person whose age, sex "
                            "or other values someone knows; use 'Aggregate to k-anonymity' for that.")
                    .arg(read.requiredK()));
            run.computeRelease();
            return run.write(guard);
        },
        [&] { run.record(); });
}

#include "vbasalgorithmreleaseonaggregation.h"

#include "vbasdataparameters.h"
#include "vbasgivenaggregation.h"
#include "vbasoutputguard.h"
#include "vbasparameterreader.h"
#include "vbasqgiscompat.h"
#include "vbasreleaseoutputs.h"
#include "vbasreleaserun.h"

#include <optional>

using namespace VbasParameters;

namespace
{
/**
 * Returns the earlier release LEDGER_ENTRY names in `ledger` (null: none is kept), or nullopt when the
 * regions are given by AGGREGATE_FIELD instead; throws unless exactly one of the two is given.
 */
std::optional<vbas::LedgerEntry> earlierRelease(const VbasParameterReader& read,
                                                const VbasLedgerStore* ledger)
{
    const QVariant given = read.parameters().value(kLedgerEntry);
    const bool byEntry = given.isValid() && !given.isNull() && !given.toString().isEmpty();
    const bool byField = !read.fieldNames(kAggregateField).isEmpty();
    if (byEntry == byField)
        throw parameterError(kLedgerEntry,
                             QObject::tr("give the earlier release's number (LEDGER_ENTRY) or the region "
                                         "of each small area (AGGREGATE_FIELD), one of the two"));
    if (!byEntry)
        return std::nullopt;
    const int id = read.asInt(kLedgerEntry);
    if (ledger == nullptr)
        throw parameterError(kLedgerEntry, QObject::tr("release %1 is looked up in the release ledger; give "
                                                       "RELEASE_LEDGER")
                                               .arg(id));
    std::optional<vbas::LedgerEntry> earlier;
    for (vbas::LedgerEntry& entry : ledger->entries())
        if (entry.id == id)
            earlier = std::move(entry);
    if (!earlier)
        throw parameterError(
            kLedgerEntry,
            QObject::tr("the release ledger %1 has no release %2").arg(ledger->location()).arg(id));
    return earlier;
}

/** Returns the regions of `earlier` for `job`; throws unless the job's quasi-identifiers are that release's.
 */
VbasGivenAggregation regionsOf(const vbas::LedgerEntry& earlier, const VbasJob& job)
{
    const QString described = QString::fromStdString(earlier.describe());
    std::vector<std::string> names;
    for (const int field : job.recordFields.quasiIdentifiers)
        names.push_back(job.records->fields().at(field).name().toStdString());
    if (names != earlier.quasiIdentifiers)
    {
        QStringList expected;
        for (const std::string& name : earlier.quasiIdentifiers)
            expected << QString::fromStdString(name);
        throw parameterError(
            kParameterQuasiIdentifiers,
            QObject::tr("%1 released the quasi-identifiers %2; give the same, in that order, so that "
                        "the releases publish the same groups")
                .arg(described, expected.join(QStringLiteral(", "))));
    }
    return VbasGivenAggregation::fromAreas(job, earlier.aggregation, described, kRegions);
}
} // namespace

void VbasAlgorithmReleaseOnAggregation::initAlgorithm(const QVariantMap&)
{
    VbasDataParameters::addTo(*this);
    auto* entry = new QgsProcessingParameterNumber(kLedgerEntry,
                                                   QObject::tr("Earlier release to follow (ledger number)"),
                                                   VbasCompat::NumberTypeInteger, QVariant(), true, 1);
    entry->setHelp(QObject::tr(
        "The number of an earlier release in RELEASE_LEDGER (the log and the report of that release give it, "
        "e.g. 3): these records are released on its regions and its quasi-identifier levels. Or leave it "
        "empty "
        "and give AGGREGATE_FIELD."));
    addParameter(entry);
    auto* aggregate =
        new QgsProcessingParameterField(kAggregateField, QObject::tr("Region of each small area"), QVariant(),
                                        kRegions, VbasCompat::FieldTypeAny, false, true);
    aggregate->setHelp(QObject::tr(
        "Instead of LEDGER_ENTRY: a field of the small areas naming their region, e.g. aggregate_id of the "
        "small-areas layer an earlier release published (OUTPUT_MAPPING) given as REGIONS. The "
        "quasi-identifiers "
        "are then released as they are."));
    addParameter(aggregate);
    VbasReleaseOutputs::addTo(*this, false);
}

QString VbasAlgorithmReleaseOnAggregation::name() const
{
    return QStringLiteral("releaseonaggregation");
}

QString VbasAlgorithmReleaseOnAggregation::displayName() const
{
    return QObject::tr("Release new records on an earlier aggregation");
}

QStringList VbasAlgorithmReleaseOnAggregation::tags() const
{
    return QObject::tr("k-anonymity,periodic,quarter,update,ledger,regions,release,suppression").split(',');
}

QString VbasAlgorithmReleaseOnAggregation::group() const
{
    return QObject::tr("Release");
}

QString VbasAlgorithmReleaseOnAggregation::groupId() const
{
    return QStringLiteral("release");
}

QString VbasAlgorithmReleaseOnAggregation::shortHelpString() const
{
    return QObject::tr(
        "Releases records on the regions of an earlier release: the next quarter's cases, or a corrected or "
        "cumulative table. The regions never change, so the releases can be compared region by region and "
        "never overlaid to single people out.\n\n"
        "The regions and the quasi-identifier levels come from an entry of the release ledger (LEDGER_ENTRY "
        "in "
        "RELEASE_LEDGER), or from a field of the small areas (AGGREGATE_FIELD). k and l are checked again: "
        "the "
        "records in groups below k (or not l-diverse) in their region are withheld, and the log says how "
        "many.\n\n"
        "Records that overlap an earlier release on the same regions (a cumulative or corrected table) may "
        "not "
        "change any published count by 1 to k - 1 records: such groups are withheld and counted (the "
        "difference of two releases is published too). Name the record id field (RECORD_ID_FIELD) in both "
        "releases so that new records are told from earlier ones and released in full. The release is "
        "recorded "
        "in the ledger like any other.\n\n"
        "The outputs are those of the main job, without sites.");
}

QString VbasAlgorithmReleaseOnAggregation::shortDescription() const
{
    return QObject::tr(
        "Releases new records (next quarter, a corrected table) on the regions of an earlier release.");
}

VbasAlgorithmReleaseOnAggregation* VbasAlgorithmReleaseOnAggregation::createInstance() const
{
    return new VbasAlgorithmReleaseOnAggregation();
}

QVariantMap VbasAlgorithmReleaseOnAggregation::processAlgorithm(const QVariantMap& parameters,
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
            const std::optional<vbas::LedgerEntry> earlier = earlierRelease(read, run.openLedger());
            const VbasJob& job = run.loadJob(earlier ? &earlier->generalization : nullptr);
            const VbasGivenAggregation given =
                earlier
                    ? regionsOf(*earlier, job)
                    : VbasGivenAggregation::fromField(job,
                                                      read.fieldIndex(kAggregateField, job.regions->fields()),
                                                      kAggregateField, nullptr);
            run.checkLedger(given.areas);
            run.compute(
                [&](const vbas::Pipeline& pipeline, const VbasJob& loaded,
                    const vbas::ReleaseRequest& request, QgsProcessingFeedback* steps)
                {
                    vbas::ReleaseRequest atLevels = request;
                    if (earlier && !earlier->generalization.empty())
                        atLevels.levels = earlier->levels;
                    if (earlier)
                        steps->pushInfo(QObject::tr("Released on the %1 regions and the levels of %2")
                                            .arg(given.groups())
                                            .arg(QString::fromStdString(earlier->describe())));
                    return run.releaseOn(pipeline, loaded, given, atLevels, steps);
                });
            return run.write(guard);
        },
        [&] { run.record(); });
}

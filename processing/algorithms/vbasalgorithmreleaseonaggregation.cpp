#include "vbasalgorithmreleaseonaggregation.h"

#include <QJsonDocument>
#include <QJsonObject>

void VbasAlgorithmReleaseOnAggregation::initAlgorithm(const QVariantMap&)
{
    addDataParameters();
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
    addReleaseOutputs(false);
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

void VbasAlgorithmReleaseOnAggregation::readLedger(const VbasLedgerStore* ledger,
                                                   const QVariantMap& parameters,
                                                   QgsProcessingContext& context)
{
    mEntry.reset();
    const bool byEntry = parameters.value(kLedgerEntry).isValid() &&
                         !parameters.value(kLedgerEntry).isNull() &&
                         !parameters.value(kLedgerEntry).toString().isEmpty();
    const bool byField = !parameterAsFieldNames(parameters, kAggregateField, context).isEmpty();
    if (byEntry == byField)
        throw parameterError(kLedgerEntry,
                             QObject::tr("give the earlier release's number (LEDGER_ENTRY) or the region "
                                         "of each small area (AGGREGATE_FIELD), one of the two"));
    if (!byEntry)
        return;
    const int id = parameterAsInt(parameters, kLedgerEntry, context);
    if (ledger == nullptr)
        throw parameterError(kLedgerEntry, QObject::tr("release %1 is looked up in the release ledger; give "
                                                       "RELEASE_LEDGER")
                                               .arg(id));
    for (vbas::LedgerEntry& entry : ledger->entries())
        if (entry.id == id)
            mEntry = std::move(entry);
    if (!mEntry)
        throw parameterError(
            kLedgerEntry,
            QObject::tr("the release ledger %1 has no release %2").arg(ledger->location()).arg(id));
}

VbasJobAlgorithm::GeneralizationDefinition
VbasAlgorithmReleaseOnAggregation::generalizationDefinition(const QVariantMap&, QgsProcessingContext&) const
{
    GeneralizationDefinition definition;
    if (!mEntry || mEntry->generalization.empty())
        return definition;
    const QJsonObject json =
        QJsonDocument::fromJson(QByteArray::fromStdString(mEntry->generalization)).object();
    definition.text = json.value(QStringLiteral("text")).toString().toStdString();
    const QJsonObject tables = json.value(QStringLiteral("tables")).toObject();
    for (auto table = tables.begin(); table != tables.end(); ++table)
        definition.tables.emplace(table.key().toStdString(), table.value().toString().toStdString());
    return definition;
}

std::optional<vbas::AreaRegions>
VbasAlgorithmReleaseOnAggregation::givenAggregation(const Job& job, const QVariantMap& parameters,
                                                    QgsProcessingContext& context)
{
    if (!mEntry)
    {
        const int field = parameterAsFieldIndex(parameters, kAggregateField, job.regions->fields(), context);
        mGiven = VbasGivenAggregation::fromField(job, field, kAggregateField, nullptr);
        return mGiven->areas;
    }
    const QString earlier = QString::fromStdString(mEntry->describe());
    std::vector<std::string> names;
    for (const int field : job.recordFields.quasiIdentifiers)
        names.push_back(job.records->fields().at(field).name().toStdString());
    if (names != mEntry->quasiIdentifiers)
    {
        QStringList expected;
        for (const std::string& name : mEntry->quasiIdentifiers)
            expected << QString::fromStdString(name);
        throw parameterError(
            kParameterQuasiIdentifiers,
            QObject::tr("%1 released the quasi-identifiers %2; give the same, in that order, so that "
                        "the releases publish the same groups")
                .arg(earlier, expected.join(QStringLiteral(", "))));
    }
    mGiven = VbasGivenAggregation::fromAreas(job, mEntry->aggregation, earlier, kRegions);
    return mGiven->areas;
}

VbasRelease VbasAlgorithmReleaseOnAggregation::computeRelease(const vbas::Pipeline& pipeline, const Job& job,
                                                              const vbas::ReleaseRequest& request,
                                                              const QVariantMap&, QgsProcessingContext&,
                                                              QgsProcessingFeedback* feedback) const
{
    vbas::ReleaseRequest atLevels = request;
    if (mEntry && !job.hierarchies.empty())
        atLevels.levels = runEngine(
            feedback,
            [&](vbas::Feedback&)
            {
                std::vector<std::size_t> levels;
                for (std::size_t j = 0; j < job.hierarchies.size(); ++j)
                    levels.push_back(job.hierarchies[j]
                                         ? job.hierarchies[j]->hierarchy.levelNamed(mEntry->levels.at(j))
                                         : 0);
                return levels;
            });
    if (mEntry && feedback)
        feedback->pushInfo(QObject::tr("Released on the %1 regions and the levels of %2")
                               .arg(mGiven->groups())
                               .arg(QString::fromStdString(mEntry->describe())));
    return releaseOn(pipeline, job, *mGiven, atLevels, feedback);
}

#include "vbasreleaserun.h"

#include "vbasdataparameters.h"
#include "vbasparameterreader.h"
#include "vbasprovenance.h"
#include "vbasreleaseoutputs.h"
#include "vbassteps.h"
#include "vbasstrategyparameters.h"

#include <qgsapplication.h>
#include <qgsfields.h>

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <utility>

using namespace VbasParameters;

VbasReleaseRun::VbasReleaseRun(const VbasParameterReader& read, QgsProcessingFeedback* feedback)
    : mRead(read)
    , mFeedback(feedback)
{
}

VbasReleaseRun::~VbasReleaseRun() = default;

void VbasReleaseRun::configure()
{
    mPipeline = VbasStrategyParameters::makePipeline(mRead, mFeedback);
}

const VbasLedgerStore* VbasReleaseRun::openLedger()
{
    QString location = mRead.asString(kReleaseLedger).trimmed();
    if (location.isEmpty() && QgsApplication::platform() == QLatin1String("desktop"))
        location = VbasLedgerStore::profileLedger();
    if (!location.isEmpty())
        mLedger = std::make_unique<VbasLedgerStore>(location);
    return mLedger.get();
}

const VbasJob& VbasReleaseRun::loadJob(const VbasGeneralizationDefinition* earlier)
{
    mSteps = std::make_unique<VbasSteps>(3, mFeedback);
    if (earlier)
    {
        // The release is made at the earlier release's generalization, not at GENERALIZATION's.
        vbas::PipelineConfig config = mPipeline->config();
        config.generalization = VbasDataParameters::generalizationSpec(mRead, *earlier, mFeedback);
        mPipeline = std::make_unique<vbas::Pipeline>(std::move(config));
    }
    mJob.emplace(VbasDataParameters::loadJob(mRead, mSteps.get(), *mPipeline, earlier));
    return *mJob;
}

void VbasReleaseRun::checkLedger(const std::optional<vbas::AreaRegions>& given)
{
    mGiven = given;
    if (mLedger)
    {
        mEntries = mLedger->entries();
        mRecords = mRead.runEngine(mSteps.get(),
                                   [&](vbas::Feedback& engineFeedback)
                                   {
                                       return vbas::fingerprintRecords(
                                           *mJob->data.dataset, mJob->data.dataset->quasiIdentifierValues(),
                                           mJob->data.recordIds, mLedger->key(), engineFeedback);
                                   });
        const vbas::LedgerDecision decision =
            mRead.runEngine(mSteps.get(), [&](vbas::Feedback&)
                            { return vbas::checkLedger(mEntries, *mRecords, mGiven ? &*mGiven : nullptr); });
        for (const std::size_t e : decision.keepDifferencesWith)
            mJob->earlierCells.push_back(mLedger->cells(mEntries[e].id));
        mLedgerLines << QObject::tr("The release ledger %1 holds %n earlier release(s).", nullptr,
                                    int(mEntries.size()))
                            .arg(mLedger->location());
        for (const std::string& note : decision.notes)
            mLedgerLines << QString::fromStdString(note);
        if (decision.notes.empty())
            mLedgerLines << QObject::tr("None of them holds these records.");
        if (!mRecords->hasIds())
            mLedgerLines << QObject::tr(
                "No record id field (RECORD_ID_FIELD): records are told from earlier ones by "
                "small area and values only, so like records count as the same.");
        mLedgerLines << QObject::tr("This release is recorded in the ledger when its outputs are in place.");
        for (const QString& line : std::as_const(mLedgerLines))
            mFeedback->pushInfo(QObject::tr("Release ledger: %1").arg(line));
    }
    else
    {
        mLedgerLines << QObject::tr(
            "No release ledger was kept (RELEASE_LEDGER is empty): nothing stops a second "
            "aggregation of these records from being released and overlaid on this one. "
            "Give RELEASE_LEDGER (a SQLite file or a PostgreSQL database) to keep one.");
        mFeedback->pushWarning(mLedgerLines.back());
    }
}

void VbasReleaseRun::compute(const Compute& engineCall)
{
    vbas::ReleaseRequest request;
    request.cells = mRead.has(kOutputCells) && VbasReleaseOutputs::isWanted(mRead.parameters(), kOutputCells);
    request.hierarchies = &mJob->hierarchies;
    mSteps->next();
    QElapsedTimer engine;
    engine.start();
    mRelease.emplace(engineCall(*mPipeline, *mJob, request, mSteps.get()));
    mFeedback->pushInfo(
        QObject::tr("release computed in %1 s").arg(double(engine.elapsed()) / 1000.0, 0, 'f', 2));
    if (mLedger)
        mEntry = ledgerEntry();
}

void VbasReleaseRun::computeRelease()
{
    compute(
        [this](const vbas::Pipeline& pipeline, const VbasJob& job, const vbas::ReleaseRequest& request,
               QgsProcessingFeedback* steps)
        {
            return mRead.runEngine(
                steps, [&](vbas::Feedback& engineFeedback)
                { return VbasRelease(pipeline.release(job.engineJob(), request, engineFeedback)); });
        });
}

QVariantMap VbasReleaseRun::write(VbasOutputGuard& guard)
{
    mSteps->next();
    return VbasReleaseOutputs::write(mRead, mSteps.get(), guard, *mJob, *mRelease, mLedgerLines);
}

void VbasReleaseRun::record()
{
    if (!mLedger || !mEntry)
        return;
    const std::int64_t id = mRead.runEngine(
        mFeedback,
        [&](vbas::Feedback&)
        {
            return mLedger->record(
                *mEntry,
                [&](const std::vector<vbas::LedgerEntry>& recorded)
                {
                    // Releases recorded while this one ran: checked now, inside the ledger's transaction.
                    const std::vector<vbas::LedgerEntry> since(
                        recorded.begin() + std::ptrdiff_t(std::min(mEntries.size(), recorded.size())),
                        recorded.end());
                    const vbas::LedgerDecision decision =
                        vbas::checkLedger(since, mEntry->records, mGiven ? &mEntry->aggregation : nullptr);
                    if (!decision.keepDifferencesWith.empty())
                        throw vbas::Error(vbas::Subject::Ledger,
                                          since[decision.keepDifferencesWith.front()].describe() +
                                              " of these records was recorded while this release ran; run it "
                                              "again, so that its counts are checked against that release's");
                });
        });
    if (mFeedback)
        mFeedback->pushInfo(
            QObject::tr("Release ledger: recorded as release %1 in %2").arg(id).arg(mLedger->location()));
    mEntry.reset();
}

VbasRelease VbasReleaseRun::releaseOn(const vbas::Pipeline& pipeline, const VbasJob& job,
                                      const VbasGivenAggregation& given, const vbas::ReleaseRequest& request,
                                      QgsProcessingFeedback* feedback) const
{
    VbasRelease release =
        mRead.runEngine(feedback,
                        [&](vbas::Feedback& engineFeedback)
                        {
                            return VbasRelease(pipeline.releaseGroups(
                                job.engineJob(), given.regionGroup, given.groups(), request, engineFeedback));
                        });
    release.aggregateIdField = given.idField;
    release.aggregateIds = given.groupIds;
    return release;
}

vbas::LedgerEntry VbasReleaseRun::ledgerEntry() const
{
    const VbasJob& job = *mJob;
    const VbasRelease& release = *mRelease;
    const vbas::Dataset& dataset = *job.data.dataset;
    const QgsFields& fields = job.records->fields();
    vbas::LedgerEntry entry;
    entry.algorithm = QStringLiteral("vbas:%1").arg(mRead.algorithm().name()).toStdString();
    entry.reproduction =
        QJsonDocument(VbasProvenance::json(mRead.algorithm(), mRead.parameters(), mRead.context()))
            .toJson(QJsonDocument::Compact)
            .toStdString();
    entry.k = release.result.k;
    if (const VbasDiversity diversity = mRead.diversity(); diversity.isOn())
    {
        entry.l = vbas::Count(diversity.l);
        entry.diversityMeasure = diversity.entropy ? "entropy" : "distinct";
    }
    std::vector<std::size_t> levels(job.recordFields.quasiIdentifiers.size(), 0);
    if (release.generalization)
        levels = release.generalization->levels;
    for (int j = 0; j < job.recordFields.quasiIdentifiers.size(); ++j)
    {
        entry.quasiIdentifiers.push_back(
            fields.at(job.recordFields.quasiIdentifiers.at(j)).name().toStdString());
        const auto& hierarchy = job.hierarchies.empty() ? std::nullopt : job.hierarchies[std::size_t(j)];
        entry.levels.push_back(hierarchy ? hierarchy->hierarchy.levelName(levels[std::size_t(j)]) : "0");
    }
    // The hierarchies as built, automatic bands resolved: a later release on these levels gets the same
    // bands.
    const std::string generalizationText = vbas::generalizationText(job.hierarchies);
    QJsonObject tables;
    for (const auto& [field, table] : job.generalization.tables)
        tables.insert(QString::fromStdString(field), QString::fromStdString(table));
    entry.generalization =
        generalizationText.empty()
            ? std::string()
            : QJsonDocument(QJsonObject{{QStringLiteral("text"), QString::fromStdString(generalizationText)},
                                        {QStringLiteral("tables"), tables}})
                  .toJson(QJsonDocument::Compact)
                  .toStdString();
    for (const int field : job.recordFields.sensitive)
        entry.sensitiveFields.push_back(fields.at(field).name().toStdString());
    for (vbas::RegionIndex r = 0; r < dataset.regionCount(); ++r)
        entry.aggregation.emplace_back(
            dataset.regionId(r),
            vbasKeyText(release.aggregateIds.at(int(release.result.aggregation.regionAggregate[r])))
                .toStdString());
    std::sort(entry.aggregation.begin(), entry.aggregation.end());
    entry.records = *mRecords;
    std::vector<bool> released(release.fates.size());
    for (std::size_t row = 0; row < released.size(); ++row)
        released[row] = release.fates[row] == vbas::RecordFate::Released;
    entry.cells =
        mRead.runEngine(nullptr,
                        [&](vbas::Feedback&)
                        {
                            return vbas::publishedCells(
                                dataset,
                                vbas::classKeys(dataset, dataset.quasiIdentifierValues(),
                                                job.hierarchies.empty() ? nullptr : &job.hierarchies, levels),
                                release.result.aggregation, released);
                        });
    return entry;
}

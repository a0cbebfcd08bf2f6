#include "vbasreleaserun.h"

#include "vbasdataparameters.h"
#include "vbasparameterreader.h"
#include "vbaspopulationparameters.h"
#include "vbasprovenance.h"
#include "vbasreleaseoutputs.h"
#include "vbassteps.h"
#include "vbasstrategyparameters.h"

#include "Release.h"
#include "privacy/PublishedColumns.h"

#include <qgsapplication.h>
#include <qgscoordinatetransform.h>
#include <qgsfields.h>

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

using namespace VbasParameters;

namespace
{
/**
 * Where each small area of `job` lies, as the ledger compares small areas across releases: its point in
 * longitude and latitude to a millionth of a degree, so that the same polygons under other ids match.
 */
std::vector<std::string> regionLocations(const VbasJob& job)
{
    std::vector<std::string> locations;
    const vbas::Dataset& dataset = *job.data.dataset;
    const QgsCoordinateTransform toDegrees(job.frame->sourceCrs(),
                                           QgsCoordinateReferenceSystem(QStringLiteral("EPSG:4326")),
                                           job.frame->transformContext());
    for (vbas::RegionIndex r = 0; r < dataset.regionCount(); ++r)
    {
        QgsPointXY point = job.frame->toSource(dataset.points()[r]);
        try
        {
            point = toDegrees.transform(point);
        }
        catch (const QgsCsException&)
        {
            locations.emplace_back();
            continue;
        }
        locations.push_back(
            QStringLiteral("%1 %2").arg(point.x(), 0, 'f', 6).arg(point.y(), 0, 'f', 6).toStdString());
    }
    return locations;
}

/** Whether a destination parameter's value writes a temporary layer (or nothing). */
bool isTemporary(const QVariant& value)
{
    QVariant destination = value;
    if (value.userType() == qMetaTypeId<QgsProcessingOutputLayerDefinition>())
        destination = value.value<QgsProcessingOutputLayerDefinition>().sink.staticValue();
    const QString text = destination.toString();
    return text.isEmpty() || text == QgsProcessing::TEMPORARY_OUTPUT ||
           text.startsWith(QLatin1String("memory:"));
}
} // namespace

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
    if (mRead.asBoolean(kNoLedger))
    {
        if (!location.isEmpty())
            throw parameterError(kNoLedger,
                                 QObject::tr("NO_LEDGER says no ledger is kept, yet RELEASE_LEDGER names "
                                             "one; give one of the two"));
        return nullptr;
    }
    VbasLedgerStore::Opening opening =
        mRead.asBoolean(kNewLedger) ? VbasLedgerStore::Opening::New : VbasLedgerStore::Opening::Existing;
    if (location.isEmpty())
    {
        if (QgsApplication::platform() != QLatin1String("desktop"))
            throw parameterError(
                kReleaseLedger,
                QObject::tr(
                    "no release ledger is given. A ledger refuses a second aggregation of the same small "
                    "areas, which overlaid on the first would single people out: give RELEASE_LEDGER (with "
                    "NEW_LEDGER=true the first time), or say that none is kept with NO_LEDGER=true"));
        location = VbasLedgerStore::profileLedger();
        opening = VbasLedgerStore::Opening::ProfileDefault;
    }
    QStringList notes;
    mLedger =
        std::make_unique<VbasLedgerStore>(location, opening, mRead.asString(kLedgerKey).trimmed(), notes);
    for (const QString& note : std::as_const(notes))
    {
        mLedgerLines << note;
        mFeedback->pushInfo(QObject::tr("Release ledger: %1").arg(note));
    }
    return mLedger.get();
}

const VbasJob& VbasReleaseRun::loadJob(const vbas::Generalization* earlier)
{
    mSteps = std::make_unique<VbasSteps>(3, mFeedback);
    if (earlier)
    {
        // The release is made at the earlier release's generalization, not at GENERALIZATION's.
        vbas::PipelineConfig config = mPipeline->config();
        config.generalization = *earlier;
        mPipeline = std::make_unique<vbas::Pipeline>(std::move(config));
    }
    mJob.emplace(VbasDataParameters::loadJob(mRead, mSteps.get()));
    if (mPipeline->kMap())
        mJob->population = VbasPopulationParameters::readKMapTable(mRead, *mJob);
    return *mJob;
}

void VbasReleaseRun::checkLedger(const std::optional<vbas::AreaRegions>& given)
{
    mGiven = given;
    const vbas::Dataset& dataset = *mJob->data.dataset;
    // This release's small areas, sorted by id, with where they lie.
    const std::vector<std::string> locations = regionLocations(*mJob);
    std::vector<std::size_t> order(dataset.regionCount());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b)
              { return dataset.regionId(vbas::RegionIndex(a)) < dataset.regionId(vbas::RegionIndex(b)); });
    mTerritory = {};
    std::map<std::string, std::string> regionOfArea;
    if (given)
        regionOfArea.insert(given->begin(), given->end());
    for (const std::size_t r : order)
    {
        const std::string& id = dataset.regionId(vbas::RegionIndex(r));
        const auto region = regionOfArea.find(id);
        mTerritory.areas.emplace_back(id, region == regionOfArea.end() ? std::string() : region->second);
        mTerritory.locations.push_back(locations[r]);
    }
    if (mJob->data.recordIds.empty())
    {
        mLedgerLines << QObject::tr(
            "No person id (RECORD_ID_FIELD): every row counts as a person of its own. If a person can have "
            "several rows (visits, admissions, claims), give the field that identifies the person, so that k "
            "counts people.");
        mFeedback->pushInfo(mLedgerLines.back());
    }
    // The lines said so far (opening the ledger, the person id) are in the log already.
    const int said = int(mLedgerLines.size());
    if (!mLedger)
    {
        mLedgerLines << QObject::tr(
            "No release ledger was kept (NO_LEDGER): nothing stops a second aggregation of these small areas "
            "from being released and overlaid on this one.");
        mFeedback->pushWarning(mLedgerLines.back());
        return;
    }
    mEntries = mLedger->entries();
    std::vector<std::string> names;
    const QgsFields& fields = mJob->records->fields();
    for (const int field : std::as_const(mJob->recordFields.quasiIdentifiers))
        names.push_back(fields.at(field).name().toStdString());
    mRecords = mRead.runEngine(mSteps.get(),
                               [&](vbas::Feedback& engineFeedback)
                               {
                                   return vbas::fingerprintRecords(
                                       dataset, names, dataset.quasiIdentifierValues(), locations,
                                       mJob->data.recordIds, mLedger->key(), engineFeedback);
                               });
    std::vector<std::int64_t> otherPeople;
    for (const QString& id :
         mRead.asString(kOtherPeople).split(QRegularExpression(QStringLiteral("[,; ]+")), Qt::SkipEmptyParts))
    {
        bool number = false;
        otherPeople.push_back(id.toLongLong(&number));
        if (!number)
            throw parameterError(kOtherPeople,
                                 QObject::tr("'%1' is no release number; give the numbers of ledger "
                                             "entries, such as 3 or 3,5")
                                     .arg(id));
        if (std::none_of(mEntries.begin(), mEntries.end(),
                         [&](const vbas::LedgerEntry& entry) { return entry.id == otherPeople.back(); }))
            throw parameterError(kOtherPeople,
                                 QObject::tr("the release ledger holds no release %1; give the numbers "
                                             "of earlier releases of other people's records")
                                     .arg(id));
    }
    const vbas::LedgerDecision decision =
        mRead.runEngine(mSteps.get(), [&](vbas::Feedback&)
                        { return vbas::checkLedger(mEntries, *mRecords, mTerritory, !given, otherPeople); });
    mOtherPeople = otherPeople;
    if (!decision.bound.empty())
        mJob->earlier = vbas::Job::EarlierReleases{&mEntries, decision.bound, mTerritory};
    mLedgerLines << QObject::tr("The release ledger %1 holds %n earlier release(s).", nullptr,
                                int(mEntries.size()))
                        .arg(mLedger->location());
    for (const std::string& note : decision.notes)
        mLedgerLines << QString::fromStdString(note);
    if (decision.notes.empty())
        mLedgerLines << QObject::tr("None of them covers these small areas.");
    if (!decision.bound.empty())
        mLedgerLines << QObject::tr(
            "Every published count is checked against %n earlier release(s) together: cells "
            "whose counts with theirs would pin a group of 1 to k - 1 people are withheld.",
            nullptr, int(decision.bound.size()));
    if (decision.kFloor > vbas::Count(mRead.k()))
        mLedgerLines << QObject::tr(
                            "K = %1 is below the k = %2 an earlier release of these records was made with: "
                            "those records stay held to k = %2.")
                            .arg(mRead.k())
                            .arg(decision.kFloor);
    for (int line = said; line < mLedgerLines.size(); ++line)
        mFeedback->pushInfo(QObject::tr("Release ledger: %1").arg(mLedgerLines.at(line)));
}

void VbasReleaseRun::compute(const Compute& engineCall)
{
    const VbasJob& job = *mJob;
    vbas::ReleaseRequest request;
    request.cells = mRead.has(kOutputCells) && VbasReleaseOutputs::isWanted(mRead.parameters(), kOutputCells);
    vbas::PublishedFields published;
    const QList<int> publishedFields = job.recordFields.publishedValues();
    for (int j = 0; j < publishedFields.size(); ++j)
        published.fields.push_back({job.records->fields().at(publishedFields.at(j)).name().toStdString(),
                                    j < job.recordFields.sensitive.size()});
    published.codes = &job.data.recordValues.publishedCodes;
    published.rowsPublished = mRead.has(kOutputRecords) &&
                              VbasReleaseOutputs::isWanted(mRead.parameters(), kOutputRecords) &&
                              !mRead.asBoolean(kKeepSuppressed);
    request.published = &published;
    mSteps->next();
    QElapsedTimer engine;
    engine.start();
    mRelease.emplace(engineCall(*mPipeline, job, request, mSteps.get()));
    mFeedback->pushInfo(
        QObject::tr("release computed in %1 s").arg(double(engine.elapsed()) / 1000.0, 0, 'f', 2));
    // Which k was applied: over the records, or over the population (k-map).
    mFeedback->pushInfo(
        QString::fromStdString(vbas::KMap::describe(mRelease->result.k, mRelease->result.kMap)));
    refuseEmptyRelease();
    reportFieldChecks(published.fields);
    if (mLedger)
        mEntry = ledgerEntry();
}

void VbasReleaseRun::reportFieldChecks(const std::vector<vbas::PublishedField>& fields)
{
    const vbas::FieldChecks& checks = mRelease->fieldChecks;
    if (checks.repeated && checks.repeated->likelyRepeatedPersons())
    {
        mLedgerLines << QObject::tr("%1 of %2 rows repeat another row's small area, quasi-identifiers and "
                                    "published values (about %3 by chance): the rows look like repeated "
                                    "persons (visits, admissions). k counts rows here; give the field that "
                                    "identifies the person as RECORD_ID_FIELD so that it counts people")
                            .arg(checks.repeated->repeats)
                            .arg(checks.repeated->rows)
                            .arg(qRound64(checks.repeated->expected));
        mFeedback->pushWarning(mLedgerLines.back());
    }
    for (const vbas::ColumnFigures& figure : checks.columns)
    {
        QString names = QString::fromStdString(fields[figure.fields[0]].name);
        if (figure.fields.size() == 2)
            names += QStringLiteral(" + ") + QString::fromStdString(fields[figure.fields[1]].name);
        mLedgerLines << (figure.judgedOnGroups
                             ? QObject::tr("Published column %1: placement in the small area %2 %, rows in "
                                           "groups below k %3 %, unique %4 %")
                                   .arg(names)
                                   .arg(100.0 * figure.placement, 0, 'f', 1)
                                   .arg(100.0 * figure.shareBelowK, 0, 'f', 1)
                                   .arg(100.0 * figure.shareUnique, 0, 'f', 1)
                             : QObject::tr(
                                   "Published column %1 (sensitive): placement in the small area %2 %")
                                   .arg(names)
                                   .arg(100.0 * figure.placement, 0, 'f', 1));
        mFeedback->pushInfo(mLedgerLines.back());
    }
    if (const vbas::ColumnFigures* refused = checks.refused())
        throw parameterError(fields[refused->fields[0]].sensitive ? kSensitiveFields : kReleaseFields,
                             QString::fromStdString(vbas::refusalText(*refused, fields, mRelease->result.k)));
}

bool VbasReleaseRun::isTrial() const
{
    for (const QString& output :
         {kOutput, kOutputRecords, kOutputMapping, kOutputSites, kOutputCells, kOutputMapImage})
        if (mRead.has(output) && !isTemporary(mRead.parameters().value(output)))
            return false;
    return true;
}

void VbasReleaseRun::refuseEmptyRelease() const
{
    // An empty release would replace the previous one with files that publish nothing.
    const vbas::SuppressionOutcome& counts = mRelease->result.suppression;
    if (counts.released > 0)
        return;
    throw parameterError(
        kParameterK,
        QObject::tr(
            "with k = %1 no record can be released: all %2 records would be withheld (%3 as rare in the "
            "whole data set, %4 as too few in their region, %5 in count rows below k, %6 for "
            "l-diversity, %7 against earlier releases), so the release would publish nothing; lower K, "
            "release more records or coarser quasi-identifiers. Nothing was written: the files in place "
            "are as they were")
            .arg(mRelease->result.k)
            .arg(counts.inputRecords)
            .arg(counts.globallySuppressed)
            .arg(counts.locallySuppressed)
            .arg(counts.smallRowSuppressed)
            .arg(counts.diversitySuppressed)
            .arg(counts.differenceSuppressed));
}

void VbasReleaseRun::computeRelease()
{
    compute(
        [this](const vbas::Pipeline& pipeline, const VbasJob& job, const vbas::ReleaseRequest& request,
               QgsProcessingFeedback* steps)
        {
            return mRead.runEngine(
                steps, [&](vbas::Feedback& engineFeedback)
                { return VbasRelease(vbas::release(pipeline, job.engineJob(), request, engineFeedback)); });
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
    if (isTrial())
    {
        const QString trial = QObject::tr("trial, not recorded");
        QgsProcessingContext& context = mRead.context();
        for (const QString& layer : context.layersToLoadOnCompletion().keys())
        {
            QgsProcessingContext::LayerDetails& details = context.layerToLoadOnCompletionDetails(layer);
            details.name = QStringLiteral("%1 (%2)").arg(
                details.name.isEmpty() ? details.outputName : details.name, trial);
        }
        mFeedback->pushWarning(QObject::tr("Release ledger: a trial, not recorded: every publishable output "
                                           "is a temporary layer. Try settings this "
                                           "way; to release, write the outputs to files (or a database), and "
                                           "the release is recorded then."));
        mEntry.reset();
        return;
    }
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
                        vbas::checkLedger(since, mEntry->records, mTerritory, !mGiven, mOtherPeople);
                    if (!decision.bound.empty())
                        throw vbas::Error(
                            vbas::Subject::Ledger,
                            since[decision.bound.front().entry].describe() +
                                " on these small areas was recorded while this release ran; run it "
                                "again, so that its counts are checked against that release's");
                });
        });
    if (mFeedback)
        mFeedback->pushInfo(
            QObject::tr("Release ledger: recorded as release %1 in %2. If it is never published, "
                        "withdraw it with vbas:withdrawrelease (LEDGER_ENTRY=%1)")
                .arg(id)
                .arg(mLedger->location()));
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
    entry.provenance =
        QJsonDocument(VbasProvenance::json(mRead.algorithm(), mRead.parameters(), mRead.context()))
            .toJson(QJsonDocument::Compact)
            .toStdString();
    entry.k = release.result.k;
    entry.criteria = mPipeline->criteria().describe();
    // k over the population is no k over records: the ledger says which k the release was held to.
    if (release.result.kMap)
        entry.criteria =
            "k-map (k people of the population)" + (entry.criteria.empty() ? "" : " and " + entry.criteria);
    std::vector<std::size_t> levels(job.recordFields.quasiIdentifiers.size(), 0);
    if (release.generalization)
    {
        levels = release.generalization->levels;
        entry.levels = release.generalization->levelNames();
        entry.generalization = release.generalization->builtAs;
    }
    else
        entry.levels.assign(levels.size(), "0");
    for (const int field : job.recordFields.quasiIdentifiers)
        entry.quasiIdentifiers.push_back(fields.at(field).name().toStdString());
    for (const int field : job.recordFields.sensitive)
        entry.sensitiveFields.push_back(fields.at(field).name().toStdString());
    std::map<std::string, std::string> regionOfArea;
    for (vbas::RegionIndex r = 0; r < dataset.regionCount(); ++r)
        regionOfArea.emplace(
            dataset.regionId(r),
            vbasKeyText(release.aggregateIds.at(int(release.result.aggregation.regionAggregate[r])))
                .toStdString());
    for (std::size_t i = 0; i < mTerritory.areas.size(); ++i)
    {
        entry.aggregation.emplace_back(mTerritory.areas[i].first, regionOfArea.at(mTerritory.areas[i].first));
        entry.locations.push_back(mTerritory.locations[i]);
    }
    entry.labelValues = vbas::releasedLabelValues(entry.quasiIdentifiers, dataset.quasiIdentifierValues(),
                                                  release.hierarchies(), levels);
    entry.otherPeople = mOtherPeople;
    entry.records = *mRecords;
    std::vector<bool> released(release.fates.size());
    for (std::size_t row = 0; row < released.size(); ++row)
        released[row] = release.fates[row] == vbas::RecordFate::Released;
    entry.cells = mRead.runEngine(
        nullptr,
        [&](vbas::Feedback&)
        {
            return vbas::publishedCells(
                dataset,
                vbas::classKeys(dataset, dataset.quasiIdentifierValues(), release.hierarchies(), levels),
                release.result.aggregation, released);
        });
    return entry;
}

#include "vbasreleasealgorithm.h"
#include "vbasoutputguard.h"

#include "vbaslayerstyler.h"
#include "vbasmapimage.h"
#include "vbasqgiscompat.h"
#include "vbasrecordstreams.h"
#include "vbasreport.h"
#include "vbassteps.h"

#include <qgsapplication.h>
#include <qgsfeaturesink.h>
#include <qgsprocessingfeedback.h>
#include <qgsprocessingoutputs.h>
#include <qgsprocessingparameters.h>

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <iterator>
#include <optional>

namespace
{
struct CountOutput
{
    const char* name;
    const char* description;
};
/** Numbers every release gives besides the metrics. */
constexpr CountOutput kCountOutputs[] = {
    {"INPUT_RECORDS", QT_TR_NOOP("Records in the input")},
    {"RECORDS_RELEASED", QT_TR_NOOP("Records released")},
    {"RECORDS_DROPPED", QT_TR_NOOP("Records dropped (unknown small area)")},
    {"AGGREGATES", QT_TR_NOOP("Aggregated regions")},
    {"EMPTY_SITES", QT_TR_NOOP("Sites that received no small area")}};

/** Returns `lines` escaped for HTML. */
QStringList escapedLines(const QStringList& lines)
{
    QStringList escaped;
    for (const QString& line : lines)
        escaped << line.toHtmlEscaped();
    return escaped;
}

/** Returns true when the optional output `name` has a destination (the user did not skip it). */
bool isWanted(const QVariantMap& parameters, const QString& name)
{
    QVariant value = parameters.value(name);
    if (value.userType() == qMetaTypeId<QgsProcessingOutputLayerDefinition>())
        value = value.value<QgsProcessingOutputLayerDefinition>().sink.staticValue();
    return value.isValid() && !value.toString().isEmpty();
}
} // namespace

void VbasReleaseAlgorithm::addReleaseOutputs(bool withSites)
{
    auto* releaseFields =
        new QgsProcessingParameterField(kReleaseFields, QObject::tr("Other fields to publish as they are"),
                                        QVariant(), kRecords, VbasCompat::FieldTypeAny, true, true);
    releaseFields->setHelp(QObject::tr(
        "Insensitive fields of RECORDS published unchanged beside the quasi-identifiers and sensitive "
        "fields. "
        "Only fields given a role are published: ids and every other field stay out. A field is refused as "
        "an identifier when the records it singles out or links in small sets (a value held by fewer than "
        "max(K, 3) records) outnumber those it leaves in larger groups, its most common value left out."));
    addParameter(VbasCompat::advanced(releaseFields));
    auto* recordId =
        new QgsProcessingParameterField(kRecordIdField, QObject::tr("Record id field (never published)"),
                                        QVariant(), kRecords, VbasCompat::FieldTypeAny, false, true);
    recordId->setHelp(QObject::tr(
        "The field that identifies each record (a case or patient number). Never published: the release "
        "ledger "
        "keeps a keyed sample of the ids to tell new records from those of earlier releases, so that a next "
        "quarter's records can be released in full on an earlier aggregation. Without it, records are told "
        "apart only by small area and values, and like records count as the same."));
    addParameter(VbasCompat::advanced(recordId));
    auto* ledger = new QgsProcessingParameterString(kReleaseLedger, QObject::tr("Release ledger"), QVariant(),
                                                    false, true);
    ledger->setHelp(QObject::tr(
        "Where every release of these records is recorded, so that a second aggregation of the same records "
        "is refused (overlaid on the first it would single people out): a SQLite or GeoPackage file "
        "(/data/custodian/ledger.sqlite, made when missing) or a PostgreSQL database "
        "(postgresql://custodian@dbhost/releases, or PG:host=dbhost dbname=releases). Empty: in QGIS desktop "
        "a ledger in the QGIS profile "
        "(vbas/release-ledger.sqlite); from the command line none is kept, and the log says so."));
    addParameter(VbasCompat::advanced(ledger));
    auto* rowId = new QgsProcessingParameterBoolean(
        kAddRowId, QObject::tr("Number the released records (a fresh row_id in their random order)"), false,
        true);
    rowId->setHelp(QObject::tr("Released records come in a random order and carry no id of the input; this "
                               "adds row_id 1, 2, 3... in that order, which tells nothing about the input."));
    addParameter(VbasCompat::advanced(rowId));
    addParameter(VbasCompat::advanced(new QgsProcessingParameterBoolean(
        kKeepSuppressed,
        QObject::tr("Keep withheld records in the records output, flagged (review only: never publish)"),
        false)));
    // The main outputs first, made by default; the others only when asked for, so that a first run loads
    // the release and its report, not eight layers.
    addParameter(new QgsProcessingParameterFeatureSink(kOutput, QObject::tr("Released regions (publishable)"),
                                                       VbasCompat::SourceTypeVectorPolygon));
    addParameter(new QgsProcessingParameterFeatureSink(kOutputRecords,
                                                       QObject::tr("Released records (publishable)"),
                                                       VbasCompat::SourceTypeVector, QVariant(), true));
    addParameter(new QgsProcessingParameterFileDestination(
        kOutputHtml, QObject::tr("Report (review only: never publish)"), QObject::tr("HTML files (*.html)"),
        QVariant(), true));
    if (withSites)
        addParameter(VbasCompat::advanced(new QgsProcessingParameterFeatureSink(
            kOutputMapping, QObject::tr("Small areas with their region (publishable)"),
            VbasCompat::SourceTypeVectorPolygon, QVariant(), true)));
    if (withSites)
    {
        addParameter(VbasCompat::advanced(new QgsProcessingParameterFeatureSink(
            kOutputSites, QObject::tr("Region centres, the sites (publishable)"),
            VbasCompat::SourceTypeVectorPoint, QVariant(), true, false)));
        addParameter(VbasCompat::advanced(new QgsProcessingParameterFeatureSink(
            kOutputCells, QObject::tr("Voronoi cells of the sites (publishable)"),
            VbasCompat::SourceTypeVectorPolygon, QVariant(), true, false)));
    }
    addParameter(VbasCompat::advanced(new QgsProcessingParameterFeatureSink(
        kOutputReview, QObject::tr("Released regions with withheld counts (review only: never publish)"),
        VbasCompat::SourceTypeVectorPolygon, QVariant(), true, false)));
    addParameter(VbasCompat::advanced(new QgsProcessingParameterFileDestination(
        kOutputMapImage, QObject::tr("Map image (publishable)"), QObject::tr("PNG files (*.png)"), QVariant(),
        true, false)));
    // Optional with defaults, so that models saved before these parameters existed stay valid.
    auto* shadeBy = new QgsProcessingParameterEnum(kShadeBy, QObject::tr("Shade the aggregated regions by"),
                                                   VbasStyling::shadeFields(), false,
                                                   VbasStyling::kDefaultShadeField, true, true);
    shadeBy->setHelp(
        QObject::tr("Which figure of the aggregated regions (one of their fields) their colour shows in "
                    "QGIS, in the map image and in the report."));
    addParameter(VbasCompat::advanced(shadeBy));
    addParameter(VbasCompat::advanced(
        new QgsProcessingParameterNumber(kMapImageWidth, QObject::tr("Map image width (pixels)"),
                                         VbasCompat::NumberTypeInteger, 1600, true, 400, 8000)));
    addParameter(VbasCompat::advanced(
        new QgsProcessingParameterNumber(kMapImageHeight, QObject::tr("Map image height (pixels)"),
                                         VbasCompat::NumberTypeInteger, 1000, true, 300, 8000)));
    for (const CountOutput& count : kCountOutputs)
        addOutput(new QgsProcessingOutputNumber(count.name, QObject::tr(count.description)));
    for (const vbas::MetricEntry& metric : vbas::Registry::builtIn().metrics)
        addOutput(new QgsProcessingOutputNumber(VbasOutputs::metricOutputName(metric.id),
                                                QString::fromStdString(metric.name)));
}

void VbasReleaseAlgorithm::checkInputs(const QVariantMap&, QgsProcessingContext&) const {}

VbasRelease VbasReleaseAlgorithm::releaseOn(const vbas::Pipeline& pipeline, const Job& job,
                                            const VbasGivenAggregation& given,
                                            const vbas::ReleaseRequest& request,
                                            QgsProcessingFeedback* feedback) const
{
    VbasRelease release =
        runEngine(feedback,
                  [&](vbas::Feedback& engineFeedback)
                  {
                      return VbasRelease(pipeline.releaseGroups(job.engineJob(), given.regionGroup,
                                                                given.groups(), request, engineFeedback));
                  });
    release.aggregateIdField = given.idField;
    release.aggregateIds = given.groupIds;
    return release;
}

void VbasReleaseAlgorithm::readLedger(const VbasLedgerStore*, const QVariantMap&, QgsProcessingContext&) {}

std::optional<vbas::AreaRegions> VbasReleaseAlgorithm::givenAggregation(const Job&, const QVariantMap&,
                                                                        QgsProcessingContext&)
{
    return std::nullopt;
}

std::unique_ptr<VbasLedgerStore> VbasReleaseAlgorithm::openLedger(const QVariantMap& parameters,
                                                                  QgsProcessingContext& context) const
{
    QString location = parameterAsString(parameters, kReleaseLedger, context).trimmed();
    if (location.isEmpty() && QgsApplication::platform() == QLatin1String("desktop"))
        location = VbasLedgerStore::profileLedger();
    return location.isEmpty() ? nullptr : std::make_unique<VbasLedgerStore>(location);
}

QVariantMap VbasReleaseAlgorithm::processGuarded(const QVariantMap& parameters, QgsProcessingContext& context,
                                                 QgsProcessingFeedback* feedback, VbasOutputGuard& guard)
{
    mLedger.reset();
    const std::unique_ptr<vbas::Pipeline> pipeline = makePipeline(parameters, context, feedback);
    checkInputs(parameters, context);
    std::unique_ptr<VbasLedgerStore> ledger = openLedger(parameters, context);
    readLedger(ledger.get(), parameters, context);
    vbas::ReleaseRequest request;
    request.cells = parameterDefinition(kOutputCells) && isWanted(parameters, kOutputCells);
    VbasSteps steps(3, feedback);
    Job job = loadJob(parameters, context, &steps);
    const std::optional<vbas::AreaRegions> given = givenAggregation(job, parameters, context);

    // What the ledger allows these records, before the engine runs: a refusal costs no computation.
    QStringList ledgerLines;
    std::optional<vbas::RecordFingerprint> records;
    std::vector<vbas::LedgerEntry> entries;
    if (ledger)
    {
        entries = ledger->entries();
        records =
            runEngine(&steps,
                      [&](vbas::Feedback& engineFeedback)
                      {
                          return vbas::fingerprintRecords(*job.data.dataset, job.data.quasiIdentifierValues,
                                                          job.data.recordIds, ledger->key(), engineFeedback);
                      });
        const vbas::LedgerDecision decision =
            runEngine(&steps, [&](vbas::Feedback&)
                      { return vbas::checkLedger(entries, *records, given ? &*given : nullptr); });
        for (const std::size_t e : decision.keepDifferencesWith)
            job.earlierCells.push_back(ledger->cells(entries[e].id));
        ledgerLines << QObject::tr("The release ledger %1 holds %n earlier release(s).", nullptr,
                                   int(entries.size()))
                           .arg(ledger->location());
        for (const std::string& note : decision.notes)
            ledgerLines << QString::fromStdString(note);
        if (decision.notes.empty())
            ledgerLines << QObject::tr("None of them holds these records.");
        if (!records->hasIds())
            ledgerLines << QObject::tr(
                "No record id field (RECORD_ID_FIELD): records are told from earlier ones by "
                "small area and values only, so like records count as the same.");
        ledgerLines << QObject::tr("This release is recorded in the ledger when its outputs are in place.");
        for (const QString& line : std::as_const(ledgerLines))
            feedback->pushInfo(QObject::tr("Release ledger: %1").arg(line));
    }
    else
    {
        ledgerLines << QObject::tr(
            "No release ledger was kept (RELEASE_LEDGER is empty): nothing stops a second "
            "aggregation of these records from being released and overlaid on this one. "
            "Give RELEASE_LEDGER (a SQLite file or a PostgreSQL database) to keep one.");
        feedback->pushWarning(ledgerLines.back());
    }
    steps.next();
    QElapsedTimer engine;
    engine.start();
    const VbasRelease release = computeRelease(*pipeline, job, request, parameters, context, &steps);
    feedback->pushInfo(
        QObject::tr("release computed in %1 s").arg(double(engine.elapsed()) / 1000.0, 0, 'f', 2));
    if (ledger)
    {
        mLedger = std::make_unique<LedgerRecord>();
        mLedger->entry = ledgerEntry(job, release, *records, parameters, context);
        mLedger->store = std::move(ledger);
        mLedger->checked = entries.size();
        mLedger->givenAggregation = given.has_value();
    }
    steps.next();
    return writeRelease(parameters, context, &steps, guard, job, release, ledgerLines);
}

void VbasReleaseAlgorithm::beforePublishing(QgsProcessingFeedback* feedback)
{
    if (!mLedger)
        return;
    LedgerRecord& ledger = *mLedger;
    const std::int64_t id = runEngine(
        feedback,
        [&](vbas::Feedback&)
        {
            return ledger.store->record(
                ledger.entry,
                [&](const std::vector<vbas::LedgerEntry>& recorded)
                {
                    // Releases recorded while this one ran: checked now, inside the ledger's transaction.
                    const std::vector<vbas::LedgerEntry> since(
                        recorded.begin() + std::ptrdiff_t(std::min(ledger.checked, recorded.size())),
                        recorded.end());
                    const vbas::LedgerDecision decision =
                        vbas::checkLedger(since, ledger.entry.records,
                                          ledger.givenAggregation ? &ledger.entry.aggregation : nullptr);
                    if (!decision.keepDifferencesWith.empty())
                        throw vbas::Error(vbas::Subject::Ledger,
                                          since[decision.keepDifferencesWith.front()].describe() +
                                              " of these records was recorded while this release ran; run it "
                                              "again, so that its counts are checked against that release's");
                });
        });
    if (feedback)
        feedback->pushInfo(QObject::tr("Release ledger: recorded as release %1 in %2")
                               .arg(id)
                               .arg(ledger.store->location()));
    mLedger.reset();
}

vbas::LedgerEntry VbasReleaseAlgorithm::ledgerEntry(const Job& job, const VbasRelease& release,
                                                    const vbas::RecordFingerprint& records,
                                                    const QVariantMap& parameters,
                                                    QgsProcessingContext& context) const
{
    const vbas::Dataset& dataset = *job.data.dataset;
    const QgsFields& fields = job.records->fields();
    vbas::LedgerEntry entry;
    entry.algorithm = QStringLiteral("vbas:%1").arg(name()).toStdString();
    entry.k = release.result.k;
    if (const Diversity diversity = parameterAsDiversity(parameters, context); diversity.isOn())
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
    for (const auto& [field, table] : generalizationDefinition(parameters, context).tables)
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
    entry.records = records;
    std::vector<bool> released(release.fates.size());
    for (std::size_t row = 0; row < released.size(); ++row)
        released[row] = release.fates[row] == vbas::RecordFate::Released;
    entry.cells =
        runEngine(nullptr,
                  [&](vbas::Feedback&)
                  {
                      return vbas::publishedCells(
                          dataset,
                          vbas::classKeys(dataset, job.data.quasiIdentifierValues,
                                          job.hierarchies.empty() ? nullptr : &job.hierarchies, levels),
                          release.result.aggregation, released);
                  });
    return entry;
}

QVariantMap VbasReleaseAlgorithm::writeRelease(const QVariantMap& parameters, QgsProcessingContext& context,
                                               QgsProcessingFeedback* feedback, VbasOutputGuard& guard,
                                               const Job& job, const VbasRelease& release,
                                               const QStringList& ledgerLines) const
{
    const VbasPlanarFrame& frame = *job.frame;
    const vbas::Dataset& dataset = *job.data.dataset;
    const QString shadeBy = parameterAsEnumString(parameters, kShadeBy, context);
    using VbasOutputs::Audience;
    if (const QString published =
            VbasStyling::shadeField(VbasOutputs::aggregateFields(release, Audience::Publication), shadeBy);
        published != shadeBy)
        feedback->pushWarning(
            QObject::tr("%1: '%2' is for review only, not in the published aggregated regions: %3 and %4 "
                        "are shaded by '%5' instead, and their titles and legends say so; %6 and the report "
                        "are shaded by '%2'")
                .arg(kShadeBy, shadeBy, kOutput, kOutputMapImage, published, kOutputReview));
    QVariantMap outputs;
    QElapsedTimer writing;
    writing.start();
    QStringList written; // what each sink wrote, for one line in the log
    // Progress: one share per output asked for, files and images alike.
    int wanted = 0;
    for (const QgsProcessingParameterDefinition* destination : destinationParameterDefinitions())
        wanted += isWanted(parameters, destination->name()) ? 1 : 0;
    const auto advance = [&]()
    {
        feedback->setProgress(100.0 * double(outputs.size()) / double(std::max(wanted, 1)));
    };
    const auto write = [&](const QString& name, std::optional<VbasStyling::Role> role,
                           const QgsFields& fields, VbasCompat::WkbType type,
                           const std::function<void(VbasSink&)>& writer)
    {
        if (!parameterDefinition(name))
            return;
        advance();
        QString destination;
        std::unique_ptr<QgsFeatureSink> sink(
            parameterAsSink(parameters, name, context, destination, fields, type, frame.sourceCrs()));
        if (!sink)
        {
            if (name == kOutput)
                throw QgsProcessingException(invalidSinkError(parameters, name));
            return;
        }
        // The output's share of the bar.
        QgsProcessingMultiStepFeedback share(std::max(wanted, 1), feedback);
        share.setCurrentStep(int(outputs.size()));
        // Rows without geometry (millions of records) go the fastest way into the table QGIS created.
        std::unique_ptr<VbasRecordSink> records;
        if (type == VbasCompat::WkbNoGeometry)
            records = VbasRecordSink::open(std::move(sink), destination, fields, name);
        VbasSink out = records ? VbasSink(*records, name, share, &guard.writtenCounts())
                               : VbasSink(*sink, name, share, &guard.writtenCounts());
        writer(out);
        if (records)
            records->finish();
        written << (out.written() == 1 ? QObject::tr("%1 (1 feature)").arg(name)
                                       : QObject::tr("%1 (%2 features)").arg(name).arg(out.written()));
        outputs.insert(name, destination);
        if (role)
            VbasLayerStyler::attach(guard, context, destination, *role, shadeBy,
                                    outputs.value(kOutput).toString());
    };
    for (const auto& [name, audience] :
         {std::pair(kOutput, Audience::Publication), std::pair(kOutputReview, Audience::Review)})
        write(name, VbasStyling::Role::Aggregates, VbasOutputs::aggregateFields(release, audience),
              VbasCompat::WkbMultiPolygon,
              [&, audience = audience](VbasSink& sink)
              { VbasOutputs::writeAggregates(sink, release, frame, audience); });
    write(kOutputMapping, VbasStyling::Role::Mapping,
          VbasOutputs::mappingFields(job.regions->fields(), job.regionIdField, release),
          QgsWkbTypes::multiType(job.regions->wkbType()),
          [&](VbasSink& sink)
          { VbasOutputs::writeMapping(sink, *job.regions, job.regionIdField, job.data, release); });
    VbasOutputs::RecordLayout layout;
    layout.roles = job.recordFields;
    layout.rowId = parameterAsBoolean(parameters, kAddRowId, context);
    layout.flagFates = parameterAsBoolean(parameters, kKeepSuppressed, context);
    layout.hierarchies = job.hierarchies.empty() ? nullptr : &job.hierarchies;
    if (layout.flagFates)
        feedback->pushWarning(
            QObject::tr("KEEP_SUPPRESSED: the records output holds withheld records; it is for "
                        "review only and must not be published"));
    write(kOutputRecords, std::nullopt, VbasOutputs::recordFields(job.records->fields(), layout, release),
          VbasCompat::WkbNoGeometry,
          [&](VbasSink& sink)
          { VbasOutputs::writeRecords(sink, job.records->fields(), layout, job.data, release); });
    write(kOutputSites, VbasStyling::Role::Sites, VbasOutputs::siteFields(&release), VbasCompat::WkbPoint,
          [&](VbasSink& sink)
          {
              VbasOutputs::writeSites(
                  sink, {release.result.partition.sites, release.result.partition.weights}, frame, &release);
          });
    write(kOutputCells, VbasStyling::Role::Cells, VbasOutputs::cellFields(release),
          VbasCompat::WkbMultiPolygon,
          [&](VbasSink& sink) { VbasOutputs::writeCells(sink, release, frame); });
    if (const QString without = VbasOutputs::sitesWithoutCell(release);
        outputs.contains(kOutputCells) && !without.isEmpty())
        feedback->pushInfo(QStringLiteral("%1: %2").arg(kOutputCells, without));

    const QString mapImage = parameterAsFileOutput(parameters, kOutputMapImage, context);
    const QString report = parameterAsFileOutput(parameters, kOutputHtml, context);
    const QSize mapSize(parameterAsInt(parameters, kMapImageWidth, context),
                        parameterAsInt(parameters, kMapImageHeight, context));
    const bool withSites = parameterDefinition(kOutputSites) != nullptr;
    // The published map shows no hot spots of withheld records; the report's map, for review, does.
    if (!mapImage.isEmpty())
    {
        advance();
        const VbasMapImage map(job, release, withSites, shadeBy, Audience::Publication, *feedback);
        VbasMapImage::save(mapImage, kOutputMapImage, map.png(mapSize));
        written << kOutputMapImage;
        outputs.insert(kOutputMapImage, mapImage);
    }
    if (!report.isEmpty())
    {
        advance();
        const VbasMapImage map(job, release, withSites, shadeBy, Audience::Review, *feedback);
        vbasWriteReleaseReport(report, kOutputHtml, displayName(),
                               VbasHtml::parameters(*this, parameters, context), job, release, layout,
                               {map.png(mapSize), map.caption()}, escapedLines(ledgerLines));
        written << kOutputHtml;
        outputs.insert(kOutputHtml, report);
    }

    const vbas::SuppressionOutcome& counts = release.result.suppression;
    const qlonglong countValues[] = {qlonglong(dataset.totalRecords() + dataset.droppedRecords()),
                                     qlonglong(counts.released), qlonglong(dataset.droppedRecords()),
                                     qlonglong(release.result.aggregation.size()),
                                     qlonglong(release.result.aggregation.emptySites)};
    static_assert(std::size(countValues) == std::size(kCountOutputs));
    for (std::size_t i = 0; i < std::size(kCountOutputs); ++i)
        outputs.insert(kCountOutputs[i].name, countValues[i]);
    for (const vbas::MetricValue& metric : release.result.metrics)
        outputs.insert(VbasOutputs::metricOutputName(metric.id), metric.value);
    if (!written.isEmpty())
        feedback->pushInfo(QObject::tr("Wrote %1 in %2 s")
                               .arg(written.join(QStringLiteral(", ")))
                               .arg(double(writing.elapsed()) / 1000.0, 0, 'f', 2));
    feedback->pushInfo(QObject::tr("Released %1 of %2 records in %3 regions (k = %4).")
                           .arg(counts.released)
                           .arg(dataset.totalRecords() + dataset.droppedRecords())
                           .arg(release.result.aggregation.size())
                           .arg(release.result.k));
    feedback->pushInfo(QObject::tr("Withheld %1 records: %2 as rare in the whole data set, %3 as too few in "
                                   "their region, %4 for l-diversity and %5 against earlier releases.")
                           .arg(counts.suppressed())
                           .arg(counts.globallySuppressed)
                           .arg(counts.locallySuppressed)
                           .arg(counts.diversitySuppressed)
                           .arg(counts.differenceSuppressed));
    return outputs;
}

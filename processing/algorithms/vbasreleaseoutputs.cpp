#include "vbasreleaseoutputs.h"

#include "vbasalgorithm.h"
#include "vbaschoiceparameter.h"
#include "vbashtml.h"
#include "vbaslayerstyler.h"
#include "vbasmapimage.h"
#include "vbasoutputguard.h"
#include "vbasparameterreader.h"
#include "vbasqgiscompat.h"
#include "vbasrecordstreams.h"
#include "vbasreport.h"
#include "vbasstyling.h"
#include "vbaswithheld.h"

#include <qgsapplication.h>
#include <qgsfeaturesink.h>
#include <qgsprocessingfeedback.h>
#include <qgsprocessingoutputs.h>
#include <qgsprocessingparameters.h>
#include <qgsprocessingutils.h>
#include <qgsproject.h>

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <functional>
#include <iterator>
#include <optional>

using namespace VbasParameters;

namespace
{
struct CountOutput
{
    const QString& name;
    const char* description;
};
/** Numbers every release gives besides the metrics. */
const CountOutput kCountOutputs[] = {{kInputRecords, QT_TR_NOOP("Records in the input")},
                                     {kRecordsReleased, QT_TR_NOOP("Records released")},
                                     {kRecordsDropped, QT_TR_NOOP("Records dropped (unknown small area)")},
                                     {kAggregates, QT_TR_NOOP("Aggregated regions")},
                                     {kEmptySites, QT_TR_NOOP("Sites that received no small area")}};

/** The text of a destination parameter's value: a path, an OGR destination, TEMPORARY_OUTPUT... */
QString destinationText(QVariant value)
{
    if (value.userType() == qMetaTypeId<QgsProcessingOutputLayerDefinition>())
        value = value.value<QgsProcessingOutputLayerDefinition>().sink.staticValue();
    return value.toString();
}

bool isTemporary(const QString& destination)
{
    return destination == QgsProcessing::TEMPORARY_OUTPUT ||
           (!destination.isEmpty() &&
            QFileInfo(destination)
                .absoluteFilePath()
                .startsWith(QDir(QgsProcessingUtils::tempFolder()).absolutePath() + '/'));
}

/** The file a destination writes: the path, or the GeoPackage of "ogr:dbname='f.gpkg' table=..."; empty for
 * none (a temporary or memory layer, a database). */
QString destinationFile(const QString& destination)
{
    static const QRegularExpression ogr(QStringLiteral("^ogr:dbname='([^']+)'"));
    if (const QRegularExpressionMatch match = ogr.match(destination); match.hasMatch())
        return match.captured(1);
    const QFileInfo file(destination);
    if (isTemporary(destination) || !file.isAbsolute() || file.suffix().isEmpty() || !file.dir().exists())
        return QString();
    return file.filePath();
}

/** Returns `lines` escaped for HTML. */
QStringList escapedLines(const QStringList& lines)
{
    QStringList escaped;
    for (const QString& line : lines)
        escaped << line.toHtmlEscaped();
    return escaped;
}
} // namespace

void VbasReleaseOutputs::addTo(VbasAlgorithm& algorithm, bool withSites)
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
    algorithm.addParameter(VbasCompat::advanced(releaseFields));
    auto* recordId =
        new QgsProcessingParameterField(kRecordIdField, QObject::tr("Person id field (never published)"),
                                        QVariant(), kRecords, VbasCompat::FieldTypeAny, false, true);
    recordId->setHelp(QObject::tr(
        "The field that identifies the person of each record (a patient number). Give it whenever a person "
        "can have several rows (visits, admissions, claims): k then counts distinct people, not rows, and a "
        "person with rows in several groups counts in each. Never published: the release ledger keeps a "
        "keyed "
        "sample of the ids to tell new records from those of earlier releases. Without it every row counts "
        "as "
        "a person of its own, and the log warns when the rows look like repeated persons."));
    algorithm.addParameter(VbasCompat::advanced(recordId));
    addLedgerTo(algorithm);
    auto* rowId = new QgsProcessingParameterBoolean(
        kAddRowId, QObject::tr("Number the released records (a fresh row_id in their random order)"), false,
        true);
    rowId->setHelp(QObject::tr("Released records come in a random order and carry no id of the input; this "
                               "adds row_id 1, 2, 3... in that order, which tells nothing about the input."));
    algorithm.addParameter(VbasCompat::advanced(rowId));
    algorithm.addParameter(VbasCompat::advanced(new QgsProcessingParameterBoolean(
        kKeepSuppressed,
        QObject::tr("Keep withheld records in the records output, flagged (review only: never publish)"),
        false)));
    // The main outputs first, made by default; the others only when asked for, so that a first run loads
    // the release and its report, not eight layers.
    algorithm.addParameter(new QgsProcessingParameterFeatureSink(
        kOutput, QObject::tr("Released regions (publishable)"), VbasCompat::SourceTypeVectorPolygon));
    algorithm.addParameter(forReview(
        new QgsProcessingParameterFeatureSink(kOutputRecords, QObject::tr("Released records (publishable)"),
                                              VbasCompat::SourceTypeVector, QVariant(), true),
        kKeepSuppressed));
    algorithm.addParameter(forReview(new QgsProcessingParameterFileDestination(
        kOutputHtml, QObject::tr("Report (review only: never publish)"), QObject::tr("HTML files (*.html)"),
        QVariant(), true)));
    if (withSites)
        algorithm.addParameter(VbasCompat::advanced(new QgsProcessingParameterFeatureSink(
            kOutputMapping, QObject::tr("Small areas with their region (publishable)"),
            VbasCompat::SourceTypeVectorPolygon, QVariant(), true)));
    if (withSites)
    {
        algorithm.addParameter(VbasCompat::advanced(new QgsProcessingParameterFeatureSink(
            kOutputSites, QObject::tr("Region centres, the sites (publishable)"),
            VbasCompat::SourceTypeVectorPoint, QVariant(), true, false)));
        algorithm.addParameter(VbasCompat::advanced(new QgsProcessingParameterFeatureSink(
            kOutputCells, QObject::tr("Voronoi cells of the sites (publishable)"),
            VbasCompat::SourceTypeVectorPolygon, QVariant(), true, false)));
    }
    algorithm.addParameter(VbasCompat::advanced(forReview(new QgsProcessingParameterFeatureSink(
        kOutputReview, QObject::tr("Released regions with withheld counts (review only: never publish)"),
        VbasCompat::SourceTypeVectorPolygon, QVariant(), true, false))));
    algorithm.addParameter(VbasCompat::advanced(new QgsProcessingParameterFileDestination(
        kOutputMapImage, QObject::tr("Map image (publishable)"), QObject::tr("PNG files (*.png)"), QVariant(),
        true, false)));
    // Optional with defaults, so that models saved before these parameters existed stay valid.
    auto* shadeBy = new VbasChoiceParameter(kShadeBy, QObject::tr("Shade the aggregated regions by"),
                                            VbasChoiceParameter::literalChoices(VbasStyling::shadeFields()),
                                            false, VbasStyling::kDefaultShadeField, true);
    shadeBy->setHelp(
        QObject::tr("Which figure of the aggregated regions (one of their fields) their colour shows in "
                    "QGIS, in the map image and in the report."));
    algorithm.addParameter(VbasCompat::advanced(shadeBy));
    algorithm.addParameter(VbasCompat::advanced(
        new QgsProcessingParameterNumber(kMapImageWidth, QObject::tr("Map image width (pixels)"),
                                         VbasCompat::NumberTypeInteger, 1600, true, 400, 8000)));
    algorithm.addParameter(VbasCompat::advanced(
        new QgsProcessingParameterNumber(kMapImageHeight, QObject::tr("Map image height (pixels)"),
                                         VbasCompat::NumberTypeInteger, 1000, true, 300, 8000)));
    for (const CountOutput& count : kCountOutputs)
        algorithm.addOutput(new QgsProcessingOutputNumber(count.name, QObject::tr(count.description)));
    for (const vbas::MetricEntry& metric : vbas::Registry::builtIn().metrics)
        algorithm.addOutput(new QgsProcessingOutputNumber(VbasOutputs::metricOutputName(metric.id),
                                                          QString::fromStdString(metric.name)));
}

void VbasReleaseOutputs::addLedgerTo(VbasAlgorithm& algorithm)
{
    auto* ledger = new QgsProcessingParameterString(kReleaseLedger, QObject::tr("Release ledger"), QVariant(),
                                                    false, true);
    ledger->setHelp(QObject::tr(
        "Where every release is recorded, so that a second aggregation of the same small areas is refused "
        "(overlaid on the first it would single people out): a SQLite file of its own "
        "(/data/custodian/ledger.sqlite) or a PostgreSQL database (postgresql://custodian@dbhost/releases, "
        "or "
        "PG:host=dbhost dbname=releases), never an output or a file that receives one. A ledger is made only "
        "with NEW_LEDGER. Empty: in QGIS desktop the ledger of the QGIS profile "
        "(vbas/release-ledger.sqlite); "
        "from the command line the release is refused unless NO_LEDGER says that none is kept."));
    algorithm.addParameter(VbasCompat::advanced(ledger));
    auto* newLedger = new QgsProcessingParameterBoolean(
        kNewLedger, QObject::tr("Make a new release ledger at RELEASE_LEDGER"), false, true);
    newLedger->setHelp(QObject::tr(
        "Makes the ledger RELEASE_LEDGER names, with its key in a key file apart from it (LEDGER_KEY, or a "
        "file "
        "named for the ledger in vbas/ledger-keys of your configuration folder). Refused when the ledger "
        "exists: "
        "a ledger is never made silently, so that a typing error in its path cannot start an empty one."));
    algorithm.addParameter(VbasCompat::advanced(newLedger));
    auto* key = new QgsProcessingParameterFile(kLedgerKey, QObject::tr("Key file of the release ledger"),
                                               VbasCompat::FileBehaviorFile, QString(), QVariant(), true);
    key->setHelp(QObject::tr(
        "The key of the ledger's fingerprints, kept apart from the ledger: without it a copy of the ledger "
        "tests "
        "no guessed record. Empty: vbas/ledger-keys/<the ledger's id>.key in your configuration folder. Keep "
        "a "
        "copy of it with the custodian's secrets; a ledger whose key is lost can be read but not added to."));
    algorithm.addParameter(VbasCompat::advanced(key));
    auto* noLedger = new QgsProcessingParameterBoolean(
        kNoLedger, QObject::tr("Keep no release ledger (command line)"), false, true);
    noLedger->setHelp(QObject::tr(
        "From the command line a release without a ledger is refused unless this says so explicitly: nothing "
        "then stops a second aggregation of the same small areas from being released and overlaid on this "
        "one."));
    algorithm.addParameter(VbasCompat::advanced(noLedger));
    auto* otherPeople = new QgsProcessingParameterString(
        kOtherPeople, QObject::tr("Earlier releases of other people's records (ledger numbers)"), QVariant(),
        false, true);
    otherPeople->setHelp(QObject::tr(
        "An earlier release on the same small areas binds every later one to its regions (or coarser ones). "
        "When "
        "these records concern other people (another register, another disease), name that release's number "
        "here (3, or 3,5): the statement is recorded and shown in the report, and the run is refused if the "
        "records share content with it."));
    algorithm.addParameter(VbasCompat::advanced(otherPeople));
}

bool VbasReleaseOutputs::isWanted(const QVariantMap& parameters, const QString& name)
{
    QVariant value = parameters.value(name);
    if (value.userType() == qMetaTypeId<QgsProcessingOutputLayerDefinition>())
        value = value.value<QgsProcessingOutputLayerDefinition>().sink.staticValue();
    return value.isValid() && !value.toString().isEmpty();
}

QVariantMap VbasReleaseOutputs::withReportKept(const QgsProcessingAlgorithm& algorithm,
                                               QVariantMap parameters, const QgsProcessingContext& context)
{
    if (!algorithm.parameterDefinition(kOutputHtml) ||
        !isTemporary(destinationText(parameters.value(kOutputHtml))))
        return parameters;
    for (const QgsProcessingParameterDefinition* destination : algorithm.destinationParameterDefinitions())
    {
        const QFileInfo file(destinationFile(destinationText(parameters.value(destination->name()))));
        if (destination->name() != kOutputHtml && !file.filePath().isEmpty())
        {
            parameters.insert(
                kOutputHtml,
                file.dir().filePath(QStringLiteral("%1-report.html").arg(file.completeBaseName())));
            return parameters;
        }
    }
    QString folder = context.project() ? context.project()->homePath() : QString();
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
    {
        folder = QDir(QgsApplication::qgisSettingsDirPath()).filePath(QStringLiteral("vbas/reports"));
        QDir().mkpath(folder);
    }
    parameters.insert(kOutputHtml, QDir(folder).filePath(
                                       QStringLiteral("%1-report-%2.html")
                                           .arg(algorithm.name(), QDateTime::currentDateTimeUtc().toString(
                                                                      QStringLiteral("yyyyMMdd-HHmmss")))));
    return parameters;
}

QVariantMap VbasReleaseOutputs::write(const VbasParameterReader& read, QgsProcessingFeedback* feedback,
                                      VbasOutputGuard& guard, const VbasJob& job, const VbasRelease& release,
                                      const QStringList& ledgerLines)
{
    const VbasPlanarFrame& frame = *job.frame;
    const vbas::Dataset& dataset = *job.data.dataset;
    const QString shadeBy = read.choiceId(kShadeBy);
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
    for (const QgsProcessingParameterDefinition* destination :
         read.algorithm().destinationParameterDefinitions())
        wanted += isWanted(read.parameters(), destination->name()) ? 1 : 0;
    const auto advance = [&]()
    {
        feedback->setProgress(100.0 * double(outputs.size()) / double(std::max(wanted, 1)));
    };
    const auto write = [&](const QString& name, std::optional<VbasStyling::Role> role,
                           const QgsFields& fields, VbasCompat::WkbType type,
                           const std::function<void(VbasSink&)>& writer)
    {
        if (!read.has(name))
            return;
        advance();
        QString destination;
        std::unique_ptr<QgsFeatureSink> sink = read.sink(name, destination, fields, type, frame.sourceCrs());
        if (!sink)
        {
            if (name == kOutput)
                throw read.invalidSinkError(name);
            return;
        }
        // The output's share of the bar.
        QgsProcessingMultiStepFeedback share(std::max(wanted, 1), feedback);
        share.setCurrentStep(int(outputs.size()));
        // Rows without geometry (millions of records) go the fastest way into the table QGIS created.
        std::unique_ptr<VbasRecordSink> records;
        if (type == VbasCompat::WkbNoGeometry)
            records = VbasRecordSink::open(std::move(sink), destination, fields, name);
        VbasSink out = records ? VbasSink(*records, name, share, &guard.writtenCounts(), destination)
                               : VbasSink(*sink, name, share, &guard.writtenCounts(), destination);
        writer(out);
        if (records)
            records->finish();
        written << (out.written() == 1 ? QObject::tr("%1 (1 feature)").arg(name)
                                       : QObject::tr("%1 (%2 features)").arg(name).arg(out.written()));
        outputs.insert(name, destination);
        if (role)
            VbasLayerStyler::attach(guard, read.context(), destination, *role, shadeBy,
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
    layout.rowId = read.asBoolean(kAddRowId);
    layout.flagFates = read.asBoolean(kKeepSuppressed);
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

    const QString mapImage = read.asFileOutput(kOutputMapImage);
    const QString report = read.asFileOutput(kOutputHtml);
    const QSize mapSize(read.asInt(kMapImageWidth), read.asInt(kMapImageHeight));
    const bool withSites = read.has(kOutputSites);
    // The published map shows no hot spots of withheld records; the report's map, for review, does.
    if (!mapImage.isEmpty())
    {
        advance();
        const VbasMapImage map(job, release, withSites, shadeBy, Audience::Publication, *feedback);
        VbasMapImage::save(mapImage, kOutputMapImage, map.png(mapSize));
        written << kOutputMapImage;
        outputs.insert(kOutputMapImage, mapImage);
    }
    // Who was withheld, counted once from every record's fate: the report shows it all, the log the most.
    const VbasWithheld withheld = VbasWithheld::count(job, release, layout);
    if (!report.isEmpty())
    {
        advance();
        const VbasMapImage map(job, release, withSites, shadeBy, Audience::Review, *feedback);
        vbasWriteReleaseReport(report, kOutputHtml, read.algorithm().displayName(),
                               VbasHtml::parameters(read.algorithm(), read.parameters(), read.context()), job,
                               release, layout, withheld, {map.png(mapSize), map.caption()},
                               escapedLines(ledgerLines));
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
    // The site count (what the search found, what the log said before) is not the number of regions: a site
    // the locator could not place, or that got no small area, makes none. Said here, so that the log gives
    // one count for the release.
    const std::size_t emptySites = release.result.aggregation.emptySites;
    const std::size_t placed = release.result.aggregation.size() + emptySites;
    QStringList sites;
    if (release.result.requestedSites > placed)
        sites << QObject::tr("; %1 of the %2 sites asked for were placed")
                     .arg(placed)
                     .arg(release.result.requestedSites);
    if (emptySites > 0)
        sites << QObject::tr("; %1 of the %2 sites received no small area").arg(emptySites).arg(placed);
    feedback->pushInfo(QObject::tr("Released %1 of %2 records in %3 regions (k = %4)%5.")
                           .arg(counts.released)
                           .arg(dataset.totalRecords() + dataset.droppedRecords())
                           .arg(release.result.aggregation.size())
                           .arg(release.result.k)
                           .arg(sites.join(QString())));
    feedback->pushInfo(
        QObject::tr("Withheld %1 records: %2 as rare in the whole data set, %3 as too few in "
                    "their region, %4%5 for the sensitive values%6 and %7 against earlier releases.")
            .arg(counts.suppressed())
            .arg(counts.globallySuppressed)
            .arg(counts.locallySuppressed)
            .arg(dataset.publishesCountRows()
                     ? QObject::tr("%1 in count rows below k, ").arg(counts.smallRowSuppressed)
                     : QString())
            .arg(counts.diversitySuppressed)
            .arg(release.criteriaNote())
            .arg(counts.differenceSuppressed));
    for (const QString& line : withheld.costLines())
        feedback->pushInfo(line);
    feedback->pushInfo(
        report.isEmpty()
            ? QObject::tr("No report was asked for (%1): it would show every value and region withheld from.")
                  .arg(kOutputHtml)
            : QObject::tr("The report (review only: never publish): %1").arg(guard.finalDestination(report)));
    return outputs;
}

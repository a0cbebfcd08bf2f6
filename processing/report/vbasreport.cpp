#include "vbasreport.h"

#include "Registry.h"
#include "base/NumberText.h"
#include "vbascharts.h"
#include "vbasprovenance.h"
#include "vbaswithheld.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

using VbasHtml::count;
using VbasHtml::header;
using VbasHtml::percent;
using VbasHtml::row;

namespace
{
/** Values of a quasi-identifier listed in the summary before the rest are summed up in one line. */
constexpr int kMostValues = 25;
/** Regions with the highest withheld shares listed in the summary (all of them in the last table). */
constexpr int kRegionsListed = 10;

QString escaped(const QString& text)
{
    return text.toHtmlEscaped();
}

/** "a, b and c". */
QString listed(const QStringList& items)
{
    if (items.size() < 2)
        return items.join(QString());
    return QObject::tr("%1 and %2")
        .arg(items.mid(0, items.size() - 1).join(QStringLiteral(", ")), items.last());
}

QString fieldName(const VbasJob& job, int field)
{
    return job.records->fields().at(field).name();
}

/** How quasi-identifier `j` is released, in words that follow its name: "in bands of 10", "as it is". */
QString releasedAs(const VbasRelease& release, const VbasOutputs::RecordLayout& layout, std::size_t j)
{
    if (release.hierarchies() == nullptr || !(*release.hierarchies())[j])
        return QObject::tr("as it is");
    return QString::fromStdString((*release.hierarchies())[j]->describeLevel(layout.level(release, j)));
}

/**
 * A few of the values a generalized quasi-identifier is published as (": 0-9, 10-19, 20-29..."), so that
 * "in bands of 10" reads with its unit; nothing for one released as it is or as '*'.
 */
QString examples(const VbasRelease& release, const VbasOutputs::RecordLayout& layout,
                 const VbasWithheld& withheld, std::size_t j)
{
    if (release.hierarchies() == nullptr || !(*release.hierarchies())[j] || layout.level(release, j) == 0 ||
        int(j) >= withheld.quasiIdentifiers.size())
        return QString();
    const vbas::Hierarchy& hierarchy = (*release.hierarchies())[j]->hierarchy;
    if (hierarchy.levelName(layout.level(release, j)) == "*")
        return QString();
    constexpr int kShown = 3;
    QStringList labels;
    for (const VbasWithheld::Share& share : withheld.quasiIdentifiers[int(j)].values)
        if (labels.size() < kShown)
            labels << share.label;
    const bool more = withheld.quasiIdentifiers[int(j)].values.size() > kShown;
    return labels.isEmpty() ? QString()
                            : QStringLiteral(": %1%2").arg(labels.join(QStringLiteral(", ")),
                                                           more ? QStringLiteral("...") : QString());
}

/** A share as a bar: its width relative to `largest`, for the eye to find the values withheld most. */
QString bar(double share, double largest)
{
    const double width = largest > 0.0 ? 100.0 * share / largest : 0.0;
    return QStringLiteral("<span class=\"sharebar\"><span style=\"width:%1%\"></span></span>")
        .arg(QString::number(width, 'f', 1));
}

/** A row of a withheld table: its figures as data-* attributes for tests and readers. */
QString shareRow(const VbasWithheld::Share& share, double largest)
{
    return QStringLiteral("<tr data-value=\"%1\" data-records=\"%2\" data-withheld=\"%3\">")
               .arg(escaped(share.label))
               .arg(share.records)
               .arg(share.withheld) +
           QStringLiteral("<td>%1</td><td class=\"n\">%2</td><td class=\"n\">%3</td><td class=\"n\">%4</td>"
                          "<td>%5</td></tr>\n")
               .arg(escaped(share.label), count(share.records), count(share.withheld),
                    escaped(percent(double(share.withheld), double(share.records))),
                    bar(VbasWithheld::shareOf(share), largest));
}

/** A table of withheld shares with `caption`; `field` names it for tests (data-field). */
QString shareTable(const QString& field, const QString& caption, const QString& label,
                   const QVector<VbasWithheld::Share>& shares, const QString& note = QString())
{
    double largest = 0.0;
    for (const VbasWithheld::Share& share : shares)
        largest = std::max(largest, VbasWithheld::shareOf(share));
    QString html =
        QStringLiteral("<table class=\"withheld\" data-field=\"%1\"><caption>%2</caption>\n")
            .arg(escaped(field), escaped(caption)) +
        header({label, QObject::tr("records"), QObject::tr("withheld"), QObject::tr("share"), QString()});
    for (const VbasWithheld::Share& share : shares)
        html += shareRow(share, largest);
    if (!note.isEmpty())
        html += QStringLiteral("<tr><td colspan=\"5\">%1</td></tr>\n").arg(escaped(note));
    return html + QStringLiteral("</table>\n");
}

/** The values of one quasi-identifier with their withheld shares; the most withheld ones first when many. */
QString valueTable(const VbasWithheld::QuasiIdentifier& quasiIdentifier, const QString& releasedAs)
{
    QVector<VbasWithheld::Share> shown = quasiIdentifier.values;
    QString note;
    if (shown.size() > kMostValues)
    {
        std::stable_sort(shown.begin(), shown.end(),
                         [](const VbasWithheld::Share& a, const VbasWithheld::Share& b)
                         { return VbasWithheld::shareOf(a) > VbasWithheld::shareOf(b); });
        VbasWithheld::Share rest;
        for (auto share = shown.begin() + kMostValues; share != shown.end(); ++share)
        {
            rest.records += share->records;
            rest.withheld += share->withheld;
        }
        note = QObject::tr("%1 more values, the %2 highest shares above: %3 records, %4 withheld (%5)")
                   .arg(shown.size() - kMostValues)
                   .arg(kMostValues)
                   .arg(count(rest.records), count(rest.withheld),
                        percent(double(rest.withheld), double(rest.records)));
        shown.resize(kMostValues);
    }
    return shareTable(quasiIdentifier.name, QStringLiteral("%1 (%2)").arg(quasiIdentifier.name, releasedAs),
                      QObject::tr("value"), shown, note);
}

/** Who was withheld: the reasons, then the shares by released value and by region. */
QString withheldFrom(const VbasRelease& release, const VbasOutputs::RecordLayout& layout,
                     const VbasWithheld& withheld)
{
    const vbas::SuppressionOutcome& counts = release.result.suppression;
    QString html = QStringLiteral("<h3>%1</h3>\n").arg(QObject::tr("Who was withheld"));
    if (withheld.withheld == 0)
        return html + QStringLiteral("<p>%1</p>\n").arg(QObject::tr("No record was withheld."));
    QStringList reasons;
    for (const auto& [records, reason] :
         {std::pair(counts.globallySuppressed,
                    release.result.kMap ? QObject::tr("as fewer than k people of the whole population share "
                                                      "their combination of values")
                                        : QObject::tr("as their combination of values is rarer than k in "
                                                      "the whole data set")),
          std::pair(counts.locallySuppressed, QObject::tr("as too few like them live in their region")),
          std::pair(counts.smallRowSuppressed,
                    QObject::tr("as the count row they would be published in holds fewer than k records")),
          std::pair(counts.diversitySuppressed,
                    QObject::tr("as their group's sensitive values vary too little or stray too far%1")
                        .arg(release.criteriaNote())),
          std::pair(counts.differenceSuppressed,
                    QObject::tr("as their group's count differs from an earlier release's by 1 to k - 1"))})
        if (records > 0)
            reasons << QObject::tr("%1 %2").arg(count(qint64(records)), reason);
    html += QStringLiteral("<p>%1</p>\n")
                .arg(escaped(QObject::tr("%1 records (%2) were withheld: %3.")
                                 .arg(count(withheld.withheld),
                                      percent(double(withheld.withheld), double(withheld.records)),
                                      listed(reasons))));
    if (const QString over = withheld.overWithheld(); !over.isEmpty())
        html +=
            QStringLiteral("<p class=\"warning\" data-field=\"over_withheld\">%1</p>\n").arg(escaped(over));
    html += QStringLiteral("<p>%1</p>\n<div class=\"tables\">\n")
                .arg(escaped(
                    QObject::tr("The share withheld of every value as it is released, and of every region. "
                                "Where a share lies well above the %1 overall, analyses of that group "
                                "miss more of its records than of the others': results on it may be biased.")
                        .arg(percent(double(withheld.withheld), double(withheld.records)))));
    for (int j = 0; j < withheld.quasiIdentifiers.size(); ++j)
        html += valueTable(withheld.quasiIdentifiers[j], releasedAs(release, layout, std::size_t(j)));

    const int withSome =
        int(std::count_if(withheld.regions.begin(), withheld.regions.end(),
                          [](const VbasWithheld::Share& share) { return share.withheld > 0; }));
    const QVector<VbasWithheld::Share> regions =
        VbasWithheld::highestShares(withheld.regions, kRegionsListed);
    html += shareTable(QStringLiteral("region"),
                       QObject::tr("regions: records withheld in %1 of %2; the highest shares")
                           .arg(withSome)
                           .arg(withheld.regions.size()),
                       QObject::tr("region"), regions,
                       QObject::tr("Every region: the last table of this report."));
    return html + QStringLiteral("</div>\n");
}

/** What the release needs to be made again: the versions it was made with, beside the parameters above. */
QString reproduction()
{
    QString html =
        QStringLiteral("<h2 id=\"reproduce\">%1</h2>\n<p>%2</p>\n<table class=\"versions\">\n")
            .arg(
                escaped(QObject::tr("To make this release again")),
                escaped(QObject::tr(
                    "The same inputs and the parameters above (SEED included) give the same regions, "
                    "withheld "
                    "records and published files with these versions; the published records come in a new "
                    "random order every time, on purpose. Regions in longitude and latitude are projected by "
                    "VBAS itself, so other versions of PROJ give the same plane. The release ledger keeps "
                    "the "
                    "same."))) +
        header({QObject::tr("software"), QObject::tr("version")});
    for (const auto& [library, version] : VbasProvenance::versions())
        html += row({library, version});
    return html + QStringLiteral("</table>\n");
}

/** The plain summary: the records, the geography, how each field was released, and who was withheld. */
QString summary(const VbasJob& job, const VbasRelease& release, const VbasOutputs::RecordLayout& layout,
                const VbasWithheld& withheld)
{
    const vbas::Dataset& dataset = *job.data.dataset;
    const vbas::PipelineResult& result = release.result;
    const qint64 input = qint64(dataset.totalRecords() + dataset.droppedRecords());
    const auto released = qint64(result.suppression.released);
    QString html =
        QStringLiteral("<h2 id=\"summary\">%1</h2>\n<p>%2</p>\n")
            .arg(QObject::tr("Summary"),
                 escaped(QObject::tr("Of %1 records, %2 (%3) are released and %4 (%5) withheld.")
                             .arg(count(input), count(released), percent(double(released), double(input)),
                                  count(withheld.withheld),
                                  percent(double(withheld.withheld), double(input)))));
    if (dataset.droppedRecords() > 0)
        html +=
            QStringLiteral("<p>%1</p>\n")
                .arg(escaped(QObject::tr("%1 more were dropped: their small area is not among the regions.")
                                 .arg(count(qint64(dataset.droppedRecords())))));

    const vbas::Aggregation& aggregation = result.aggregation;
    QVector<double> members;
    for (std::size_t a = 0; a < aggregation.size(); ++a)
        members << double(aggregation.memberCount(a));
    QString geography =
        aggregation.size() == 1
            ? QObject::tr("The %1 small areas are merged into one region.")
                  .arg(count(qint64(dataset.regionCount())))
            : QObject::tr("The %1 small areas are merged into %2 regions")
                  .arg(count(qint64(dataset.regionCount())), count(qint64(aggregation.size())));
    if (members.size() > 1)
    {
        const VbasCharts::Summary spread = VbasCharts::summary(members);
        geography += spread.min == spread.max ? QObject::tr(" of %1 small areas each.").arg(spread.min)
                                              : QObject::tr(" of %1 to %2 small areas each (median %3).")
                                                    .arg(spread.min)
                                                    .arg(spread.max)
                                                    .arg(spread.median);
    }
    else if (members.isEmpty())
        geography += QStringLiteral(".");
    QStringList quasiIdentifiers;
    for (const int field : layout.roles.quasiIdentifiers)
        quasiIdentifiers << fieldName(job, field);
    QString protection =
        result.kMap
            ? QObject::tr("%1 (k-map: the people who share a released record's region and %2 in the "
                          "population table hide it, however few cases they are).")
                  .arg(QString::fromStdString(vbas::KMap::describe(result.k, true)),
                       quasiIdentifiers.isEmpty() ? QObject::tr("small areas") : listed(quasiIdentifiers))
        : quasiIdentifiers.isEmpty()
            ? QObject::tr("Every released region holds at least %1 records (a population floor). It protects "
                          "counts only: nothing protects a person whose age, sex or other values someone "
                          "knows.")
                  .arg(result.k)
            : QObject::tr(
                  "Every released record shares its region and its %1 with at least %2 other released "
                  "records (k = %3).")
                  .arg(listed(quasiIdentifiers))
                  .arg(result.k - 1)
                  .arg(result.k);
    if (!result.criteria.empty())
    {
        QStringList sensitive;
        for (const int field : layout.roles.sensitive)
            sensitive << fieldName(job, field);
        protection +=
            QStringLiteral(" ") + QObject::tr("Each such group also meets %1 on %2.")
                                      .arg(QString::fromStdString(result.criteria), listed(sensitive));
    }
    html += QStringLiteral("<p>%1 %2</p>\n").arg(escaped(geography), escaped(protection));

    // How each field is published (docs/publishing.md, roles of the record fields).
    const VbasRecordFields& roles = layout.roles;
    QStringList fields;
    const auto item = [&](int field, const QString& how)
    {
        fields << QStringLiteral("<li><strong>%1</strong> %2</li>")
                      .arg(escaped(fieldName(job, field)), escaped(how));
    };
    item(roles.region, QObject::tr("(the small area): replaced by %1, the id of its region")
                           .arg(release.aggregateIdField.name()));
    for (int j = 0; j < roles.quasiIdentifiers.size(); ++j)
        item(roles.quasiIdentifiers.at(j), releasedAs(release, layout, std::size_t(j)) +
                                               examples(release, layout, withheld, std::size_t(j)));
    for (const int field : roles.sensitive)
        item(field, QObject::tr("as it is (sensitive)"));
    for (const int field : roles.released)
        item(field, QObject::tr("as it is"));
    if (roles.count >= 0)
        item(roles.count, QObject::tr("summed over each released group of records alike"));
    QStringList unpublished;
    const QgsFields all = job.records->fields();
    for (int field = 0; field < all.size(); ++field)
        if (field != roles.region && field != roles.count && !roles.quasiIdentifiers.contains(field) &&
            !roles.publishedValues().contains(field))
            unpublished << (field == roles.recordId
                                ? QObject::tr("%1 (the record id)").arg(all.at(field).name())
                                : all.at(field).name());
    if (!unpublished.isEmpty())
        fields << QStringLiteral("<li>%1</li>")
                      .arg(escaped(
                          QObject::tr("Not published: %1.").arg(unpublished.join(QStringLiteral(", ")))));
    html += QStringLiteral("<h3>%1</h3>\n<ul>\n%2\n</ul>\n")
                .arg(QObject::tr("How each field is released"), fields.join(QStringLiteral("\n")));
    return html + withheldFrom(release, layout, withheld);
}

QString ledgerSection(const QStringList& ledger)
{
    return QStringLiteral("<h2 id=\"ledger\">%1</h2>\n<ul>\n<li>%2</li>\n</ul>\n")
        .arg(QObject::tr("Release ledger, people and published columns"),
             ledger.join(QStringLiteral("</li>\n<li>")));
}

QString counts(const VbasRelease& release, const vbas::Dataset& dataset)
{
    const vbas::SuppressionOutcome& counts = release.result.suppression;
    const vbas::Aggregation& aggregation = release.result.aggregation;
    std::size_t withoutRecords = 0;
    for (vbas::RegionIndex r = 0; r < dataset.regionCount(); ++r)
        withoutRecords += dataset.regionHistograms().entries(r).size() == 0 ? 1 : 0;
    QString html = QStringLiteral("<h2 id=\"records\">%1</h2>\n<table>\n").arg(QObject::tr("Records")) +
                   header({QObject::tr("records"), QObject::tr("count")});
    html += row({QObject::tr("required anonymity k"), qlonglong(release.result.k)});
    html += row({QObject::tr("in the input"), qlonglong(dataset.totalRecords() + dataset.droppedRecords())});
    html += row({QObject::tr("released"), qlonglong(counts.released)});
    html += row(
        {QObject::tr("suppressed globally (rare in the whole table)"), qlonglong(counts.globallySuppressed)});
    html += row(
        {QObject::tr("suppressed locally (too few in their region)"), qlonglong(counts.locallySuppressed)});
    if (dataset.publishesCountRows())
        html += row({QObject::tr("withheld in count rows below k (their group holds k, but the row of their "
                                 "published values fewer)"),
                     qlonglong(counts.smallRowSuppressed)});
    html += row({QObject::tr("withheld for the sensitive values%1").arg(release.criteriaNote()),
                 qlonglong(counts.diversitySuppressed)});
    html +=
        row({QObject::tr("withheld against earlier releases (their group's count 1 to k - 1 away from one "
                         "an earlier release of these records published)"),
             qlonglong(counts.differenceSuppressed)});
    html += row({QObject::tr("dropped (unknown small area)"), qlonglong(dataset.droppedRecords())});
    html += row({QObject::tr("small areas"), qlonglong(dataset.regionCount())});
    html += row({QObject::tr("small areas without records (they join the region of their nearest site)"),
                 qlonglong(withoutRecords)});
    html += row({QObject::tr("aggregated regions"), qlonglong(aggregation.size())});
    html += row({QObject::tr("sites that received no small area"), qlonglong(aggregation.emptySites)});
    html +=
        row({QObject::tr("possible combinations of the quasi-identifiers' values as read (MaxCombs, NULL a "
                         "value of its own)"),
             double(dataset.schema().maxCombs())});
    return html + QStringLiteral("</table>\n");
}

QString metrics(const VbasRelease& release)
{
    QString html = QStringLiteral("<h2 id=\"quality\">%1</h2>\n<table class=\"metrics\">\n")
                       .arg(QObject::tr("Quality")) +
                   header({QObject::tr("metric"), QObject::tr("value"), QObject::tr("what it means")});
    for (const vbas::MetricEntry& entry : vbas::Registry::builtIn().metrics)
        html +=
            QStringLiteral("<tr data-metric=\"%1\"><td>%2</td><td class=\"n\">%3</td><td>%4</td></tr>\n")
                .arg(escaped(QString::fromStdString(entry.id)), escaped(QString::fromStdString(entry.name)),
                     escaped(VbasHtml::metric(release.result.metric(entry.id), entry.unit)),
                     escaped(QString::fromStdString(entry.meaning)));
    return html + QStringLiteral("</table>\n");
}

/** The releases the site-count search tried, one row per count, and the one chosen. */
QString siteCountSearch(const VbasRelease& release)
{
    const vbas::PipelineResult& result = release.result;
    if (!result.siteCountSearch)
        return QString();
    const vbas::SiteCountSearch& search = *result.siteCountSearch;
    std::map<std::uint64_t, std::pair<std::optional<vbas::Count>, std::optional<vbas::Count>>> tried;
    for (const vbas::SiteCountTrial& trial : search.trials)
        (trial.refined ? tried[trial.sites].second : tried[trial.sites].first) = trial.withheld;
    const auto withheldText = [&](const std::optional<vbas::Count>& withheld)
    {
        return withheld ? QObject::tr("%1 (%2)").arg(count(qint64(*withheld)),
                                                     percent(double(*withheld), double(search.records)))
                        : QString();
    };
    QString html =
        QStringLiteral("<h2 id=\"site-count\">%1</h2>\n<p>%2</p>\n")
            .arg(QObject::tr("How the number of regions was chosen"),
                 escaped(
                     QObject::tr(
                         "The suppression budget allows at most %1 of %2 records (%3 %) to be withheld. The "
                         "search released the records at %4 site counts (%5 releases): quickly without "
                         "refinement to "
                         "find where withholding crosses the budget, then with the refinement near there. "
                         "It chose the most sites whose refined release stays within the budget: %6 "
                         "sites, which make %7 regions.")
                         .arg(count(qint64(search.budget)), count(qint64(search.records)))
                         .arg(QString::fromStdString(vbas::percentText(search.budgetPercent)))
                         .arg(tried.size())
                         .arg(search.trials.size())
                         .arg(result.requestedSites)
                         .arg(result.aggregation.size())));
    html += QStringLiteral("<details><summary>%1</summary>\n<table class=\"sitecounts\">\n")
                .arg(QObject::tr("Every site count tried")) +
            header({QObject::tr("sites"), QObject::tr("withheld before refinement"),
                    QObject::tr("withheld, refined"), QObject::tr("within the budget")});
    for (const auto& [sites, withheld] : tried)
    {
        const std::optional<vbas::Count> measured = withheld.second ? withheld.second : withheld.first;
        html += row({qlonglong(sites), withheldText(withheld.first), withheldText(withheld.second),
                     *measured <= search.budget ? QObject::tr("yes") : QObject::tr("no")},
                    sites == result.requestedSites ? QStringLiteral("chosen") : QString());
    }
    return html + QStringLiteral("</table></details>\n");
}

/** What the site refinement, the contiguity repair and the region moves did, when they ran. */
QString refinements(const VbasRelease& release)
{
    const vbas::PipelineResult& result = release.result;
    QStringList done;
    if (result.refinement)
    {
        const vbas::RefinementReport& report = *result.refinement;
        // No time: the same input gives the same report (the log has the time).
        done << QObject::tr("Site refinement: %1 of %2 moves of the sites kept%3; stopped as %4.")
                    .arg(count(qint64(report.movesAccepted)), count(qint64(report.movesTried)),
                         report.movesAcceptedOnTie > 0
                             ? QObject::tr(" (%1 on the entropy tie-break)").arg(report.movesAcceptedOnTie)
                             : QString(),
                         QString::fromStdString(report.stopReason));
        if (report.continuedFrom > 0)
            done << QObject::tr(
                        "The refinement continued from its own sites at %1 sites tried before by the budget "
                        "search, with sites removed or added where aggregates were smallest or largest.")
                        .arg(report.continuedFrom);
        if (report.duplicateSitesDropped > 0)
            done << QObject::tr("%1 located sites stood where another did and were dropped.")
                        .arg(report.duplicateSitesDropped);
    }
    if (result.contiguity)
        done << QObject::tr("Contiguity: %1 pieces were cut off from their region; %2 small areas moved to a "
                            "bordering region, %3 islands stayed with their nearest region.")
                    .arg(result.contiguity->strandedPieces)
                    .arg(result.contiguity->regionsMoved)
                    .arg(result.contiguity->islandPieces);
    if (result.boundary)
        done << QObject::tr("Region moves: %1 of %2 moves of small areas to a bordering region kept, "
                            "withholding %3 records instead of %4; stopped as %5.")
                    .arg(count(qint64(result.boundary->movesAccepted)),
                         count(qint64(result.boundary->movesTried)),
                         count(std::llround(result.boundary->objectiveAfter)),
                         count(std::llround(result.boundary->objectiveBefore)),
                         QString::fromStdString(result.boundary->stopReason));
    if (done.isEmpty())
        return QString();
    QString html = QStringLiteral("<h2 id=\"refinement\">%1</h2>\n").arg(QObject::tr("Refinement"));
    for (const QString& line : done)
        html += QStringLiteral("<p>%1</p>\n").arg(escaped(line));
    return html;
}

/**
 * How the quasi-identifiers were coarsened, in words: the automatic bands, a removal the user allowed, and
 * when the budget could not be met at the levels allowed, which removal would meet it and the alternatives.
 */
QString attributeNotes(const vbas::GeneralizationReport& report, const vbas::Hierarchies& hierarchies)
{
    QString html;
    for (const auto& qi : hierarchies)
        if (qi && qi->automatic)
            html +=
                QStringLiteral("<p>%1</p>\n")
                    .arg(QObject::tr("%1: numbers, banded automatically ('%2': bands of these widths, the "
                                     "sparse ends coded as below and above a bound until each holds k "
                                     "records); never removed unless allowed.")
                             .arg(QString::fromStdString(qi->hierarchy.quasiIdentifier()),
                                  QString::fromStdString(qi->spec.text()))
                             .toHtmlEscaped());
    for (const std::string& name : report.removed)
        html +=
            QStringLiteral("<p class=\"warning\">%1</p>\n")
                .arg(QObject::tr("%1 is removed from the release (all its values are one, '*'), as its "
                                 "highest level allows: that gives the most regions within the suppression "
                                 "budget. To keep it, set a lower 'max' in the generalization.")
                         .arg(QString::fromStdString(name))
                         .toHtmlEscaped());
    if (!report.budgetWarning.empty())
    {
        QString warning = QString::fromStdString(report.budgetWarning);
        warning[0] = warning[0].toUpper();
        html += QStringLiteral("<p class=\"warning\">%1</p>\n").arg(warning.toHtmlEscaped());
    }
    return html;
}

/** The level combinations the generalization search evaluated, the chosen one and their frontier. */
QString generalization(const VbasRelease& release, const VbasOutputs::RecordLayout& layout)
{
    const vbas::Hierarchies* hierarchies = release.hierarchies();
    if (!release.generalization || hierarchies == nullptr)
        return QString();
    const vbas::GeneralizationReport& report = *release.generalization;
    const vbas::PipelineResult& result = release.result;
    QStringList chosenLevels;
    std::vector<std::size_t> generalized;
    for (std::size_t j = 0; j < hierarchies->size(); ++j)
        if ((*hierarchies)[j])
        {
            generalized.push_back(j);
            chosenLevels << QStringLiteral("%1 %2").arg(
                QString::fromStdString((*hierarchies)[j]->hierarchy.quasiIdentifier()),
                releasedAs(release, layout, j));
        }
    const QString lossMeaning =
        QObject::tr("attribute loss %1: the share of a value's range its released group spans, averaged over "
                    "released records and generalized fields (0: as they are, 1: all '*')")
            .arg(VbasHtml::rounded(report.releasedLoss));
    if (report.evaluated.empty()) // levels given, not searched: those of an earlier release
        return QStringLiteral("<h2 id=\"generalization\">%1</h2>\n<p>%2</p>\n")
            .arg(QObject::tr("Generalization"),
                 escaped(
                     QObject::tr("Released with %1, the levels of the earlier release whose aggregation it "
                                 "follows; %2.")
                         .arg(listed(chosenLevels), lossMeaning)));
    const vbas::NodeEvaluation& chosen = report.evaluated[report.chosen];
    const qint64 withheld = qint64(result.suppression.suppressed());
    const qint64 records = qint64(result.suppression.inputRecords);
    QString html =
        QStringLiteral(
            "<h2 id=\"generalization\">%1</h2>\n<p>%2</p>\n<p>%3</p>\n<p class=\"warning\">%4</p>\n")
            .arg(QObject::tr("Generalization"),
                 escaped(QObject::tr("Released with %1; %2. The search tried %3 of %4 level combinations (%5 "
                                     "more ruled out, as a coarser one missed), each held to the "
                                     "suppression budget of %6 %.")
                             .arg(listed(chosenLevels), lossMeaning)
                             .arg(report.evaluated.size())
                             .arg(report.latticeNodes)
                             .arg(report.prunedNodes)
                             .arg(QString::fromStdString(vbas::percentText(report.budgetPercent)))),
                 escaped(QObject::tr(
                             "To be quick, the search evaluates each combination without the site "
                             "refinement and region moves: the columns under \"evaluated\". The coarsest "
                             "searches its site counts; once it is within the budget, a finer combination "
                             "is released at the coarsest's site count only, as it reaches as many regions "
                             "only if it is within the budget there. The chosen "
                             "one is then released with them: %1 regions and %2 records withheld (%3), "
                             "where its evaluation found %4 regions and %5 withheld.")
                             .arg(count(qint64(result.aggregation.size())), count(withheld),
                                  percent(double(withheld), double(records)),
                                  count(qint64(chosen.aggregates)), count(qint64(chosen.withheld)))),
                 escaped(
                     QObject::tr("Only the chosen combination is released: two releases of the same records "
                                 "at other levels or regions could be overlaid to single people out.")));
    html += attributeNotes(report, *hierarchies);
    QVector<VbasCharts::Point> points;
    for (std::size_t e = 0; e < report.evaluated.size(); ++e)
        points.push_back({report.evaluated[e].loss, double(report.evaluated[e].aggregates), int(e),
                          report.evaluated[e].frontier});
    html +=
        QStringLiteral("<figure>") +
        VbasCharts::scatter(QStringLiteral("loss"), QObject::tr("attribute loss"), QStringLiteral("regions"),
                            QObject::tr("regions (evaluated, before refinement)"), points,
                            QObject::tr("frontier (not dominated)"), QObject::tr("dominated")) +
        QStringLiteral("<figcaption>%1</figcaption></figure>\n")
            .arg(escaped(QObject::tr("Each point is a level combination of the table below: the regions its "
                                     "evaluation releases against the detail it gives up. The frontier is "
                                     "over regions, loss, withheld records and non-uniform entropy "
                                     "together.")));
    html += QStringLiteral(
        "<div class=\"scroll\"><table class=\"generalization\">\n<tr><th rowspan=\"2\">#</th>");
    for (const std::size_t j : generalized)
        html += QStringLiteral("<th rowspan=\"2\">%1</th>")
                    .arg(escaped(QString::fromStdString((*hierarchies)[j]->hierarchy.quasiIdentifier())));
    html +=
        QStringLiteral("<th colspan=\"7\">%1</th><th rowspan=\"2\">%2</th><th rowspan=\"2\">%3</th></tr>\n")
            .arg(escaped(QObject::tr("evaluated (without refinement)")), escaped(QObject::tr("frontier")),
                 escaped(QObject::tr("released (with refinement)")));
    html += QStringLiteral("<tr>");
    for (const QString& name :
         {QObject::tr("sites"), QObject::tr("regions"), QObject::tr("withheld"), QObject::tr("withheld %"),
          QObject::tr("attribute loss"), QObject::tr("non-uniform entropy"), QObject::tr("within budget")})
        html += QStringLiteral("<th>%1</th>").arg(escaped(name));
    html += QStringLiteral("</tr>\n");
    for (std::size_t e = 0; e < report.evaluated.size(); ++e)
    {
        const vbas::NodeEvaluation& node = report.evaluated[e];
        QVariantList cells{int(e)};
        for (const std::size_t j : generalized)
            cells << QString::fromStdString((*hierarchies)[j]->describeLevel(node.levels[j]));
        cells << qlonglong(node.sites) << qlonglong(node.aggregates) << qlonglong(node.withheld)
              << percent(double(node.withheld), double(std::max<vbas::Count>(node.records, 1)))
              << VbasHtml::rounded(node.loss) << VbasHtml::rounded(node.nue)
              << (node.withinBudget ? QObject::tr("yes") : QObject::tr("no"))
              << (node.frontier ? QObject::tr("yes") : QString())
              << (e == report.chosen ? QObject::tr("%1 regions, %2 withheld (%3)")
                                           .arg(count(qint64(result.aggregation.size())), count(withheld),
                                                percent(double(withheld), double(records)))
                                     : QString());
        html += row(cells, e == report.chosen ? QStringLiteral("chosen") : QString());
    }
    return html + QStringLiteral("</table></div>\n");
}

QString map(const VbasReportMap& map)
{
    if (map.png.isEmpty())
        return QString();
    return QStringLiteral("<h2 id=\"map\">%1</h2>\n<figure><img class=\"map\" alt=\"%2\" "
                          "src=\"data:image/png;base64,%3\">"
                          "<figcaption>%4</figcaption></figure>\n")
        .arg(QObject::tr("Map"), escaped(QObject::tr("map of the release")),
             QString::fromLatin1(map.png.toBase64()), escaped(map.caption));
}

/** A per-aggregate figure shown as a distribution: its field, whether it is whole, and what it means. */
struct Distribution
{
    const char* field;
    bool integers;
    const char* axis;
    const char* meaning;
};
constexpr Distribution kDistributions[] = {
    {"released", true, QT_TR_NOOP("records released"),
     QT_TR_NOOP("Records released per region: how the records spread over the regions.")},
    {"anonymity_after", true, QT_TR_NOOP("anonymity after suppression (k)"),
     QT_TR_NOOP("Smallest released group of look-alike records per region (at least k; 0 where nothing is "
                "released). Far above k: protection paid for with geographic detail.")},
    {"mean_distance_m", false, QT_TR_NOOP("mean distance to the site (m)"),
     QT_TR_NOOP("Mean distance from a region's small areas to its site: how far a record may really be from "
                "where the release puts it.")},
    {"compactness", false, QT_TR_NOOP("compactness (Polsby-Popper)"),
     QT_TR_NOOP("4πA/P² of each region: 1 for a disc, near 0 for long or ragged shapes.")}};

QString distributions(const QgsFields& fields, const QList<QgsAttributes>& aggregates)
{
    QString html =
        QStringLiteral("<h2 id=\"distributions\">%1</h2>\n<p>%2</p>\n<div class=\"charts\">\n")
            .arg(QObject::tr("Per-region distributions"),
                 QObject::tr("Each chart counts the aggregated regions by one of their figures; the box "
                             "above the bars spans the middle half of the regions, the line in it "
                             "is the median, the whiskers reach the smallest and largest."));
    for (const Distribution& distribution : kDistributions)
    {
        const int index = fields.indexOf(QLatin1String(distribution.field));
        QVector<double> values;
        for (const QgsAttributes& attributes : aggregates)
            values << attributes.at(index).toDouble();
        html += QStringLiteral("<figure>") +
                VbasCharts::histogram(QLatin1String(distribution.field), values, distribution.integers,
                                      QObject::tr(distribution.axis)) +
                QStringLiteral("<figcaption>%1</figcaption></figure>\n")
                    .arg(escaped(QObject::tr(distribution.meaning)));
    }
    return html + QStringLiteral("</div>\n");
}

/**
 * A column of the regions table: the review layer's field, the heading of the columns it is grouped under
 * (none: a column of its own), its heading, and how its values read.
 */
struct RegionColumn
{
    const char* field;
    const char* group;
    const char* heading;
    enum
    {
        Whole, //!< counts, and distances in whole metres
        SquareKilometres,
        Rounded
    } format;
};
/** The columns after the region, its records and the records withheld in it (recounted). */
constexpr const char* kWithheldGroup = QT_TR_NOOP("withheld");
constexpr const char* kSmallestGroup = QT_TR_NOOP("smallest group");
constexpr RegionColumn kRegionColumns[] = {
    {"suppressed_global", kWithheldGroup, QT_TR_NOOP("rare overall"), RegionColumn::Whole},
    {"suppressed_local", kWithheldGroup, QT_TR_NOOP("too few in the region"), RegionColumn::Whole},
    {"suppressed_diversity", kWithheldGroup, QT_TR_NOOP("l-diversity"), RegionColumn::Whole},
    {"suppressed_difference", kWithheldGroup, QT_TR_NOOP("earlier releases"), RegionColumn::Whole},
    {"anonymity_before", kSmallestGroup, QT_TR_NOOP("before"), RegionColumn::Whole},
    {"anonymity_after", kSmallestGroup, QT_TR_NOOP("released"), RegionColumn::Whole},
    {"classes", nullptr, QT_TR_NOOP("groups released"), RegionColumn::Whole},
    {"regions", nullptr, QT_TR_NOOP("small areas"), RegionColumn::Whole},
    {"mean_distance_m", nullptr, QT_TR_NOOP("mean distance to the site (m)"), RegionColumn::Whole},
    {"area_m2", nullptr, QT_TR_NOOP("area (km²)"), RegionColumn::SquareKilometres},
    {"parts", nullptr, QT_TR_NOOP("parts"), RegionColumn::Whole},
    {"compactness", nullptr, QT_TR_NOOP("compactness"), RegionColumn::Rounded}};

/** The two heading rows of the regions table: groups over their columns, a lone column over both rows. */
QString regionHeadings(const QVector<const RegionColumn*>& columns)
{
    const auto th = [](const QString& text, const char* span, int count)
    {
        return QStringLiteral("<th %1=\"%2\">%3</th>").arg(QLatin1String(span)).arg(count).arg(escaped(text));
    };
    // The withheld group opens with the recounted total and share.
    QString top = th(QObject::tr("region"), "rowspan", 2) + th(QObject::tr("records"), "rowspan", 2);
    QString below = QStringLiteral("<th>%1</th><th>%2</th>").arg(QObject::tr("all"), QObject::tr("share"));
    int withheldColumns = 2;
    bool withheldOpen = true; // its heading spans the columns counted so far
    for (int c = 0; c < columns.size(); ++c)
    {
        const RegionColumn& column = *columns[c];
        if (column.group == kWithheldGroup)
        {
            ++withheldColumns;
            below += QStringLiteral("<th>%1</th>").arg(escaped(QObject::tr(column.heading)));
            continue;
        }
        if (withheldOpen)
        {
            top += th(QObject::tr(kWithheldGroup), "colspan", withheldColumns);
            withheldOpen = false;
        }
        if (column.group == nullptr)
        {
            top += th(QObject::tr(column.heading), "rowspan", 2);
            continue;
        }
        below += QStringLiteral("<th>%1</th>").arg(escaped(QObject::tr(column.heading)));
        if (c == 0 || columns[c - 1]->group != column.group)
        {
            int span = 0;
            while (c + span < columns.size() && columns[c + span]->group == column.group)
                ++span;
            top += th(QObject::tr(column.group), "colspan", span);
        }
    }
    return QStringLiteral("<tr>%1</tr>\n<tr>%2</tr>\n").arg(top, below);
}

/**
 * Every region with its figures (the review layer's, rounded; site coordinates left out) and the records
 * withheld in it as recounted from the fates. Withheld columns that are 0 everywhere are left out.
 */
QString regionTable(const QgsFields& fields, const QList<QgsAttributes>& aggregates,
                    const VbasWithheld& withheld)
{
    QVector<const RegionColumn*> columns;
    for (const RegionColumn& column : kRegionColumns)
    {
        const int index = fields.indexOf(QLatin1String(column.field));
        const bool anywhere =
            std::any_of(aggregates.begin(), aggregates.end(),
                        [&](const QgsAttributes& a) { return a.at(index).toLongLong() != 0; });
        if (column.group != kWithheldGroup || anywhere)
            columns << &column;
    }
    QString html =
        QStringLiteral(
            "<h2 id=\"regions\">%1</h2>\n<p>%2</p>\n<div class=\"scroll\"><table class=\"regions\">\n")
            .arg(QObject::tr("Every region"),
                 escaped(QObject::tr("The figures of the review layer (OUTPUT_REVIEW), rounded; "
                                     "withheld records recounted from every record's fate."))) +
        regionHeadings(columns);
    const int id = fields.indexOf(QLatin1String("aggregate_id"));
    for (int a = 0; a < aggregates.size(); ++a)
    {
        const QgsAttributes& attributes = aggregates[a];
        const VbasWithheld::Share& share = withheld.regions.at(a);
        QString cells =
            QStringLiteral("<td>%1</td><td class=\"n\">%2</td><td class=\"n\">%3</td>"
                           "<td class=\"n\">%4</td>")
                .arg(escaped(vbasKeyText(attributes.at(id))), count(share.records), count(share.withheld),
                     escaped(percent(double(share.withheld), double(share.records))));
        for (const RegionColumn* column : columns)
        {
            const double value = attributes.at(fields.indexOf(QLatin1String(column->field))).toDouble();
            const QString text = column->format == RegionColumn::Whole ? count(std::llround(value))
                                 : column->format == RegionColumn::SquareKilometres
                                     ? VbasHtml::rounded(value / 1e6)
                                     : VbasHtml::rounded(value);
            cells += QStringLiteral("<td class=\"n\">%1</td>").arg(escaped(text));
        }
        html += QStringLiteral("<tr data-region=\"%1\" data-records=\"%2\" data-withheld=\"%3\">%4</tr>\n")
                    .arg(escaped(share.label))
                    .arg(share.records)
                    .arg(share.withheld)
                    .arg(cells);
    }
    return html + QStringLiteral("</table></div>\n");
}
} // namespace

void vbasWriteReleaseReport(const QString& path, const QString& outputName, const QString& title,
                            const VbasHtml::Parameters& parameters, const VbasJob& job,
                            const VbasRelease& release, const VbasOutputs::RecordLayout& layout,
                            const VbasWithheld& withheld, const VbasReportMap& map, const QStringList& ledger)
{
    using VbasOutputs::Audience;
    const VbasPlanarFrame& frame = *job.frame;
    const QgsFields fields = VbasOutputs::aggregateFields(release, Audience::Review);
    QList<QgsAttributes> aggregates;
    for (std::size_t a = 0; a < release.result.aggregation.size(); ++a)
        aggregates << VbasOutputs::aggregateAttributes(release, a, frame, Audience::Review);

    const QString html =
        VbasHtml::begin(title, summary(job, release, layout, withheld) + ledgerSection(ledger)) + ::map(map) +
        counts(release, *job.data.dataset) + metrics(release) + siteCountSearch(release) +
        refinements(release) + generalization(release, layout) + distributions(fields, aggregates) +
        QStringLiteral("<h2 id=\"parameters\">%1</h2>\n").arg(QObject::tr("Parameters")) +
        VbasHtml::parameterTable(parameters) + reproduction() +
        QStringLiteral("<p>%1</p>\n").arg(escaped(frame.description())) +
        regionTable(fields, aggregates, withheld);
    VbasHtml::write(path, outputName, html + VbasHtml::end());
}

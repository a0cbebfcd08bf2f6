#include "vbasreport.h"

#include "Registry.h"
#include "vbascharts.h"

using VbasHtml::header;
using VbasHtml::row;

namespace
{
QString counts(const VbasRelease& release, const vbas::Dataset& dataset)
{
    const vbas::Release& counts = release.result.release;
    const vbas::Aggregation& aggregation = release.result.aggregation;
    QString html = QStringLiteral("<table>\n") + header({QObject::tr("records"), QObject::tr("count")});
    html += row({QObject::tr("required anonymity k"), qlonglong(release.result.k)});
    html += row({QObject::tr("in the input"), qlonglong(dataset.totalRecords() + dataset.droppedRecords())});
    html += row({QObject::tr("released"), qlonglong(counts.released)});
    html += row(
        {QObject::tr("suppressed globally (rare in the whole table)"), qlonglong(counts.globallySuppressed)});
    html += row(
        {QObject::tr("suppressed locally (too few in their region)"), qlonglong(counts.locallySuppressed)});
    html += row({QObject::tr("withheld for l-diversity (too few sensitive values in their group)"),
                 qlonglong(counts.diversitySuppressed)});
    html +=
        row({QObject::tr("withheld against earlier releases (their group's count 1 to k - 1 away from one "
                         "an earlier release of these records published)"),
             qlonglong(counts.differenceSuppressed)});
    html += row({QObject::tr("dropped (unknown small area)"), qlonglong(dataset.droppedRecords())});
    html += row({QObject::tr("small areas"), qlonglong(dataset.regionCount())});
    html += row({QObject::tr("aggregated regions"), qlonglong(aggregation.size())});
    html += row({QObject::tr("sites that received no small area"), qlonglong(aggregation.emptySites)});
    return html + QStringLiteral("</table>\n");
}

QString metrics(const VbasRelease& release)
{
    QString html = QStringLiteral("<table>\n") +
                   header({QObject::tr("metric"), QObject::tr("value"), QObject::tr("what it means")});
    for (const vbas::MetricEntry& entry : vbas::Registry::builtIn().metrics)
        html += row({QString::fromStdString(entry.name), release.result.metric(entry.id),
                     QString::fromStdString(entry.meaning)});
    return html + QStringLiteral("</table>\n<p>") +
           QObject::tr(
               "Lower is better for the deviation, distance, suppression, precision loss, discernibility "
               "and entropy; distances are in metres.") +
           QStringLiteral("</p>\n");
}

QString refinement(const VbasRelease& release)
{
    if (!release.result.refinement)
        return QString();
    const vbas::RefinementReport& report = *release.result.refinement;
    return QStringLiteral("<h2>%1</h2>\n<p>%2</p>\n")
        .arg(QObject::tr("Site refinement"),
             // No time: the same input gives the same report (the log has the time).
             QObject::tr("%1 of %2 moves kept; global anonymity before suppression %3 → %4; stopped: %5.")
                 .arg(report.movesAccepted)
                 .arg(report.movesTried)
                 .arg(report.anonymityBefore)
                 .arg(report.anonymityAfter)
                 .arg(QString::fromStdString(report.stopReason).toHtmlEscaped()));
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
QString generalization(const VbasRelease& release, const vbas::Hierarchies* hierarchies)
{
    if (!release.generalization || hierarchies == nullptr)
        return QString();
    const vbas::GeneralizationReport& report = *release.generalization;
    if (report.evaluated.empty()) // levels given, not searched: those of an earlier release
        return QStringLiteral("<h2>%1</h2>\n<p>%2</p>\n")
            .arg(
                QObject::tr("Generalization"),
                QObject::tr("Released at %1, the levels of the earlier release whose aggregation it follows. "
                            "Attribute loss: %2 (0: as they are, 1: all '*').")
                    .arg(VbasOutputs::generalizationLevels(*hierarchies, report.levels))
                    .arg(report.releasedLoss, 0, 'f', 4)
                    .toHtmlEscaped());
    QStringList names;
    std::vector<std::size_t> generalized;
    for (std::size_t j = 0; j < hierarchies->size(); ++j)
        if ((*hierarchies)[j])
        {
            generalized.push_back(j);
            names << QString::fromStdString((*hierarchies)[j]->hierarchy.quasiIdentifier());
        }
    const auto levelName = [&](std::size_t j, std::size_t level)
    {
        return QString::fromStdString((*hierarchies)[j]->hierarchy.levelName(level));
    };
    QString html =
        QStringLiteral("<h2>%1</h2>\n<p>%2</p>\n<p class=\"warning\">%3</p>\n")
            .arg(QObject::tr("Generalization"),
                 QObject::tr("Released at %1 (level 0: values as they are; '*': all one value). %2 of %3 "
                             "level combinations evaluated, %4 ruled out because a coarser one missed; each "
                             "evaluated without site refinement, held to a suppression budget of %5 %. "
                             "Attribute loss of the release: %6 (0: as they are, 1: all '*').")
                     .arg(VbasOutputs::generalizationLevels(*hierarchies, report.levels))
                     .arg(report.evaluated.size())
                     .arg(report.latticeNodes)
                     .arg(report.prunedNodes)
                     .arg(report.budgetPercent)
                     .arg(report.releasedLoss, 0, 'f', 4)
                     .toHtmlEscaped(),
                 QObject::tr("Only the chosen combination is released: two releases of the same records at "
                             "other levels or regions could be overlaid to single people out.")
                     .toHtmlEscaped());
    html += attributeNotes(report, *hierarchies);
    QVector<VbasCharts::Point> points;
    for (std::size_t e = 0; e < report.evaluated.size(); ++e)
        points.push_back({report.evaluated[e].loss, double(report.evaluated[e].aggregates), int(e),
                          report.evaluated[e].frontier});
    html += QStringLiteral("<figure>") +
            VbasCharts::scatter(QStringLiteral("loss"), QObject::tr("attribute loss"),
                                QStringLiteral("regions"), QObject::tr("regions released"), points,
                                QObject::tr("frontier (not dominated)"), QObject::tr("dominated")) +
            QStringLiteral("<figcaption>%1</figcaption></figure>\n")
                .arg(QObject::tr("Each point is a level combination of the table below: the regions it "
                                 "releases against the detail it gives up. The frontier is over regions, "
                                 "loss, withheld records and non-uniform entropy together.")
                         .toHtmlEscaped());
    html += QStringLiteral("<div class=\"scroll\"><table class=\"generalization\">\n") +
            header(QStringList{QStringLiteral("#")} + names +
                   QStringList{QObject::tr("sites"), QObject::tr("regions"), QObject::tr("withheld"),
                               QObject::tr("withheld %"), QObject::tr("attribute loss"),
                               QObject::tr("non-uniform entropy"), QObject::tr("within budget"),
                               QObject::tr("frontier"), QObject::tr("released")});
    for (std::size_t e = 0; e < report.evaluated.size(); ++e)
    {
        const vbas::NodeEvaluation& node = report.evaluated[e];
        QVariantList cells{int(e)};
        for (const std::size_t j : generalized)
            cells << levelName(j, node.levels[j]);
        cells << qlonglong(node.sites) << qlonglong(node.aggregates) << qlonglong(node.withheld)
              << 100.0 * double(node.withheld) / double(std::max<vbas::Count>(node.records, 1)) << node.loss
              << node.nue << (node.withinBudget ? QObject::tr("yes") : QObject::tr("no"))
              << (node.frontier ? QObject::tr("yes") : QString())
              << (e == report.chosen ? QObject::tr("released") : QString());
        html += row(cells, e == report.chosen ? QStringLiteral("chosen") : QString());
    }
    return html + QStringLiteral("</table></div>\n");
}

QString map(const VbasReportMap& map)
{
    if (map.png.isEmpty())
        return QString();
    return QStringLiteral(
               "<h2>%1</h2>\n<figure><img class=\"map\" alt=\"%2\" src=\"data:image/png;base64,%3\">"
               "<figcaption>%4</figcaption></figure>\n")
        .arg(QObject::tr("Map"), QObject::tr("map of the release").toHtmlEscaped(),
             QString::fromLatin1(map.png.toBase64()), map.caption.toHtmlEscaped());
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
        QStringLiteral("<h2>%1</h2>\n<p>%2</p>\n<div class=\"charts\">\n")
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
                    .arg(QObject::tr(distribution.meaning).toHtmlEscaped());
    }
    return html + QStringLiteral("</div>\n");
}
} // namespace

void vbasWriteReleaseReport(const QString& path, const QString& outputName, const QString& title,
                            const VbasHtml::Parameters& parameters, const VbasRelease& release,
                            const vbas::Dataset& dataset, const VbasPlanarFrame& frame,
                            const VbasReportMap& map, const QStringList& ledger,
                            const vbas::Hierarchies* hierarchies)
{
    using VbasOutputs::Audience;
    const QgsFields fields = VbasOutputs::aggregateFields(release, Audience::Review);
    QList<QgsAttributes> aggregates;
    for (std::size_t a = 0; a < release.result.aggregation.size(); ++a)
        aggregates << VbasOutputs::aggregateAttributes(release, a, frame, Audience::Review);

    QString html =
        VbasHtml::begin(title,
                        QStringLiteral("<h2>%1</h2>\n<ul>\n<li>%2</li>\n</ul>\n")
                            .arg(QObject::tr("Release ledger"), ledger.join(QStringLiteral("</li>\n<li>")))) +
        ::map(map) + QStringLiteral("<h2>%1</h2>\n").arg(QObject::tr("Records")) + counts(release, dataset) +
        QStringLiteral("<h2>%1</h2>\n").arg(QObject::tr("Quality")) + metrics(release) + refinement(release) +
        generalization(release, hierarchies) + distributions(fields, aggregates) +
        QStringLiteral("<h2>%1</h2>\n").arg(QObject::tr("Parameters")) +
        VbasHtml::parameterTable(parameters) +
        QStringLiteral("<p>%1</p>\n<h2>%2</h2>\n<div class=\"scroll\"><table>\n")
            .arg(frame.description().toHtmlEscaped(), QObject::tr("Aggregated regions")) +
        header(fields.names());
    for (const QgsAttributes& attributes : aggregates)
        html += row(attributes.toList());
    VbasHtml::write(path, outputName, html + QStringLiteral("</table></div>\n") + VbasHtml::end());
}

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
                            const VbasReportMap& map)
{
    using VbasOutputs::Audience;
    const QgsFields fields = VbasOutputs::aggregateFields(release, Audience::Review);
    QList<QgsAttributes> aggregates;
    for (std::size_t a = 0; a < release.result.aggregation.size(); ++a)
        aggregates << VbasOutputs::aggregateAttributes(release, a, frame, Audience::Review);

    QString html = VbasHtml::begin(title) + ::map(map) +
                   QStringLiteral("<h2>%1</h2>\n").arg(QObject::tr("Records")) + counts(release, dataset) +
                   QStringLiteral("<h2>%1</h2>\n").arg(QObject::tr("Quality")) + metrics(release) +
                   refinement(release) + distributions(fields, aggregates) +
                   QStringLiteral("<h2>%1</h2>\n").arg(QObject::tr("Parameters")) +
                   VbasHtml::parameterTable(parameters) +
                   QStringLiteral("<p>%1</p>\n<h2>%2</h2>\n<div class=\"scroll\"><table>\n")
                       .arg(frame.description().toHtmlEscaped(), QObject::tr("Aggregated regions")) +
                   header(fields.names());
    for (const QgsAttributes& attributes : aggregates)
        html += row(attributes.toList());
    VbasHtml::write(path, outputName, html + QStringLiteral("</table></div>\n") + VbasHtml::end());
}

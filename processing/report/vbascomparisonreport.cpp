#include "vbascomparisonreport.h"

#include "Registry.h"
#include "vbascharts.h"
#include "vbasoutputs.h"

namespace
{
const QString kParetoField = QStringLiteral("pareto_optimal");

/** Returns the registered metric shown in comparison column `field`. */
const vbas::MetricEntry* metricOfColumn(const QString& field)
{
    for (const vbas::MetricEntry& entry : vbas::Registry::builtIn().metrics)
        if (VbasOutputs::metricOutputName(entry.id).toLower() == field)
            return &entry;
    return nullptr;
}

/** Returns "Average distance (average_distance)" for a metric column. */
QString axisLabel(const QString& field)
{
    const vbas::MetricEntry* metric = metricOfColumn(field);
    return metric ? QStringLiteral("%1 (%2)").arg(QString::fromStdString(metric->name), field) : field;
}

QString metrics()
{
    QString html = QStringLiteral("<table>\n") +
                   VbasHtml::header({QObject::tr("metric"), QObject::tr("column"),
                                     QObject::tr("Pareto objective"), QObject::tr("what it means")});
    for (const vbas::MetricEntry& entry : vbas::Registry::builtIn().metrics)
        html += VbasHtml::row({QString::fromStdString(entry.name),
                               VbasOutputs::metricOutputName(entry.id).toLower(),
                               entry.paretoObjective ? QObject::tr("yes") : QObject::tr("no"),
                               QString::fromStdString(entry.meaning)});
    html +=
        VbasHtml::row({QObject::tr("Attribute loss"), QStringLiteral("attribute_loss"), QObject::tr("yes"),
                       QObject::tr("Detail the generalized quasi-identifiers gave up: the mean over released "
                                   "records and quasi-identifiers of the share of the range their group "
                                   "spans (0: as they are, 1: all '*'). 0 without GENERALIZATION.")});
    return html + QStringLiteral("</table>\n");
}
} // namespace

QStringList vbasParetoChartFields()
{
    QStringList fields;
    for (const vbas::MetricEntry& entry : vbas::Registry::builtIn().metrics)
        if (entry.paretoObjective)
            fields << VbasOutputs::metricOutputName(entry.id).toLower();
    return fields << QStringLiteral("attribute_loss");
}

void vbasWriteComparisonReport(const QString& path, const QString& outputName, const QString& title,
                               const VbasHtml::Parameters& parameters, const QgsFields& fields,
                               const QList<QgsAttributes>& rows, const QString& xField, const QString& yField)
{
    const int x = fields.indexOf(xField), y = fields.indexOf(yField), pareto = fields.indexOf(kParetoField);
    QVector<VbasCharts::Point> points;
    int optimal = 0;
    for (int r = 0; r < rows.size(); ++r)
    {
        const bool isOptimal = rows[r].at(pareto).toBool();
        points << VbasCharts::Point{rows[r].at(x).toDouble(), rows[r].at(y).toDouble(), r + 1, isOptimal};
        optimal += isOptimal ? 1 : 0;
    }

    QString html = VbasHtml::begin(
        title,
        QStringLiteral("<p class=\"warning\"><strong>%1</strong> %2</p>\n")
            .arg(QObject::tr("Release only one of these aggregations.").toHtmlEscaped(),
                 QObject::tr("Two aggregations of the same records can be overlaid to single people out; "
                             "a release ledger (RELEASE_LEDGER) refuses the second.")
                     .toHtmlEscaped()));
    html +=
        QStringLiteral("<p>%1</p>\n")
            .arg(QObject::tr(
                     "%1 solutions compared; %2 are Pareto-optimal: no other solution is at least as good "
                     "on every objective and better on one (lower is better). Choose one approach, run "
                     "the main job with it, and release that aggregation alone.")
                     .arg(rows.size())
                     .arg(optimal)
                     .toHtmlEscaped());
    html += QStringLiteral("<h2>%1</h2>\n<figure>").arg(QObject::tr("Pareto front")) +
            VbasCharts::scatter(xField, axisLabel(xField), yField, axisLabel(yField), points,
                                QObject::tr("Pareto-optimal"), QObject::tr("dominated")) +
            QStringLiteral("<figcaption>%1</figcaption></figure>\n")
                .arg(QObject::tr(
                         "Each point is a row of the table below (its number shows on hover). Optimality "
                         "is over all the objectives, so an optimal point may look dominated in these two "
                         "alone.")
                         .toHtmlEscaped());
    html += QStringLiteral("<h2>%1</h2>\n").arg(QObject::tr("Solutions")) +
            QStringLiteral("<div class=\"scroll\"><table class=\"solutions\">\n") +
            VbasHtml::header(QStringList{QStringLiteral("#")} + fields.names());
    // Metric columns as their units read (records in full, metres whole); other numbers rounded by the cell.
    QVector<const vbas::MetricEntry*> metricOf;
    for (const QgsField& field : fields)
        metricOf << metricOfColumn(field.name());
    for (int r = 0; r < rows.size(); ++r)
    {
        QVariantList cells{r + 1};
        for (int c = 0; c < fields.size(); ++c)
            cells << (metricOf[c] && !rows[r].at(c).isNull()
                          ? QVariant(VbasHtml::metric(rows[r].at(c).toDouble(), metricOf[c]->unit))
                          : rows[r].at(c));
        html += VbasHtml::row(cells, rows[r].at(pareto).toBool() ? QStringLiteral("pareto") : QString());
    }
    html += QStringLiteral("</table></div>\n<h2>%1</h2>\n").arg(QObject::tr("Metrics")) + metrics() +
            QStringLiteral("<h2>%1</h2>\n").arg(QObject::tr("Parameters")) +
            VbasHtml::parameterTable(parameters);
    VbasHtml::write(path, outputName, html + VbasHtml::end());
}

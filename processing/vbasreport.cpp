#include "vbasreport.h"

#include "Registry.h"

#include <qgsexception.h>
#include <qgsprocessingalgorithm.h>
#include <qgsprocessingparameters.h>

#include <QFile>
#include <QTextStream>

#include <cmath>

namespace
{
const char* const kStyle = "body{font-family:sans-serif;margin:2em}"
                           "table{border-collapse:collapse;margin:1em 0}"
                           "td,th{border:1px solid #bbb;padding:2px 8px;text-align:left}"
                           ".warning{background:#fff3cd;border:1px solid #e0b000;padding:1em}";

QString cell(const QVariant& value)
{
    if (value.isNull())
        return QStringLiteral("<td></td>");
    // Whole numbers in full (discernibility runs into millions); others to 10 digits, enough for
    // site coordinates in degrees.
    const double number = value.toDouble();
    const QString text = value.type() != QVariant::Double ? value.toString()
                         : number == std::floor(number)   ? QString::number(number, 'f', 0)
                                                          : QString::number(number, 'g', 10);
    return QStringLiteral("<td>%1</td>").arg(text.toHtmlEscaped());
}

QString row(const QVariantList& values)
{
    QString html = QStringLiteral("<tr>");
    for (const QVariant& value : values)
        html += cell(value);
    return html + QStringLiteral("</tr>\n");
}

QString header(const QStringList& names)
{
    QString html = QStringLiteral("<tr>");
    for (const QString& name : names)
        html += QStringLiteral("<th>%1</th>").arg(name.toHtmlEscaped());
    return html + QStringLiteral("</tr>\n");
}

QString counts(const VbasRelease& release, const vbas::Dataset& dataset)
{
    const vbas::Release& counts = release.result.release;
    const vbas::Aggregation& aggregation = release.result.aggregation;
    QString html = QStringLiteral("<table>\n") + header({QObject::tr("records"), QObject::tr("count")});
    html += row({QObject::tr("in the input"), qlonglong(dataset.totalRecords() + dataset.droppedRecords())});
    html += row({QObject::tr("released"), qlonglong(counts.released)});
    html += row(
        {QObject::tr("suppressed globally (rare in the whole table)"), qlonglong(counts.globallySuppressed)});
    html += row(
        {QObject::tr("suppressed locally (too few in their region)"), qlonglong(counts.locallySuppressed)});
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
        .arg(QObject::tr("Site refinement (ADC)"),
             QObject::tr(
                 "%1 of %2 moves kept in %3 s; global anonymity before suppression %4 → %5; stopped: %6.")
                 .arg(report.movesAccepted)
                 .arg(report.movesTried)
                 .arg(report.seconds, 0, 'f', 2)
                 .arg(report.anonymityBefore)
                 .arg(report.anonymityAfter)
                 .arg(QString::fromStdString(report.stopReason).toHtmlEscaped()));
}
} // namespace

VbasReportParameters vbasReportParameters(const QgsProcessingAlgorithm& algorithm,
                                          const QVariantMap& parameters, QgsProcessingContext& context)
{
    VbasReportParameters listed;
    for (const QgsProcessingParameterDefinition* definition : algorithm.parameterDefinitions())
    {
        if (definition->isDestination())
            continue;
        // Python notation is exact about lists and layers; quotes around a single value and None
        // only get in a reader's way.
        QString value = definition->valueAsPythonString(
            parameters.value(definition->name(), definition->defaultValue()), context);
        if (value == QLatin1String("None"))
            value.clear();
        else if (value.size() >= 2 && value.startsWith('\'') && value.endsWith('\'') && !value.contains(','))
            value = value.mid(1, value.size() - 2);
        listed.append({definition->description(), value});
    }
    return listed;
}

void vbasWriteReleaseReport(const QString& path, const QString& outputName, const QString& title,
                            const VbasReportParameters& parameters, const VbasRelease& release,
                            const vbas::Dataset& dataset, const VbasPlanarFrame& frame)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        throw QgsProcessingException(
            QObject::tr("%1: cannot write the report to %2: %3").arg(outputName, path, file.errorString()));
    QTextStream html(&file);
    html.setCodec("UTF-8");
    html << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << title.toHtmlEscaped()
         << "</title>\n<style>" << kStyle << "</style></head><body>\n<h1>" << title.toHtmlEscaped()
         << "</h1>\n<p class=\"warning\"><strong>"
         << QObject::tr("Release only one aggregation of these records, ever.").toHtmlEscaped()
         << "</strong> "
         << QObject::tr("Two different aggregations of the same records can be overlaid: their intersections "
                        "are smaller areas than either, and the groups in them can fall below k.")
                .toHtmlEscaped()
         << "</p>\n<h2>" << QObject::tr("Records") << "</h2>\n"
         << counts(release, dataset) << "<h2>" << QObject::tr("Quality") << "</h2>\n"
         << metrics(release) << refinement(release) << "<h2>" << QObject::tr("Parameters")
         << "</h2>\n<table>\n"
         << header({QObject::tr("parameter"), QObject::tr("value")});
    for (const auto& parameter : parameters)
        html << row({parameter.first, parameter.second});
    html << "</table>\n<p>" << frame.description().toHtmlEscaped() << "</p>\n<h2>"
         << QObject::tr("Aggregated regions") << "</h2>\n<table>\n"
         << header(VbasOutputs::aggregateFields(release).names());
    for (std::size_t a = 0; a < release.result.aggregation.size(); ++a)
        html << row(VbasOutputs::aggregateAttributes(release, a, dataset, frame).toList());
    html << "</table>\n</body></html>\n";
    html.flush();
    if (html.status() != QTextStream::Ok || !file.flush())
        throw QgsProcessingException(
            QObject::tr("%1: writing the report to %2 failed").arg(outputName, path));
}

#include "vbashtml.h"

#include "vbasdisk.h"
#include "vbasqgiscompat.h"

#include <qgsexception.h>
#include <qgsprocessingalgorithm.h>
#include <qgsprocessingparameters.h>

#include <QFile>
#include <QLocale>
#include <QTextStream>

#include <cmath>

namespace
{
// System fonts only: a report must render the same with no network.
// Tables fit the page: text wraps, numbers do not, and a table wider than the page scrolls in its own box
// (.scroll), never the page.
const char* const kStyle =
    "body{font-family:sans-serif;margin:2em;max-width:1400px;color:#222}"
    "p,ul{max-width:60em}"
    "table{border-collapse:collapse;margin:1em 0}"
    "td,th{border:1px solid #bbb;padding:2px 8px;text-align:left;vertical-align:top}"
    "td{overflow-wrap:break-word}table.parameters td{overflow-wrap:anywhere}"
    "th{background:#f2f2f2;font-weight:600}td.n{text-align:right;white-space:nowrap}"
    "caption{text-align:left;font-weight:600;padding:2px 0}"
    "tr.pareto td,tr.chosen td{background:#e3f0fb;font-weight:bold}"
    ".warning{background:#fff3cd;border:1px solid #e0b000;padding:1em}"
    ".charts,.tables{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}.tables table{margin:0}"
    ".sharebar{display:inline-block;width:5em;height:.8em;background:#eee}"
    ".sharebar span{display:block;height:100%;background:#d7301f}"
    "details{margin:1em 0}summary{cursor:pointer;color:#2b5d8c}"
    "figure{margin:0 0 1em 0}figcaption{font-size:90%;color:#444;max-width:60em}"
    ".charts figcaption{max-width:480px}.scroll{overflow-x:auto;max-width:100%}"
    "img.map{max-width:100%;height:auto;border:1px solid #bbb}"
    "svg text{font-family:sans-serif;font-size:12px;fill:#222}"
    "svg .bar{fill:#4a7fb5}svg .box{fill:#cfe0f1;stroke:#2b5d8c}svg .whisker,svg .median{stroke:#2b5d8c;"
    "stroke-width:2}svg .axis{stroke:#666}svg .grid{stroke:#ddd}"
    "svg .point,svg .key{fill:#fff;stroke:#888;stroke-width:1.5}svg .pareto{fill:#d7301f;stroke:#7f0000}";
} // namespace

VbasHtml::Parameters VbasHtml::parameters(const QgsProcessingAlgorithm& algorithm,
                                          const QVariantMap& parameters, QgsProcessingContext& context)
{
    Parameters listed;
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
        listed.append({definition->description(), definition->name(), value});
    }
    return listed;
}

namespace
{
/** One locale for every report, whatever the machine's: the same input gives the same report. */
QLocale grouping()
{
    return QLocale(QLocale::English, QLocale::UnitedStates);
}
} // namespace

QString VbasHtml::count(qint64 value)
{
    return grouping().toString(value);
}

QString VbasHtml::rounded(double value)
{
    if (!std::isfinite(value))
        return QString::number(value);
    if (std::abs(value) >= 1e6)
    {
        const bool billions = std::abs(value) >= 1e9;
        return QObject::tr("%1 %2").arg(QString::number(value / (billions ? 1e9 : 1e6), 'g', 3),
                                        billions ? QObject::tr("billion") : QObject::tr("million"));
    }
    // Three significant digits; from 1,000 on as a whole number with its thousands separated.
    const double three = QString::number(value, 'g', 3).toDouble();
    return std::abs(three) >= 1000.0 ? count(qint64(three)) : QString::number(three, 'g', 3);
}

QString VbasHtml::percent(double part, double whole)
{
    if (whole <= 0.0)
        return QString();
    const double share = 100.0 * part / whole;
    if (share == 0.0)
        return QObject::tr("0 %");
    if (share < 0.05)
        return QObject::tr("under 0.1 %");
    return QObject::tr("%1 %").arg(share, 0, 'f', 1);
}

QString VbasHtml::metres(double value)
{
    return QObject::tr("%1 m").arg(count(qint64(std::llround(value))));
}

QString VbasHtml::metric(double value, vbas::MetricUnit unit)
{
    switch (unit)
    {
    case vbas::MetricUnit::Records:
        return count(std::llround(value));
    case vbas::MetricUnit::Metres:
        return metres(value);
    case vbas::MetricUnit::Score:
        break;
    }
    return rounded(value);
}

QString VbasHtml::cell(const QVariant& value)
{
    if (value.isNull())
        return QStringLiteral("<td></td>");
    const int type = value.userType();
    const double number = value.toDouble();
    const bool whole = type == QMetaType::Int || type == QMetaType::LongLong || type == QMetaType::UInt ||
                       (type == QMetaType::Double && number == std::floor(number) && std::abs(number) < 1e15);
    if (whole || type == QMetaType::Double)
        return QStringLiteral("<td class=\"n\">%1</td>")
            .arg((whole ? count(value.toLongLong()) : rounded(number)).toHtmlEscaped());
    return QStringLiteral("<td>%1</td>").arg(value.toString().toHtmlEscaped());
}

QString VbasHtml::row(const QVariantList& values, const QString& rowClass)
{
    QString html =
        rowClass.isEmpty() ? QStringLiteral("<tr>") : QStringLiteral("<tr class=\"%1\">").arg(rowClass);
    for (const QVariant& value : values)
        html += cell(value);
    return html + QStringLiteral("</tr>\n");
}

QString VbasHtml::header(const QStringList& names)
{
    QString html = QStringLiteral("<tr>");
    for (const QString& name : names)
        html += QStringLiteral("<th>%1</th>").arg(name.toHtmlEscaped());
    return html + QStringLiteral("</tr>\n");
}

QString VbasHtml::parameterTable(const Parameters& parameters)
{
    QString html = QStringLiteral("<table class=\"parameters\">\n") +
                   header({QObject::tr("parameter"), QObject::tr("name"), QObject::tr("value")});
    for (const Parameter& parameter : parameters)
        html += row({parameter.label, parameter.name, parameter.value});
    return html + QStringLiteral("</table>\n");
}

QString VbasHtml::begin(const QString& title, const QString& opening)
{
    return QStringLiteral(
               "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%1</title>\n"
               "<style>%2</style></head><body>\n<h1>%1</h1>\n<p class=\"warning\"><strong>%4</strong> "
               "%5</p>\n%3")
        .arg(title.toHtmlEscaped(), QString::fromLatin1(kStyle), opening,
             QObject::tr("For the custodian's review only: never publish this report.").toHtmlEscaped(),
             QObject::tr(
                 "It counts withheld records per region, and a withheld count of 1 beside the released "
                 "rows tells that one person of the missing group is in the data.")
                 .toHtmlEscaped());
}

QString VbasHtml::end()
{
    return QStringLiteral("</body></html>\n");
}

void VbasHtml::write(const QString& path, const QString& outputName, const QString& html)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        throw QgsProcessingException(QObject::tr("%1: cannot write the report to %2: %3")
                                         .arg(outputName, path, VbasDisk::reason(file.errorString(), path)));
    QTextStream stream(&file);
    VbasCompat::useUtf8(stream);
    stream << html;
    stream.flush();
    if (stream.status() != QTextStream::Ok || !file.flush())
        throw QgsProcessingException(QObject::tr("%1: writing the report to %2 failed (%3)")
                                         .arg(outputName, path, VbasDisk::reason(file.errorString(), path)));
}

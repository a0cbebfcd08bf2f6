#include "vbashtml.h"

#include "vbasqgiscompat.h"

#include <qgsexception.h>
#include <qgsprocessingalgorithm.h>
#include <qgsprocessingparameters.h>

#include <QFile>
#include <QTextStream>

#include <cmath>

namespace
{
// System fonts only: a report must render the same with no network.
const char* const kStyle =
    "body{font-family:sans-serif;margin:2em;max-width:1400px;color:#222}"
    "table{border-collapse:collapse;margin:1em 0}"
    "td,th{border:1px solid #bbb;padding:2px 8px;text-align:left}"
    "tr.pareto td{background:#e3f0fb;font-weight:bold}"
    ".warning{background:#fff3cd;border:1px solid #e0b000;padding:1em}"
    ".charts{display:flex;flex-wrap:wrap;gap:1em}"
    "figure{margin:0 0 1em 0}figcaption{font-size:90%;color:#444;max-width:60em}"
    ".charts figcaption{max-width:480px}.scroll{overflow-x:auto}"
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
        listed.append({definition->description(), value});
    }
    return listed;
}

QString VbasHtml::cell(const QVariant& value)
{
    if (value.isNull())
        return QStringLiteral("<td></td>");
    // Whole numbers in full (discernibility runs into millions); others to 10 digits, enough for
    // site coordinates in degrees.
    const double number = value.toDouble();
    const QString text = value.userType() != QMetaType::Double ? value.toString()
                         : number == std::floor(number)        ? QString::number(number, 'f', 0)
                                                               : QString::number(number, 'g', 10);
    return QStringLiteral("<td>%1</td>").arg(text.toHtmlEscaped());
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
    QString html = QStringLiteral("<table>\n") + header({QObject::tr("parameter"), QObject::tr("value")});
    for (const auto& parameter : parameters)
        html += row({parameter.first, parameter.second});
    return html + QStringLiteral("</table>\n");
}

QString VbasHtml::begin(const QString& title, const QString& releaseNote)
{
    return QStringLiteral(
               "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%1</title>\n"
               "<style>%2</style></head><body>\n<h1>%1</h1>\n<p class=\"warning\"><strong>%4</strong> "
               "%5</p>\n%3")
        .arg(title.toHtmlEscaped(), QString::fromLatin1(kStyle), releaseNote,
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
        throw QgsProcessingException(
            QObject::tr("%1: cannot write the report to %2: %3").arg(outputName, path, file.errorString()));
    QTextStream stream(&file);
    VbasCompat::useUtf8(stream);
    stream << html;
    stream.flush();
    if (stream.status() != QTextStream::Ok || !file.flush())
        throw QgsProcessingException(
            QObject::tr("%1: writing the report to %2 failed").arg(outputName, path));
}

#include "vbashelppage.h"

#include "vbasqgiscompat.h"

#include <qgsprocessingalgorithm.h>
#include <qgsprocessingcontext.h>
#include <qgsprocessingoutputs.h>
#include <qgsprocessingparameters.h>
#include <qgsprocessingprovider.h>

#include <QDir>
#include <QFile>
#include <QUrl>

namespace
{
QString escaped(QString text)
{
    return text.toHtmlEscaped().replace(QLatin1Char('\n'), QLatin1String("<br>"));
}

QString defaultText(const QgsProcessingParameterDefinition& parameter)
{
    const QVariant value = parameter.defaultValue();
    if (!value.isValid() || value.isNull())
        return QString();
    if (value.userType() == QMetaType::QStringList || value.userType() == QMetaType::QVariantList)
        return value.toStringList().join(QStringLiteral(", "));
    return value.toString();
}
} // namespace

QString vbasHelpPage(const QgsProcessingAlgorithm& algorithm, const QString& version)
{
    QString html = QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%1</title>"
                                  "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;"
                                  "line-height:1.4}table{border-collapse:collapse}td,th{border:1px solid "
                                  "#ccc;padding:.3em .5em;vertical-align:top;text-align:left}code{"
                                  "white-space:nowrap}</style></head><body>\n")
                       .arg(algorithm.displayName().toHtmlEscaped());
    html += QStringLiteral("<h1>%1</h1>\n<p><code>%2</code> (VBAS %3)</p>\n<p>%4</p>\n")
                .arg(algorithm.displayName().toHtmlEscaped(), algorithm.id().toHtmlEscaped(),
                     version.toHtmlEscaped(), escaped(algorithm.shortHelpString()));
    html += QStringLiteral("<h2>%1</h2>\n<table><tr><th>%2</th><th>%3</th><th>%4</th><th>%5</th></tr>\n")
                .arg(QObject::tr("Parameters"), QObject::tr("Name"), QObject::tr("Label"),
                     QObject::tr("Default"), QObject::tr("Help"));
    for (const QgsProcessingParameterDefinition* parameter : algorithm.parameterDefinitions())
    {
        if (parameter->isDestination())
            continue;
        QString help = escaped(parameter->help());
        if (const auto* choice = dynamic_cast<const QgsProcessingParameterEnum*>(parameter))
            help +=
                (help.isEmpty() ? QString() : QStringLiteral("<br>")) +
                QObject::tr("Choices: %1").arg(choice->options().join(QStringLiteral(", ")).toHtmlEscaped());
        const bool optional = parameter->flags() & VbasCompat::ParameterFlagOptional;
        html += QStringLiteral("<tr><td><code>%1</code></td><td>%2%3</td><td>%4</td><td>%5</td></tr>\n")
                    .arg(parameter->name().toHtmlEscaped(), parameter->description().toHtmlEscaped(),
                         optional ? QObject::tr(" (optional)") : QString(),
                         defaultText(*parameter).toHtmlEscaped(), help);
    }
    html += QStringLiteral("</table>\n<h2>%1</h2>\n<table><tr><th>%2</th><th>%3</th></tr>\n")
                .arg(QObject::tr("Outputs"), QObject::tr("Name"), QObject::tr("Description"));
    for (const QgsProcessingParameterDefinition* parameter : algorithm.destinationParameterDefinitions())
        html += QStringLiteral("<tr><td><code>%1</code></td><td>%2</td></tr>\n")
                    .arg(parameter->name().toHtmlEscaped(), parameter->description().toHtmlEscaped());
    for (const QgsProcessingOutputDefinition* output : algorithm.outputDefinitions())
        if (!algorithm.parameterDefinition(output->name()))
            html += QStringLiteral("<tr><td><code>%1</code></td><td>%2</td></tr>\n")
                        .arg(output->name().toHtmlEscaped(), output->description().toHtmlEscaped());
    // Where the algorithm comes from, for whoever reads the page away from the Toolbox.
    html += QStringLiteral("</table>\n<h2>%1</h2>\n<p>%2</p>\n")
                .arg(QObject::tr("Where to find it"),
                     QObject::tr(
                         "In QGIS desktop, tick <i>%1</i> in <i>Plugins &gt; Manage and Install Plugins</i> "
                         "(one entry); the algorithms are then in the Processing Toolbox and the Model "
                         "Builder. For stock qgis_process, enable the same plugin once per QGIS profile: "
                         "<code>qgis_process plugins enable vbas_processing</code>. vbas_process needs "
                         "nothing enabled.")
                         .arg((algorithm.provider() ? algorithm.provider()->name() : QStringLiteral("VBAS"))
                                  .toHtmlEscaped()));
    return html + QStringLiteral("</body></html>\n");
}

QString vbasHelpUrl(const QgsProcessingAlgorithm& algorithm, const QString& version)
{
    const QString folder = QDir::temp().filePath(QStringLiteral("vbas-help-%1").arg(version));
    const QString path = QDir(folder).filePath(algorithm.name() + QStringLiteral(".html"));
    QFile file(path);
    if (!QDir().mkpath(folder) || !file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return QString();
    file.write(vbasHelpPage(algorithm, version).toUtf8());
    return QUrl::fromLocalFile(path).toString();
}

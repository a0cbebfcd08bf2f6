#include "vbasprovenance.h"

#include "LibraryVersions.h"
#include "vbasmetadata.h"

#include <qgis.h>
#include <qgsprocessingalgorithm.h>
#include <qgsprocessingparameters.h>

#include <gdal.h>
#include <proj.h>

QList<QPair<QString, QString>> VbasProvenance::versions()
{
    QList<QPair<QString, QString>> listed{
        {QStringLiteral("VBAS"), QStringLiteral(VBAS_METADATA_VERSION)},
        {QStringLiteral("QGIS"), Qgis::version()},
        {QStringLiteral("Qt"), QString::fromLatin1(qVersion())},
        {QStringLiteral("GDAL"), QString::fromLatin1(GDALVersionInfo("RELEASE_NAME"))},
        {QStringLiteral("PROJ"), QString::fromLatin1(proj_info().version)}};
    for (const auto& [library, version] : vbas::libraryVersions())
        listed.append({QString::fromStdString(library), QString::fromStdString(version)});
    return listed;
}

QJsonObject VbasProvenance::json(const QgsProcessingAlgorithm& algorithm, const QVariantMap& parameters,
                                 QgsProcessingContext& context)
{
    QJsonObject versionsJson;
    for (const auto& [library, version] : versions())
        versionsJson.insert(library, version);
    QJsonObject parametersJson;
    for (const QgsProcessingParameterDefinition* definition : algorithm.parameterDefinitions())
        if (!definition->isDestination())
            parametersJson.insert(
                definition->name(),
                definition->valueAsPythonString(
                    parameters.value(definition->name(), definition->defaultValue()), context));
    return {{QStringLiteral("algorithm"), algorithm.id()},
            {QStringLiteral("versions"), versionsJson},
            {QStringLiteral("parameters"), parametersJson}};
}

#include "vbasrecordstorage.h"

#include "vbasqgiscompat.h"

#include <qgsdatasourceuri.h>
#include <qgsproviderregistry.h>
#include <qgsvectorlayer.h>

#include <cpl_string.h>

#include <cstring>

QString VbasSql::quotedIdentifier(QString name)
{
    return QLatin1Char('"') + name.replace(QLatin1Char('"'), QLatin1String("\"\"")) + QLatin1Char('"');
}

bool VbasSql::fieldsInTheSource(const QgsVectorLayer& layer, const QStringList& fields)
{
    if (layer.isModified())
        return false;
    for (const QString& field : fields)
        if (layer.fields().fieldOrigin(layer.fields().lookupField(field)) != VbasCompat::FieldOriginProvider)
            return false;
    return true;
}

QString VbasSql::fromItem(const QgsDataSourceUri& uri)
{
    if (uri.table().startsWith(QLatin1Char('(')))
        return uri.table() + QStringLiteral(" AS vbas_source");
    return (uri.schema().isEmpty() ? QString() : quotedIdentifier(uri.schema()) + QLatin1Char('.')) +
           quotedIdentifier(uri.table());
}

QString VbasSql::selectQuery(const QStringList& fields, const QString& from, const QString& filter,
                             const QString& countName)
{
    QStringList columns;
    QStringList places;
    for (const QString& field : fields)
    {
        columns << quotedIdentifier(field);
        places << QString::number(places.size() + 1);
    }
    QString sql = QStringLiteral("SELECT %1")
                      .arg(columns.isEmpty() ? QStringLiteral("*") : columns.join(QStringLiteral(", ")));
    if (!countName.isEmpty())
        sql += QStringLiteral(", COUNT(*) AS %1").arg(countName);
    sql += QStringLiteral(" FROM %1").arg(from);
    if (!filter.trimmed().isEmpty())
        sql += QStringLiteral(" WHERE (%1)").arg(filter.trimmed());
    if (!countName.isEmpty())
        sql += QStringLiteral(" GROUP BY %1").arg(places.join(QStringLiteral(", ")));
    return sql;
}

QString VbasGdal::path(const QString& source)
{
    return QgsProviderRegistry::instance()
        ->decodeUri(QStringLiteral("ogr"), source)
        .value(QStringLiteral("path"))
        .toString();
}

bool VbasGdal::openLayer(const QString& source, bool update, GDALDatasetH& dataset, OGRLayerH& layer)
{
    const QVariantMap parts = QgsProviderRegistry::instance()->decodeUri(QStringLiteral("ogr"), source);
    CPLStringList openOptions;
    for (const QString& option : parts.value(QStringLiteral("openOptions")).toStringList())
        openOptions.AddString(option.toUtf8().constData());
    layer = nullptr;
    dataset = GDALOpenEx(parts.value(QStringLiteral("path")).toString().toUtf8().constData(),
                         GDAL_OF_VECTOR | (update ? GDAL_OF_UPDATE : GDAL_OF_READONLY), nullptr,
                         openOptions.List(), nullptr);
    if (dataset == nullptr)
        return false;
    const QString layerName = parts.value(QStringLiteral("layerName")).toString();
    layer = !layerName.isEmpty()
                ? GDALDatasetGetLayerByName(dataset, layerName.toUtf8().constData())
                : GDALDatasetGetLayer(dataset, parts.value(QStringLiteral("layerId"), 0).toInt());
    return layer != nullptr;
}

bool VbasGdal::isGeoPackage(GDALDatasetH dataset)
{
    return std::strcmp(GDALGetDriverShortName(GDALGetDatasetDriver(dataset)), "GPKG") == 0;
}

OGRLayerH VbasGdal::selectFrom(GDALDatasetH dataset, OGRLayerH layer, const QStringList& columns,
                               const QString& filter)
{
    const QString sql = VbasSql::selectQuery(
        columns, VbasSql::quotedIdentifier(QString::fromUtf8(OGR_L_GetName(layer))), filter);
    return GDALDatasetExecuteSQL(dataset, sql.toUtf8().constData(), nullptr, nullptr);
}

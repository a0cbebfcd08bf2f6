#include "vbasrecordsource.h"

#include "vbasqgiscompat.h"

#include <qgsdatasourceuri.h>
#include <qgsvectorlayer.h>

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
    QString sql = QStringLiteral("SELECT %1").arg(columns.join(QStringLiteral(", ")));
    if (!countName.isEmpty())
        sql += QStringLiteral(", COUNT(*) AS %1").arg(countName);
    sql += QStringLiteral(" FROM %1").arg(from);
    if (!filter.trimmed().isEmpty())
        sql += QStringLiteral(" WHERE (%1)").arg(filter.trimmed());
    if (!countName.isEmpty())
        sql += QStringLiteral(" GROUP BY %1").arg(places.join(QStringLiteral(", ")));
    return sql;
}

#pragma once

#include <qgsfeatureid.h>

#include <QString>
#include <QStringList>
#include <QVariant>
#include <QVector>

#include <cstdint>

class QgsDataSourceUri;
class QgsVectorLayer;

/**
 * Rows of RECORDS read beside QGIS's feature iterator, straight from where they are stored (GDAL's Arrow
 * stream, PostgreSQL's COPY), with the values QGIS's own provider gives for them. A row is either one
 * record or a group of identical records with its count.
 */
class VbasRecordSource
{
public:
    virtual ~VbasRecordSource() = default;
    /** Reads the next row into `id` and `values` (the asked fields in order); false after the last. */
    virtual bool next(QgsFeatureId& id, QVector<QVariant>& values) = 0;
    /** The rows to come when known without a pass over the data: else -1. */
    virtual long cheapRowCount() const = 0;
    /** Whether rows are groups of identical records; their ids are then their places in the stream. */
    virtual bool grouped() const = 0;
    /** The records the last row read stands for: its count when grouped, else 1. */
    virtual qint64 groupSize() const = 0;
    /** One line for the log: how the rows are read and where they are counted. */
    virtual QString description() const = 0;
    /**
     * Per field, the number of the last row's value among the distinct values the source gave for that field
     * (0, 1, 2... as they first came), so that a reader codes each distinct value once; nullptr when the
     * source does not number them.
     */
    virtual const std::uint32_t* valueIds() const { return nullptr; }
};

/** SQL shared by the sources that query a database (PostgreSQL, SpatiaLite, GeoPackage). */
namespace VbasSql
{
/** `name` quoted as an SQL identifier (PostgreSQL and SQLite alike). */
QString quotedIdentifier(QString name);
/** Whether every field is the layer's own (not joined, virtual or an expression) and no edit is pending. */
bool fieldsInTheSource(const QgsVectorLayer& layer, const QStringList& fields);
/** The FROM item of a database layer: its schema-qualified table, or its query (a query layer) aliased. */
QString fromItem(const QgsDataSourceUri& uri);
/**
 * `SELECT fields FROM from WHERE (filter)`; with a `countName`, identical rows become one row and their
 * count: `SELECT fields, COUNT(*) AS countName ... GROUP BY fields`. Unordered: a sort would cost a third
 * of the query at national scale, and the release reads the rows once.
 */
QString selectQuery(const QStringList& fields, const QString& from, const QString& filter,
                    const QString& countName = QString());
} // namespace VbasSql

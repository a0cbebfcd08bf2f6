#pragma once

#include <QString>
#include <QStringList>

#include <cpl_error.h>
#include <gdal.h>

class QgsDataSourceUri;
class QgsVectorLayer;

/**
 * What the record streams share to reach where records are stored: SQL for the databases they query, GDAL's
 * datasets as QGIS names them, and GDAL's error messages kept for the user's words.
 */

/** SQL shared by the streams that query a database (PostgreSQL, SpatiaLite, GeoPackage). */
namespace VbasSql
{
/** `name` quoted as an SQL identifier (PostgreSQL and SQLite alike). */
QString quotedIdentifier(QString name);
/** Whether every field is the layer's own (not joined, virtual or an expression) and no edit is pending. */
bool fieldsInTheSource(const QgsVectorLayer& layer, const QStringList& fields);
/** The FROM item of a database layer: its schema-qualified table, or its query (a query layer) aliased. */
QString fromItem(const QgsDataSourceUri& uri);
/**
 * `SELECT fields FROM from WHERE (filter)` (every column when `fields` is empty); with a `countName`,
 * identical rows become one row and their count: `SELECT fields, COUNT(*) AS countName ... GROUP BY fields`.
 * Unordered: a sort would cost a third of the query at national scale, and the release reads the rows once.
 */
QString selectQuery(const QStringList& fields, const QString& from, const QString& filter,
                    const QString& countName = QString());
} // namespace VbasSql

namespace VbasGdal
{
/** The file of an OGR source as QGIS names it ("file.gpkg|layername=x"). */
QString path(const QString& source);
/**
 * Opens the dataset of an OGR source as QGIS names it, with its open options, for reading or (`update`)
 * writing, and finds its layer (by name, else by id, else the first); false, with `dataset` nullptr or open
 * and `layer` nullptr, when GDAL cannot. The caller closes `dataset`.
 */
bool openLayer(const QString& source, bool update, GDALDatasetH& dataset, OGRLayerH& layer);
/**
 * Whether `dataset` is a GeoPackage. Its tables are read through GDAL's Arrow stream as queries
 * (selectFrom): GDAL before 3.11.4 fills the batches of a table's own stream in worker threads that can
 * write a batch while it is read (GDAL issue 12934), so that a release could read garbage; a query's
 * stream reads in the caller's thread.
 */
bool isGeoPackage(GDALDatasetH dataset);
/**
 * The result set of `SELECT columns FROM layer WHERE (filter)` (every column when `columns` is empty, no
 * WHERE when `filter` is), for the caller to release with GDALDatasetReleaseResultSet; nullptr when the
 * database refused it (VbasQuietGdal::last() says why).
 */
OGRLayerH selectFrom(GDALDatasetH dataset, OGRLayerH layer, const QStringList& columns,
                     const QString& filter);
} // namespace VbasGdal

/**
 * Keeps GDAL's error messages out of the terminal and the log while it lives (the caller reads the last one
 * and says what it means for the user), and restores GDAL's handler after.
 */
struct VbasQuietGdal
{
    VbasQuietGdal()
    {
        CPLPushErrorHandler(CPLQuietErrorHandler);
        CPLErrorReset();
    }
    ~VbasQuietGdal() { CPLPopErrorHandler(); }
    VbasQuietGdal(const VbasQuietGdal&) = delete;
    VbasQuietGdal& operator=(const VbasQuietGdal&) = delete;

    /** GDAL's last error message, empty when none. */
    static QString last() { return QString::fromUtf8(CPLGetLastErrorMsg()); }
};

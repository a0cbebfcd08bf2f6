#pragma once

#include "vbascodedrows.h"

#include <qgsfeatureid.h>
#include <qgsfields.h>

#include <QList>
#include <QString>
#include <QVariant>
#include <QVector>

#include <cstdint>
#include <functional>
#include <memory>

class QgsFeatureSink;
class QgsFeatureSource;
class QgsVectorLayer;

namespace vbas
{
class Feedback;
}

/**
 * The record streams: records read from where they are stored (VbasRecordSource) and released rows written
 * to where they go (VbasRecordSink), each opened by one factory that picks the fastest way the layer or the
 * destination allows and falls back to QGIS's own, which gives and takes the same rows and values.
 */

/** Where the records are counted (GROUP_RECORDS). */
enum class VbasGrouping
{
    /** Every row is read and kept: QGIS's iteration or GDAL's Arrow stream. */
    Rows,
    /**
     * The fastest way measured for each source: a PostgreSQL table streams its rows (COPY), counted here as
     * they come; a SpatiaLite table is grouped by its database; files are read row by row (GDAL streams a
     * GeoPackage three times faster than SQLite groups it).
     */
    Automatic,
    /**
     * Grouped by the database whenever the source is PostgreSQL, SpatiaLite, a GeoPackage or SQLite file:
     * only the counts travel, for a database far away over a slow network.
     */
    Database,
};

/**
 * Rows of RECORDS with some of their attributes, in feature id order unless grouped, with the values QGIS's
 * own provider gives for them. A row is either one record or a group of identical records with its count.
 */
class VbasRecordSource
{
public:
    /**
     * Opens the rows of `source` with its `attributes`: a PostgreSQL table through COPY, counted here or
     * (`grouping` Database) by the database; a SpatiaLite table, GeoPackage or SQLite file grouped by its
     * database when `grouping` asks for it; else through GDAL's Arrow stream when `layer` (the layer behind
     * `source`, read whole; or nullptr) allows it; else through QGIS's iteration of `source`. Sets
     * `notGrouped` to why the database does not group the rows when `grouping` asked it to and the rows are
     * read otherwise. Throws QgsProcessingException when `grouping` is Database and the database refuses the
     * query, and vbas::Canceled when `feedback` is canceled while a database streams.
     */
    static std::unique_ptr<VbasRecordSource> open(QgsFeatureSource& source, const QgsVectorLayer* layer,
                                                  const QList<int>& attributes, vbas::Feedback& feedback,
                                                  VbasGrouping grouping, QString& notGrouped);

    virtual ~VbasRecordSource() = default;
    /** Reads the next row into `id` and `values` (the asked fields in order); false after the last. */
    virtual bool next(QgsFeatureId& id, QVector<QVariant>& values) = 0;
    /**
     * The rows to come, for progress and to make room once, or -1 when only a pass over the data could tell:
     * QGIS counts a CSV's rows by reading it whole, so the fast readers ask their source's cheap count.
     */
    virtual long expectedRows() const = 0;
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

/**
 * Released rows, without geometry, appended to the table QGIS created for an output. Rows are kept by
 * finish(); a sink destroyed unfinished keeps none of them where it can (a GeoPackage's transaction; the
 * output guard deletes the staged file anyway).
 */
class VbasRecordSink
{
public:
    /**
     * Takes over `created`, the sink QGIS created for `destination` (a table without geometry with `fields`):
     * a GeoPackage table or a CSV file of text and whole numbers is then filled straight (VbasOgrTable), any
     * other through `created` itself. Throws QgsProcessingException, naming `outputName`, when GDAL cannot
     * open the table QGIS created.
     */
    static std::unique_ptr<VbasRecordSink> open(std::unique_ptr<QgsFeatureSink> created,
                                                const QString& destination, const QgsFields& fields,
                                                const QString& outputName);

    virtual ~VbasRecordSink() = default;
    /**
     * Appends every row of `rows` in their order, each value converted once (not once per row); calls
     * `written` with the rows written so far every 4,096 rows and at the end (it may throw to stop). False
     * when the destination refuses a row (lastError()).
     */
    virtual bool addRows(const VbasCodedRows& rows, const std::function<void(std::size_t)>& written) = 0;
    /** Why the last row was refused. */
    virtual QString lastError() const = 0;
    /** Keeps the rows and closes the destination; throws QgsProcessingException when it cannot. */
    virtual void finish() = 0;
};

#pragma once

#include <qgsfeatureid.h>
#include <qgsfeatureiterator.h>

#include <QStringList>
#include <QVariant>
#include <QVector>

#include <memory>

class QgsFeatureSource;
class QgsVectorLayer;

/** Where the records are counted (GROUP_RECORDS). */
enum class VbasGrouping
{
    /** Every row is read: QGIS's iteration or GDAL's Arrow stream. */
    Rows,
    /**
     * A PostgreSQL or SpatiaLite table is grouped by its database, so that only counts travel; files are
     * read row by row (GDAL streams a GeoPackage three times faster than SQLite groups it).
     */
    Automatic,
    /** Grouped by the database whenever the source is PostgreSQL, SpatiaLite, a GeoPackage or SQLite file. */
    Database,
};

/**
 * The rows of an OGR-backed layer (GeoPackage, CSV, FlatGeobuf, Shapefile, Parquet...) read through GDAL's
 * Arrow stream (GDAL 3.6 and later): only the fields asked for, no geometry, the layer's subset string as
 * OGR's attribute filter, whole batches at a time. QGIS's own iteration of the same rows builds a feature
 * per row and costs about ten times as much (issue 14). Values come as QGIS's OGR provider gives them: text
 * as QString, integers as int or qlonglong, reals as double, dates as QDate, NULL as a null QVariant of the
 * field's type; feature ids are OGR's, as QGIS's are.
 */
class VbasArrowRecords
{
public:
    /**
     * Opens the rows of `layer` with the fields named `fields` (QGIS's names; a GeoPackage's "fid" is the
     * feature id). Returns nullptr when the layer is not read by OGR, has unsaved edits, its subset string is
     * a whole SQL query, a field is not the file's own (joined, virtual), GDAL cannot stream it or a field
     * has a type this reader does not convert: the caller then reads the layer through QGIS, which gives the
     * same rows.
     */
    static std::unique_ptr<VbasArrowRecords> open(const QgsVectorLayer& layer, const QStringList& fields);
    /**
     * Opens the groups of identical rows of `layer` as its database counts them: `SELECT fields, COUNT(*)
     * ... WHERE <subset string> GROUP BY fields`, for a PostgreSQL or SpatiaLite layer, and with `files`
     * for a GeoPackage or SQLite file read by OGR. Each row of the stream is then a group: its id is its
     * place in the stream and groupSize() its records. Returns nullptr when the layer is none of those, has
     * unsaved edits or fields of QGIS's own, and sets `why` when the database refused the query.
     */
    static std::unique_ptr<VbasArrowRecords> openGroups(const QgsVectorLayer& layer,
                                                        const QStringList& fields, bool files, QString& why);
    ~VbasArrowRecords();
    VbasArrowRecords(const VbasArrowRecords&) = delete;
    VbasArrowRecords& operator=(const VbasArrowRecords&) = delete;

    /**
     * Reads the next row into `id` and `values` (the asked fields in order); false after the last.
     * Throws QgsProcessingException when GDAL fails mid-stream.
     */
    bool next(QgsFeatureId& id, QVector<QVariant>& values);
    /** The rows to come when GDAL knows them without a pass over the data (a CSV's it does not): else -1. */
    long cheapRowCount() const;
    /** Whether rows are groups (openGroups). */
    bool grouped() const;
    /** The records the last row read stands for: its COUNT(*) when grouped, else 1. */
    qint64 groupSize() const;
    /** The database that grouped the rows ("PostgreSQL", "SQLite"...), for the log; empty when not grouped.
     */
    QString groupedBy() const;

private:
    struct Stream;
    explicit VbasArrowRecords(std::unique_ptr<Stream> stream);
    std::unique_ptr<Stream> mStream;
};

/**
 * The rows of RECORDS with some of their attributes, in feature id order: grouped by the database when
 * `grouping` asks for it and the source allows it; else through GDAL's Arrow stream when `layer` (the layer
 * behind `source`, read whole; or nullptr) allows it, else through QGIS's iteration of `source`, which gives
 * the same rows and values. Throws QgsProcessingException when `grouping` is Database and the database
 * refuses the query.
 */
class VbasRecordRows
{
public:
    VbasRecordRows(QgsFeatureSource& source, const QgsVectorLayer* layer, const QList<int>& attributes,
                   VbasGrouping grouping = VbasGrouping::Rows);

    /** Whether the rows come through GDAL's Arrow stream (grouped or not). */
    bool columnar() const { return mColumnar != nullptr; }
    /** Whether each row is a group of identical records counted by the database. */
    bool grouped() const { return mColumnar && mColumnar->grouped(); }
    /** The records the last row read stands for: 1 unless grouped. */
    qint64 groupSize() const { return mColumnar ? mColumnar->groupSize() : 1; }
    /** One line for the log: how the rows are read. */
    QString description() const;
    /** Reads the next row into `id` and `values` (the attributes in order); false after the last. */
    bool next(QgsFeatureId& id, QVector<QVariant>& values);
    /**
     * The rows to come, for progress, or -1 when only a pass over the data could tell: QGIS counts a CSV's
     * rows by reading it whole (twice as long as the stream reads it), so the stream asks GDAL's cheap count.
     */
    long expectedRows() const;

private:
    QgsFeatureSource& mSource;
    QList<int> mAttributes;
    std::unique_ptr<VbasArrowRecords> mColumnar;
    /** Why the database did not group the records, when it was asked to and could not. */
    QString mGroupingRefused;
    QgsFeatureIterator mFeatures;
    QgsFeature mFeature;
};

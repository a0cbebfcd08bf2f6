#pragma once

#include "vbasrecordsource.h"

#include <qgsfeatureiterator.h>

#include <memory>

class QgsFeatureSource;
class QgsVectorLayer;

namespace vbas
{
class Feedback;
}

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
 * The rows of RECORDS with some of their attributes, in feature id order unless grouped: a PostgreSQL table
 * through COPY, counted here or (`grouping` Database) by the database; a SpatiaLite table, GeoPackage or
 * SQLite file grouped by its database when `grouping` asks for it; else through GDAL's Arrow stream when
 * `layer` (the layer behind `source`, read whole; or nullptr) allows it, else through QGIS's iteration of
 * `source`, which gives the same rows and values. Throws QgsProcessingException when `grouping` is Database
 * and the database refuses the query, and vbas::Canceled when `feedback` is canceled while a database
 * streams.
 */
class VbasRecordRows
{
public:
    VbasRecordRows(QgsFeatureSource& source, const QgsVectorLayer* layer, const QList<int>& attributes,
                   vbas::Feedback& feedback, VbasGrouping grouping = VbasGrouping::Rows);
    ~VbasRecordRows();

    /** Whether each row is a group of identical records with its count. */
    bool grouped() const { return mDirect && mDirect->grouped(); }
    /** The records the last row read stands for: 1 unless grouped. */
    qint64 groupSize() const { return mDirect ? mDirect->groupSize() : 1; }
    /** One line for the log: how the rows are read. */
    QString description() const;
    /** The source's numbers of the last row's values (VbasRecordSource::valueIds()), or nullptr. */
    const std::uint32_t* valueIds() const { return mDirect ? mDirect->valueIds() : nullptr; }
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
    /** The rows read straight from their file or database, when that can be done. */
    std::unique_ptr<VbasRecordSource> mDirect;
    /** Why the rows are not read or grouped as `grouping` asked, when they could not be. */
    QString mFallbackReason;
    QgsFeatureIterator mFeatures;
    QgsFeature mFeature;
};

#pragma once

#include "vbasrecordstreams.h"

#include <qgsfields.h>

#include <QString>

#include <memory>

/**
 * A record sink that appends rows straight into a GeoPackage table or a CSV file that QGIS has just created
 * (empty) for an output, with no per-row detour through QGIS's writer (issue 14); a GeoPackage's rows in one
 * transaction, a CSV's appended as text, each distinct value escaped by GDAL's CSV writer once (its staged
 * file is the all-or-nothing unit; far faster than QGIS's writer, see docs/performance.md).
 * A GeoPackage's text and numbers go in through prepared SQLite INSERTs of 128 rows, binding each value as
 * GDAL would, and the feature count and trigger GDAL keeps for the table are kept; tables with dates go
 * through GDAL's own Arrow write where GDAL has it (3.8 and later), else, as tables with date-times do,
 * through GDAL's features (see Route). QGIS keeps everything about the table's creation (field types,
 * overwrite, the layer it loads afterwards); this only fills it. A sink destroyed unfinished rolls its rows
 * back.
 */
class VbasOgrTable : public VbasRecordSink
{
public:
    /** How the rows go into the table. */
    enum class Route
    {
        /**
         * A CSV's text; a GeoPackage's SQLite INSERTs where the table allows them (the fastest), else GDAL's
         * Arrow write where GDAL has it (no faster than its features: GDAL makes a feature of each row of a
         * GeoPackage's batch), else GDAL's features (docs/performance.md compares them).
         */
        Automatic,
        /** A CSV's rows as text, each distinct value escaped by GDAL once. */
        CsvText,
        /** Prepared SQLite INSERTs: a GeoPackage's text and numbers only. */
        SqliteInserts,
        /** GDAL's own Arrow write: GDAL 3.8 and later, no date-times. */
        GdalArrow,
        /** GDAL's features, one at a time: any table. */
        GdalFeatures,
    };

    /**
     * Whether `destination` (a sink destination as QGIS returns it: "file.gpkg|layername=x") is a table this
     * sink fills with `fields` as QGIS's writer would: a GeoPackage's, or a CSV of text and whole numbers.
     */
    static bool accepts(const QString& destination, const QgsFields& fields);

    /**
     * Opens the empty table at `destination`, created by QGIS with `fields` and closed since, for appending
     * by `route` where the table allows it, else by the next in the order of Route. Throws
     * QgsProcessingException, naming `outputName`, when GDAL cannot open it or a field is missing or of a
     * type this sink does not write.
     */
    VbasOgrTable(const QString& destination, const QgsFields& fields, const QString& outputName,
                 Route route = Route::Automatic);
    /** The same, closing first `created`, QGIS's sink that created the table. */
    VbasOgrTable(std::unique_ptr<QgsFeatureSink> created, const QString& destination, const QgsFields& fields,
                 const QString& outputName);
    ~VbasOgrTable() override;
    VbasOgrTable(const VbasOgrTable&) = delete;
    VbasOgrTable& operator=(const VbasOgrTable&) = delete;

    bool addRows(const VbasCodedRows& rows, const std::function<void(std::size_t)>& written) override;
    QString lastError() const override { return mError; }
    /** Commits the rows and closes the file; throws QgsProcessingException when GDAL cannot. */
    void finish() override;

    /** How the rows go in: a CSV's text, until GDAL's escaping cannot be read back (then GDAL's features). */
    Route route() const;

private:
    /**
     * Appends `rows` to a CSV as text, each distinct value escaped by GDAL once; false, having written
     * nothing, when GDAL's escaping cannot be read back before the first rows (they then go through GDAL's
     * features); lastError() says why writing failed.
     */
    bool appendCsvText(const VbasCodedRows& rows, const std::function<void(std::size_t)>& written);

    struct Table;
    std::unique_ptr<Table> mTable;
    QString mOutputName;
    /** The file written, for messages. */
    QString mFile;
    QString mError;
};

#pragma once

#include "vbascodedrows.h"

#include <qgsfeaturesink.h>
#include <qgsfields.h>

#include <QString>

#include <functional>
#include <memory>
#include <vector>

/**
 * A sink that appends rows without geometry straight into a GeoPackage table or a CSV file that QGIS has
 * just created (empty) for an output, with no per-row detour through QGIS's writer (issue 14); a
 * GeoPackage's rows in one transaction, a CSV's appended as text, each distinct value escaped once by
 * GDAL's CSV writer (its staged file is the all-or-nothing unit; far faster than QGIS's writer, see
 * docs/performance.md).
 * Text and numbers go in through prepared SQLite INSERTs of 128 rows, binding each value as GDAL would, and
 * the feature count and trigger GDAL keeps for the table are kept (coded rows through addRows() take about
 * half the time of OGR features and a fifth of QGIS's writer); tables with dates or times go
 * through GDAL's features. QGIS keeps everything about the table's creation
 * (field types, overwrite, the layer it loads afterwards); this only fills it. Rows are committed by
 * finish(); a sink destroyed unfinished rolls its rows back.
 */
class VbasOgrTable : public QgsFeatureSink
{
public:
    /**
     * Whether `destination` (a sink destination as QGIS returns it: "file.gpkg|layername=x") is a table this
     * sink fills with `fields` as QGIS's writer would: a GeoPackage's, or a CSV of text and whole numbers.
     */
    static bool accepts(const QString& destination, const QgsFields& fields);

    /**
     * Opens the empty table at `destination`, created by QGIS with `fields` and closed since, for appending.
     * Throws QgsProcessingException, naming `outputName`, when GDAL cannot open it or a field is missing
     * or of a type this sink does not write.
     */
    VbasOgrTable(const QString& destination, const QgsFields& fields, const QString& outputName);
    /** The same, closing first `created`, QGIS's sink that created the table. */
    VbasOgrTable(std::unique_ptr<QgsFeatureSink> created, const QString& destination, const QgsFields& fields,
                 const QString& outputName);
    ~VbasOgrTable() override;
    VbasOgrTable(const VbasOgrTable&) = delete;
    VbasOgrTable& operator=(const VbasOgrTable&) = delete;

    using QgsFeatureSink::addFeatures;
    bool addFeature(QgsFeature& feature, QgsFeatureSink::Flags flags = QgsFeatureSink::Flags()) override;
    bool addFeatures(QgsFeatureList& features,
                     QgsFeatureSink::Flags flags = QgsFeatureSink::Flags()) override;
    QString lastError() const override { return mError; }
    /**
     * Appends every row of `rows` in their order, each value converted for GDAL once (not once per row);
     * calls `written` with the rows written so far every 4,096 rows and at the end (it may throw to stop).
     * False when GDAL refuses a row (lastError()).
     */
    bool addRows(const VbasCodedRows& rows, const std::function<void(std::size_t)>& written);

    /** Commits the rows and closes the file; throws QgsProcessingException when GDAL cannot. */
    void finish();

private:
    /** Appends the reused OGR feature as a new row; false when GDAL refuses it. */
    bool create();
    /**
     * Appends `rows` to a CSV as text, each distinct value escaped by GDAL once; false, having written
     * nothing, when GDAL's escaping cannot be read back (the rows then go through GDAL's features);
     * lastError() says why writing failed.
     */
    bool appendCsvText(const VbasCodedRows& rows, const std::function<void(std::size_t)>& written);

    struct Table;
    std::unique_ptr<Table> mTable;
    QString mOutputName;
    QString mError;
};

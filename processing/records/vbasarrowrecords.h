#pragma once

#include "vbasrecordstreams.h"

#include <memory>

class QgsVectorLayer;

/**
 * The rows of an OGR-backed layer (GeoPackage, CSV, FlatGeobuf, Shapefile, Parquet...) read through GDAL's
 * Arrow stream (GDAL 3.6 and later): only the fields asked for, no geometry, the layer's subset string as
 * OGR's attribute filter, whole batches at a time. QGIS's own iteration of the same rows builds a feature
 * per row and costs about ten times as much (issue 14). Values come as QGIS's OGR provider gives them: text
 * as QString, integers as int or qlonglong, reals as double, dates as QDate, NULL as a null QVariant of the
 * field's type; feature ids are OGR's, as QGIS's are.
 */
class VbasArrowRecords : public VbasRecordSource
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
     * ... WHERE <subset string> GROUP BY fields`, for a SpatiaLite layer, and with `files` for a GeoPackage
     * or SQLite file read by OGR. Each row of the stream is then a group: its id is its
     * place in the stream and groupSize() its records. Returns nullptr when the layer is none of those, has
     * unsaved edits or fields of QGIS's own, and sets `why` when the database refused the query.
     */
    static std::unique_ptr<VbasArrowRecords> openGroups(const QgsVectorLayer& layer,
                                                        const QStringList& fields, bool files, QString& why);
    ~VbasArrowRecords() override;
    VbasArrowRecords(const VbasArrowRecords&) = delete;
    VbasArrowRecords& operator=(const VbasArrowRecords&) = delete;

    /** Throws QgsProcessingException when GDAL fails mid-stream. */
    bool next(QgsFeatureId& id, QVector<QVariant>& values) override;
    /** GDAL's count when it knows it without a pass over the data (a CSV's it does not). */
    long expectedRows() const override;
    /** Whether rows are groups (openGroups). */
    bool grouped() const override;
    qint64 groupSize() const override;
    QString description() const override;
    /** Values numbered by their bytes in the stream: each distinct value converted once. */
    const std::uint32_t* valueIds() const override;

private:
    struct Stream;
    explicit VbasArrowRecords(std::unique_ptr<Stream> stream);
    std::unique_ptr<Stream> mStream;
};

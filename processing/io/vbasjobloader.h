#pragma once

#include "geometry/RegionGeometries.h"
#include "partition/Partitioner.h"
#include "vbasconvert.h"
#include "vbasplanarframe.h"
#include "vbasrecordstreams.h"

class QgsFeatureSource;

/*
 * Reading a job's layers: the small areas, the records with their roles, and sites, in the planar frame of
 * the computation, checked as they are read.
 */

/**
 * Which fields of the records table hold what: their roles (SPEC section 10). Only the region (replaced by
 * the aggregate), the quasi-identifiers, the sensitive and the released fields are published; a field with no
 * role is not.
 */
struct VbasRecordFields
{
    int region = -1;
    QList<int> quasiIdentifiers;
    QList<int> sensitive; //!< published, protected by l-diversity when l is set
    QList<int> released;  //!< insensitive: published as they are
    int count = -1;       //!< -1: every row is one record; rows of count 0 hold no records and are skipped
    /** The id of each record (identifying: never published), for the release ledger only; -1: none. */
    int recordId = -1;
    /** NULL counts read as 0 (no records) instead of refused (NULL_COUNT_AS_ZERO). */
    bool nullCountAsZero = false;
    /**
     * The k of the release: a published value that fewer than max(k, 3) records share singles them out or
     * links them in a small set (the identifier guard, vbas::identifyingValues()).
     */
    vbas::Count k = 2;

    /** Where the records are counted (GROUP_RECORDS), a COUNT_FIELD table's rows too. */
    VbasGrouping grouping = VbasGrouping::Automatic;
    /** Empty text reads as NULL in every field read: the records are a CSV file (vbasIsCsvFile()). */
    bool emptyTextIsNull = false;

    /** Returns the published fields that are no quasi-identifiers: sensitive, then released ones. */
    QList<int> publishedValues() const { return sensitive + released; }
    /**
     * The fields a release reads of each row, in this order: the quasi-identifiers, the published values,
     * the region.
     */
    QList<int> readFields() const { return quasiIdentifiers + publishedValues() + QList<int>{region}; }
};

/**
 * Whether `layer` is a CSV file, in which an empty value is a missing one: QGIS's delimited-text reader reads
 * it as NULL, and VBAS reads a CSV so whatever reads it (OGR, GDAL's Arrow stream, with or without a .csvt),
 * in every field. Other sources keep empty text as it is: a GeoPackage's or PostgreSQL's '' is no NULL, in
 * QGIS either.
 */
bool vbasIsCsvFile(const QgsVectorLayer* layer);

/** The inputs of a job as the engine takes them, with the way back to the features they came from. */
struct VbasLoadedData
{
    std::unique_ptr<vbas::RegionGeometries> geometries; //!< planar, in region order
    /** The REGIONS feature of each region; a feature without geometry (and records) is left out. */
    std::vector<QgsFeatureId> regionFeatures;
    std::optional<vbas::Dataset> dataset;
    /** Whether the database grouped the records (VbasGrouping). */
    bool recordsGrouped = false;
    /** The id of every record row (VbasRecordFields::recordId), as text; empty without the field. */
    std::vector<std::string> recordIds;
    /**
     * What the released records publish, kept from the one read of RECORDS: writing them reads nothing
     * again, so a table edited meanwhile cannot change what is published. Codes are ranks in text order.
     */
    struct RecordValues
    {
        /** Per record row, the code of each quasi-identifier (the engine's). */
        std::vector<std::uint32_t> quasiIdentifierCodes;
        /** Per record row, the code of each published value (VbasRecordFields::publishedValues()). */
        std::vector<std::uint32_t> publishedCodes;
        /** Per field, quasi-identifiers then published values: the value of each code as read. */
        std::vector<QVector<QVariant>> values;
    } recordValues;
};

/**
 * Reads the regions (ids as text, polygons in the planar frame) and the records (quasi-identifier
 * and sensitive values as category codes, NULL a category of its own, codes in text order so that results do
 * not depend on row order) and builds the engine's Dataset. A published field whose values single records
 * out or link them in small sets (vbas::identifyingValues() at `recordFields.k`) is refused as an
 * identifier. Progress and cancel go through `feedback`; engine errors are vbas::Error, QGIS-side problems
 * QgsProcessingException naming the parameter.
 *
 * Real files: curved geometries (CurvePolygon, MultiSurface) are cut into straight segments; a region
 * without geometry (NULL or empty) is left out with a warning when no record names it, refused when one
 * does; rows of count 0 hold no records and are skipped, NULL counts are refused unless
 * `recordFields.nullCountAsZero`; when no record's small area is among the region ids, the error points
 * at the two id fields.
 *
 * `recordsLayer`, when given, is the layer behind `records` read whole (no selection or limit): its rows are
 * then read through GDAL's Arrow stream when OGR reads it (VbasArrowRecords), which gives the same dataset
 * far faster; nullptr reads them through `records`.
 */
VbasLoadedData loadJobData(QgsFeatureSource& regions, int regionIdField, const VbasPlanarFrame& frame,
                           vbas::RepresentativePoint pointMode, QgsFeatureSource& records,
                           const QgsVectorLayer* recordsLayer, const VbasRecordFields& recordFields,
                           const vbas::DatasetOptions& options, vbas::Feedback& feedback);

/**
 * Returns the sites of `source` (every part of multipoints), the layer of `parameter`, in the planar
 * frame, with their power weights from `weightField` (empty: unweighted; a weight in the planar
 * frame's square metres, as 'Select Voronoi sites' writes it).
 */
vbas::Sites loadSites(QgsFeatureSource& source, const QString& parameter, const QString& weightField,
                      const VbasPlanarFrame& frame, vbas::Feedback& feedback);

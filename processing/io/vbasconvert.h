#pragma once

#include "Feedback.h"
#include "data/Dataset.h"
#include "generalization/Hierarchy.h"
#include "geometry/RegionGeometries.h"
#include "partition/Partitioner.h"
#include "vbasrecordrows.h"

#include <qgscoordinatereferencesystem.h>
#include <qgscoordinatetransform.h>
#include <qgsdistancearea.h>
#include <qgsfeature.h>
#include <qgsfeatureid.h>
#include <qgsgeometry.h>

#include <QHash>
#include <QList>
#include <QVector>

#include <memory>
#include <optional>
#include <vector>

class QgsFeatureSource;
class QgsRectangle;

/**
 * The plane a job computes in. The engine is planar, so regions in a geographic CRS (or in a
 * projected one whose unit is not the metre) are projected to an azimuthal equidistant projection
 * centred on them, on their own datum so that no datum shift is involved; distances and areas are
 * then metres and square metres. A computation CRS given by the user (COMPUTATION_CRS, projected in
 * metres) replaces that choice. Results go back to the regions' CRS.
 *
 * The centre is found on the sphere, from a sample of the regions' vertices (the centre of the
 * smallest spherical cap holding them), so that data across the antimeridian (Alaska and the
 * Aleutians) is centred on itself, not on the other side of the Earth; the extent's centre is kept where
 * it distorts no more than 0.01 % more (results stay as they were where it was right). The scale
 * distortion of the plane is measured at the same vertices (Tissot's indicatrix, by finite differences
 * against the ellipsoid); beyond kDistortionLimit the frame has a warning for the log, and area() measures
 * areas on the ellipsoid instead of on the plane.
 */
class VbasPlanarFrame
{
public:
    /** Relative error of areas or distances over the data above which the frame warns and area() measures on
     * the ellipsoid. */
    static constexpr double kDistortionLimit = 0.01;
    /** The parameter that gives a computation CRS (named here for the frame's errors; never rename). */
    static inline const QString kComputationCrs = QStringLiteral("COMPUTATION_CRS");

    /**
     * The frame of regions in `sourceCrs` spanning `sourceExtent`: computing in `computationCrs` when it
     * is valid (it must be projected in metres: computationCrsProblem()), else in a plane chosen for the
     * regions, centred on the extent's centre. Distortion is measured on a grid over the extent. Prefer the
     * constructor from the regions themselves: an extent cannot tell data across the antimeridian.
     */
    VbasPlanarFrame(const QgsCoordinateReferenceSystem& sourceCrs, const QgsRectangle& sourceExtent,
                    const QgsCoordinateTransformContext& transformContext,
                    const QgsCoordinateReferenceSystem& computationCrs = QgsCoordinateReferenceSystem());
    /**
     * The frame of the polygons of `regions`, read once for a sample of their vertices: the centre of a
     * geographic CRS's projection is computed on the sphere from them, and distortion is measured at them.
     */
    VbasPlanarFrame(const QgsFeatureSource& regions, const QgsCoordinateTransformContext& transformContext,
                    const QgsCoordinateReferenceSystem& computationCrs = QgsCoordinateReferenceSystem());

    /**
     * Returns what is wrong with computing regions in `sourceCrs` in `computationCrs` (not valid, not
     * projected, not in metres, or regions without a CRS) and what to do, for an error naming the
     * parameter; an empty text when it can be used.
     */
    static QString computationCrsProblem(const QgsCoordinateReferenceSystem& computationCrs,
                                         const QgsCoordinateReferenceSystem& sourceCrs);

    const QgsCoordinateReferenceSystem& sourceCrs() const { return mSourceCrs; }
    const QgsCoordinateReferenceSystem& planarCrs() const { return mPlanarCrs; }
    const QgsCoordinateTransformContext& transformContext() const { return mTransformContext; }
    /** Returns a line for the log saying where the computation happens. */
    QString description() const;

    /** Returns the centre (longitude, latitude in the source CRS) of the projection made for geographic
     * regions; none when the plane is the source CRS, its metric form, or the computation CRS. */
    std::optional<QgsPointXY> centre() const { return mCentre; }
    /** Returns the largest relative error of areas on the plane over the data (0.02: 2 %). */
    double areaDistortion() const { return mAreaDistortion; }
    /** Returns the largest relative error of short distances on the plane over the data, in any direction. */
    double distanceDistortion() const { return mDistanceDistortion; }
    /** Returns a warning for the log with the distortion and what to do, or an empty text when both stay
     * within kDistortionLimit. */
    QString distortionWarning() const;
    /** Whether area() measures on the ellipsoid: the plane's areas are off by more than kDistortionLimit. */
    bool areasOnEllipsoid() const { return mEllipsoidal.has_value(); }
    /**
     * Returns the area to report of a planar polygon (engine WKB) whose planar area is `planarArea`: that
     * one where the plane keeps areas, else the polygon's area on the ellipsoid of the source CRS.
     */
    double area(const std::vector<unsigned char>& planarWkb, double planarArea) const;

    /** Returns a planar geometry (engine output) in the source CRS; throws QgsProcessingException. */
    QgsGeometry toSource(QgsGeometry planar) const;
    QgsPointXY toSource(const vbas::Point& planar) const;

private:
    /** Chooses the plane, checks it and measures its distortion at `samples` (points in the source CRS). */
    void setUp(const QgsRectangle& sourceExtent, const std::vector<QgsPointXY>& samples,
               const QgsCoordinateReferenceSystem& computationCrs, bool centreOnExtent);
    /** Measures the plane's distortion at `samples` (points in the source CRS). */
    void measureDistortion(const std::vector<QgsPointXY>& samples);

    QgsCoordinateReferenceSystem mSourceCrs;
    QgsCoordinateReferenceSystem mPlanarCrs;
    QgsCoordinateTransformContext mTransformContext;
    std::optional<QgsCoordinateTransform> mToSource; //!< none when the source CRS is the planar one
    bool mGivenCrs = false;                          //!< the plane is COMPUTATION_CRS
    std::optional<QgsPointXY> mCentre;
    double mAreaDistortion = 0.0;
    double mDistanceDistortion = 0.0;
    double mReachKm = 0.0; //!< how far the data reach from the centre of the automatic projection
    std::optional<QgsDistanceArea> mEllipsoidal; //!< the planar CRS on the ellipsoid, when areas are off
};

/**
 * Brings the geometries of a layer into a planar frame: REGIONS themselves, or a second input (sites,
 * obstacles) in any CRS. Where QGIS cannot place a layer it fails with a message naming the layer's
 * parameter instead of going on with wrong or missing geometries: a layer without a CRS next to
 * REGIONS with one (or the reverse), or coordinates that do not fit the layer's CRS (metres labelled as
 * degrees, say), which PROJ turns into errors or infinite coordinates.
 */
class VbasPlanarReader
{
public:
    /** Throws when `source` and the frame's source cannot be related (one has a CRS, the other none). */
    VbasPlanarReader(const VbasPlanarFrame& frame, const QgsFeatureSource& source, const QString& parameter);

    /** Returns the geometry of `feature` (read from the source) in the plane; a null or empty one as it is.
     */
    QgsGeometry planarGeometry(const QgsFeature& feature) const;

private:
    QgsCoordinateTransform mTransform;
    QString mSourceName;
    QString mParameter;
};

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

    /** The parameter that reads NULL counts as 0; named in the error that refuses them. */
    static inline const QString kNullCountAsZero = QStringLiteral("NULL_COUNT_AS_ZERO");
    /** The parameter that says where the records are counted. */
    static inline const QString kGroupRecords = QStringLiteral("GROUP_RECORDS");

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
struct VbasJobData
{
    std::unique_ptr<vbas::RegionGeometries> geometries; //!< planar, in region order
    /** The REGIONS feature of each region; a feature without geometry (and records) is left out. */
    std::vector<QgsFeatureId> regionFeatures;
    std::optional<vbas::Dataset> dataset;
    /** Whether the database grouped the records (VbasGrouping). */
    bool recordsGrouped = false;
    /** The id of every record row (VbasRecordFields::recordId), as text; empty without the field. */
    std::vector<std::string> recordIds;
    /** The value of every category code of each quasi-identifier (for generalization hierarchies). */
    std::vector<std::vector<vbas::CategoryValue>> quasiIdentifierValues;
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
VbasJobData loadJobData(QgsFeatureSource& regions, int regionIdField, const VbasPlanarFrame& frame,
                        vbas::RepresentativePoint pointMode, QgsFeatureSource& records,
                        const QgsVectorLayer* recordsLayer, const VbasRecordFields& recordFields,
                        const vbas::DatasetOptions& options, vbas::Feedback& feedback);

/** Returns the index of every feature id in `features`, to find a feature's row when reading a source again.
 */
QHash<QgsFeatureId, std::size_t> vbasFeatureRows(const std::vector<QgsFeatureId>& features);

/**
 * Dense codes for the values of one field, the one rule by which a layer's values become categories
 * (quasi-identifiers, sensitive fields, parents, given aggregates): values are matched as text, NULL is a
 * category of its own (apart from empty text), codes come in order of first appearance and ranks() puts
 * them in text order, so that results do not depend on the order of the features.
 */
class VbasCategoryCodes
{
public:
    /** Returns the code of `value`, a new one for a value not seen before. */
    std::uint32_t code(const QVariant& value);
    /** Returns each code's rank in text order, NULL first. */
    std::vector<std::uint32_t> ranks() const;
    /** Returns the number of codes (categories). */
    std::uint32_t size() const { return mSize; }
    /**
     * Returns the value of every category in rank order (the engine's codes): its text, its number for a
     * numeric field and its day for a date, for generalization hierarchies.
     */
    std::vector<vbas::CategoryValue> values() const;
    /** Returns the value of every category in rank order, as first read (NULL as read too). */
    QVector<QVariant> rankedValues() const;
    /** Returns the number of NULL values coded. */
    std::size_t nullRows() const { return mNullRows; }

private:
    QHash<QString, std::uint32_t> mText;
    /** The codes of whole numbers already coded, found without writing them as text first. */
    QHash<qlonglong, std::uint32_t> mWholeNumber;
    QVector<QVariant> mFirstValue; //!< the first value coded, per code
    std::optional<std::uint32_t> mNull;
    std::uint32_t mSize = 0;
    std::size_t mNullRows = 0;
};

/** Returns the text a field value is compared as: region ids and categories are matched as text. */
QString vbasKeyText(const QVariant& value);
/** Returns vbasKeyText() of a value, or a mark of its own for NULL: values compared with NULL apart. */
QString vbasValueKey(const QVariant& value);

/**
 * Returns the sites of `source` (every part of multipoints), the layer of `parameter`, in the planar
 * frame, with their power weights from `weightField` (empty: unweighted; a weight in the planar
 * frame's square metres, as 'Select Voronoi sites' writes it).
 */
vbas::Sites loadSites(QgsFeatureSource& source, const QString& parameter, const QString& weightField,
                      const VbasPlanarFrame& frame, vbas::Feedback& feedback);

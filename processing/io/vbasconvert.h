#pragma once

#include "Feedback.h"
#include "data/Dataset.h"
#include "geometry/RegionGeometries.h"

#include <qgscoordinatereferencesystem.h>
#include <qgscoordinatetransform.h>
#include <qgsfeature.h>
#include <qgsfeatureid.h>
#include <qgsgeometry.h>

#include <QHash>
#include <QList>

#include <memory>
#include <optional>
#include <vector>

class QgsFeatureSource;
class QgsRectangle;

/**
 * The plane a job computes in. The engine is planar, so regions in a geographic CRS (or in a
 * projected one whose unit is not the metre) are projected to an azimuthal equidistant projection
 * centred on them, on their own datum so that no datum shift is involved; distances and areas are
 * then metres and square metres. Results go back to the regions' CRS.
 */
class VbasPlanarFrame
{
public:
    VbasPlanarFrame(const QgsCoordinateReferenceSystem& sourceCrs, const QgsRectangle& sourceExtent,
                    const QgsCoordinateTransformContext& transformContext);

    const QgsCoordinateReferenceSystem& sourceCrs() const { return mSourceCrs; }
    const QgsCoordinateReferenceSystem& planarCrs() const { return mPlanarCrs; }
    const QgsCoordinateTransformContext& transformContext() const { return mTransformContext; }
    /** Returns a line for the log saying where the computation happens. */
    QString description() const;

    /** Returns a planar geometry (engine output) in the source CRS; throws QgsProcessingException. */
    QgsGeometry toSource(QgsGeometry planar) const;
    QgsPointXY toSource(const vbas::Point& planar) const;

private:
    QgsCoordinateReferenceSystem mSourceCrs;
    QgsCoordinateReferenceSystem mPlanarCrs;
    QgsCoordinateTransformContext mTransformContext;
    std::optional<QgsCoordinateTransform> mToSource; //!< none when the source CRS is the planar one
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
    /** NULL counts read as 0 (no records) instead of refused (NULL_COUNT_AS_ZERO). */
    bool nullCountAsZero = false;

    /** The parameter that reads NULL counts as 0; named in the error that refuses them. */
    static inline const QString kNullCountAsZero = QStringLiteral("NULL_COUNT_AS_ZERO");

    /** Returns the published fields that are no quasi-identifiers: sensitive, then released ones. */
    QList<int> publishedValues() const { return sensitive + released; }
};

/** The inputs of a job as the engine takes them, with the way back to the features they came from. */
struct VbasJobData
{
    std::unique_ptr<vbas::RegionGeometries> geometries; //!< planar, in region order
    /** The REGIONS feature of each region; a feature without geometry (and records) is left out. */
    std::vector<QgsFeatureId> regionFeatures;
    std::optional<vbas::Dataset> dataset;
    /** The RECORDS feature of each record row; rows of count 0 (no records) are left out. */
    std::vector<QgsFeatureId> recordFeatures;
};

/**
 * Reads the regions (ids as text, polygons in the planar frame) and the records (quasi-identifier
 * and sensitive values as category codes, NULL a category of its own, codes in text order so that results do
 * not depend on row order) and builds the engine's Dataset. A published field that is nearly unique per
 * record (more distinct values than half the records) is refused as an identifier. Progress and cancel go
 * through `feedback`; engine errors are vbas::Error, QGIS-side problems QgsProcessingException naming the
 * parameter.
 *
 * Real files: curved geometries (CurvePolygon, MultiSurface) are cut into straight segments; a region
 * without geometry (NULL or empty) is left out with a warning when no record names it, refused when one
 * does; rows of count 0 hold no records and are skipped, NULL counts are refused unless
 * `recordFields.nullCountAsZero`; when no record's small area is among the region ids, the error points
 * at the two id fields.
 */
VbasJobData loadJobData(QgsFeatureSource& regions, int regionIdField, const VbasPlanarFrame& frame,
                        vbas::RepresentativePoint pointMode, QgsFeatureSource& records,
                        const VbasRecordFields& recordFields, const vbas::DatasetOptions& options,
                        vbas::Feedback& feedback);

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
    /** Returns the number of NULL values coded. */
    std::size_t nullRows() const { return mNullRows; }

private:
    QHash<QString, std::uint32_t> mText;
    std::optional<std::uint32_t> mNull;
    std::uint32_t mSize = 0;
    std::size_t mNullRows = 0;
};

/** Returns the text a field value is compared as: region ids and categories are matched as text. */
QString vbasKeyText(const QVariant& value);
/** Returns vbasKeyText() of a value, or a mark of its own for NULL: values compared with NULL apart. */
QString vbasValueKey(const QVariant& value);

/** Returns the points of `source` (every part of multipoints), the layer of `parameter`, in the planar frame.
 */
std::vector<vbas::Point> loadPoints(QgsFeatureSource& source, const QString& parameter,
                                    const VbasPlanarFrame& frame, vbas::Feedback& feedback);

#include "vbasconvert.h"

#include "data/IdentifyingValues.h"
#include "data/RecordCount.h"
#include "vbasparameters.h"
#include "vbasqgiscompat.h"

#include <qgscurvepolygon.h>
#include <qgsellipsoidutils.h>
#include <qgsexception.h>
#include <qgsfeatureiterator.h>
#include <qgsfeaturesource.h>
#include <qgsgeometrycollection.h>
#include <qgsmultipolygon.h>
#include <qgspoint.h>
#include <qgspolygon.h>
#include <qgsprocessingutils.h>
#include <qgsrectangle.h>
#include <qgsunittypes.h>
#include <qgsvectordataprovider.h>
#include <qgsvectorlayer.h>
#include <qgswkbtypes.h>

#include <QElapsedTimer>
#include <QSet>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace
{
/** The region key of a record whose region is NULL: beyond every key, so the Dataset reports it as unknown.
 */
constexpr std::uint32_t kNullRegionKey = std::numeric_limits<std::uint32_t>::max();
/** How many ids or values a message lists before "...". */
constexpr int kListed = 5;

/** Returns the first kListed of `texts`, quoted and joined, with the number of the others. */
QString listed(const QStringList& texts)
{
    QStringList shown;
    for (int i = 0; i < kListed && i < texts.size(); ++i)
        shown << QStringLiteral("'%1'").arg(texts.at(i));
    QString joined = shown.join(QStringLiteral(", "));
    if (texts.size() > kListed)
        joined += QObject::tr(" and %1 more").arg(texts.size() - kListed);
    return joined;
}

/** Keeps the datum of a PROJ string (+datum, +ellps, +towgs84...), so that a projection on it needs no datum
 * shift. */
QString datumPart(const QString& proj)
{
    static const QStringList datumKeys{"+datum", "+ellps", "+towgs84", "+a",       "+b",
                                       "+rf",    "+R",     "+pm",      "+nadgrids"};
    QStringList kept;
    for (const QString& token : proj.split(' ', Qt::SkipEmptyParts))
    {
        if (datumKeys.contains(token.section('=', 0, 0)))
            kept << token;
    }
    return kept.isEmpty() ? QStringLiteral("+datum=WGS84") : kept.join(' ');
}

/** Returns `crs` itself when it is projected in metres (or invalid), else the same projection in metres. */
QgsCoordinateReferenceSystem metricCrsFor(const QgsCoordinateReferenceSystem& crs)
{
    if (!crs.isValid() || crs.mapUnits() == VbasCompat::DistanceMeters)
        return crs;
    // A projected CRS in feet or other units: the same projection, in metres (x_0/y_0 are metres in PROJ
    // whatever +units says).
    QStringList tokens = crs.toProj().split(' ', Qt::SkipEmptyParts);
    tokens.erase(std::remove_if(tokens.begin(), tokens.end(),
                                [](const QString& token) {
                                    return token.startsWith(QLatin1String("+units=")) ||
                                           token.startsWith(QLatin1String("+to_meter="));
                                }),
                 tokens.end());
    return QgsCoordinateReferenceSystem::fromProj(tokens.join(' ') + QStringLiteral(" +units=m"));
}

/** Returns an azimuthal equidistant projection on the datum of the geographic `crs`, centred on `centre`. */
QgsCoordinateReferenceSystem azimuthalCrsFor(const QgsCoordinateReferenceSystem& crs,
                                             const QgsPointXY& centre)
{
    // Centred on the data, this projection is in no CRS database: skip PROJ's search for a match, the
    // slowest part of making it.
    QgsCoordinateReferenceSystem aeqd;
    aeqd.createFromProj(QStringLiteral("+proj=aeqd +lat_0=%1 +lon_0=%2 +x_0=0 +y_0=0 %3 +units=m +no_defs")
                            .arg(centre.y(), 0, 'f', 6)
                            .arg(centre.x(), 0, 'f', 6)
                            .arg(datumPart(crs.toProj())),
                        false);
    return aeqd;
}

/**
 * Returns up to a few thousand vertices of the geometries of `source`, in its CRS: at most 64 of each
 * feature, evenly spread over its vertices, and the whole thinned evenly when there are more.
 */
std::vector<QgsPointXY> sampleVertices(const QgsFeatureSource& source)
{
    constexpr int kPerFeature = 64;
    constexpr std::size_t kMaxSamples = 8192;
    std::vector<QgsPointXY> samples;
    QgsFeatureIterator features = source.getFeatures(QgsFeatureRequest().setNoAttributes());
    QgsFeature feature;
    while (features.nextFeature(feature))
    {
        const QgsGeometry geometry = feature.geometry();
        if (geometry.isEmpty())
            continue;
        const int stride = std::max(1, (geometry.constGet()->nCoordinates() + kPerFeature - 1) / kPerFeature);
        QgsVertexIterator vertices = geometry.vertices();
        for (int i = 0; vertices.hasNext(); ++i)
        {
            const QgsPoint vertex = vertices.next();
            if (i % stride == 0 && std::isfinite(vertex.x()) && std::isfinite(vertex.y()))
                samples.emplace_back(vertex.x(), vertex.y());
        }
    }
    if (samples.size() > kMaxSamples)
    {
        const std::size_t stride = (samples.size() + kMaxSamples - 1) / kMaxSamples;
        std::size_t kept = 0;
        for (std::size_t i = 0; i < samples.size(); i += stride)
            samples[kept++] = samples[i];
        samples.resize(kept);
    }
    return samples;
}

/** Returns a 5 x 5 grid of points over `extent`. */
std::vector<QgsPointXY> extentGrid(const QgsRectangle& extent)
{
    std::vector<QgsPointXY> grid;
    if (extent.isNull() || !extent.isFinite())
        return grid;
    for (int i = 0; i <= 4; ++i)
        for (int j = 0; j <= 4; ++j)
            grid.emplace_back(extent.xMinimum() + extent.width() * i / 4.0,
                              extent.yMinimum() + extent.height() * j / 4.0);
    return grid;
}

/** The mean radius of the Earth (IUGG), for distances on the sphere in the log. */
constexpr double kEarthRadiusKm = 6371.0088;

using UnitVector = std::array<double, 3>;

UnitVector unitVector(const QgsPointXY& lonLat)
{
    const double lon = lonLat.x() * M_PI / 180.0;
    const double lat = lonLat.y() * M_PI / 180.0;
    return {std::cos(lat) * std::cos(lon), std::cos(lat) * std::sin(lon), std::sin(lat)};
}

double dot(const UnitVector& a, const UnitVector& b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** Returns the transverse scale c / sin c of an azimuthal equidistant projection on the sphere at `c`
 * (radians) from its centre: its largest distortion of distances and areas there. */
double azimuthalScale(double c)
{
    return c < 1e-6 ? 1.0 : c / std::sin(std::min(c, M_PI - 1e-9));
}

/** Returns the largest angle (radians) on the sphere from `centre` to any of `lonLat`. */
double reachFrom(const QgsPointXY& centre, const std::vector<QgsPointXY>& lonLat)
{
    const UnitVector from = unitVector(centre);
    double reach = 0.0;
    for (const QgsPointXY& point : lonLat)
        reach = std::max(reach, std::acos(std::clamp(dot(unitVector(point), from), -1.0, 1.0)));
    return reach;
}

/**
 * Returns the centre (longitude, latitude) of the smallest spherical cap holding the points `lonLat`, and in
 * `reach` its angular radius (radians). On the unit sphere that cap is cut by the smallest ball holding the
 * points' unit vectors, found by Badoiu and Clarkson's iteration from their mean (within a few percent of
 * the radius): longitudes play no part but through their sines and cosines, so the antimeridian is no edge.
 * Centred there, an azimuthal projection keeps the largest distance to the data, and so its distortion, the
 * smallest.
 */
QgsPointXY sphericalCentre(const std::vector<QgsPointXY>& lonLat, double& reach)
{
    std::vector<UnitVector> points;
    points.reserve(lonLat.size());
    UnitVector centre{0.0, 0.0, 0.0};
    for (const QgsPointXY& point : lonLat)
    {
        points.push_back(unitVector(point));
        for (int axis = 0; axis < 3; ++axis)
            centre[std::size_t(axis)] += points.back()[std::size_t(axis)] / double(lonLat.size());
    }
    const auto farthest = [&points](const UnitVector& from) -> const UnitVector&
    {
        return *std::min_element(points.begin(), points.end(),
                                 [&from](const UnitVector& a, const UnitVector& b)
                                 { return dot(a, from) < dot(b, from); });
    };
    constexpr int kIterations = 1000;
    for (int i = 1; i <= kIterations; ++i)
    {
        const UnitVector far = farthest(centre);
        for (std::size_t axis = 0; axis < 3; ++axis)
            centre[axis] += (far[axis] - centre[axis]) / double(i + 1);
    }
    const double norm = std::sqrt(dot(centre, centre));
    if (norm < 1e-9) // the data surround the Earth's centre: any point is as good
        centre = points.front();
    else
        for (double& coordinate : centre)
            coordinate /= norm;
    const QgsPointXY found(std::atan2(centre[1], centre[0]) * 180.0 / M_PI,
                           std::asin(std::clamp(centre[2], -1.0, 1.0)) * 180.0 / M_PI);
    reach = reachFrom(found, lonLat);
    return found;
}

/** The ellipsoid of `crs` (WGS 84 when it has none QGIS knows). */
QgsEllipsoidUtils::EllipsoidParameters ellipsoidOf(const QgsCoordinateReferenceSystem& crs)
{
    QgsEllipsoidUtils::EllipsoidParameters parameters =
        QgsEllipsoidUtils::ellipsoidParameters(crs.ellipsoidAcronym());
    if (!parameters.valid || !(parameters.semiMajor > 0.0) || !(parameters.semiMinor > 0.0))
        parameters = QgsEllipsoidUtils::ellipsoidParameters(QStringLiteral("WGS84"));
    return parameters;
}

/** The scale distortion of a map projection at one point: Tissot's indicatrix. */
struct LocalScale
{
    double area = 1.0;    //!< areal scale
    double largest = 1.0; //!< largest linear scale (semi-major axis of the indicatrix)
    double smallest = 1.0;
};

/**
 * Returns the scale of `toPlane` (from a geographic CRS on the ellipsoid `ellipsoid`) at `lonLat`, by
 * finite differences of about ten metres along the meridian and the parallel, compared with their lengths
 * on the ellipsoid. Throws QgsCsException where the point cannot be projected.
 */
LocalScale localScale(const QgsCoordinateTransform& toPlane,
                      const QgsEllipsoidUtils::EllipsoidParameters& ellipsoid, const QgsPointXY& lonLat)
{
    constexpr double kStep = 1e-4; // degrees
    const double lat = std::clamp(lonLat.y(), -89.9, 89.9);
    const double north = lat + kStep > 89.95 ? -kStep : kStep;
    const QgsPointXY origin = toPlane.transform(QgsPointXY(lonLat.x(), lat));
    const QgsPointXY alongMeridian = toPlane.transform(QgsPointXY(lonLat.x(), lat + north));
    const QgsPointXY alongParallel = toPlane.transform(QgsPointXY(lonLat.x() + kStep, lat));
    const double a = ellipsoid.semiMajor;
    const double e2 = 1.0 - (ellipsoid.semiMinor * ellipsoid.semiMinor) / (a * a);
    const double phi = lat * M_PI / 180.0;
    const double w = std::sqrt(1.0 - e2 * std::sin(phi) * std::sin(phi));
    const double meridian = a * (1.0 - e2) / (w * w * w) * std::abs(north) * M_PI / 180.0; // M dphi
    const double parallel = a / w * std::cos(phi) * kStep * M_PI / 180.0; // N cos(phi) dlambda
    const double ux = (alongMeridian.x() - origin.x()) / meridian;
    const double uy = (alongMeridian.y() - origin.y()) / meridian;
    const double vx = (alongParallel.x() - origin.x()) / parallel;
    const double vy = (alongParallel.y() - origin.y()) / parallel;
    const double h2 = ux * ux + uy * uy;
    const double k2 = vx * vx + vy * vy;
    LocalScale scale;
    scale.area = std::abs(ux * vy - uy * vx);
    // The indicatrix's axes: (a + b)^2 = h^2 + k^2 + 2 s and (a - b)^2 = h^2 + k^2 - 2 s, s the areal scale.
    const double sum = std::sqrt(h2 + k2 + 2.0 * scale.area);
    const double difference = std::sqrt(std::max(0.0, h2 + k2 - 2.0 * scale.area));
    scale.largest = (sum + difference) / 2.0;
    scale.smallest = (sum - difference) / 2.0;
    return scale;
}

QString percent(double fraction)
{
    return QString::number(100.0 * fraction, 'f', 1);
}

/** Reports the progress of a feature loop over `source` and stops it promptly on cancel. */
class FeatureLoop
{
public:
    /** Over `features` features (-1: unknown; then the bar stays, cancel still works). */
    FeatureLoop(long features, vbas::Feedback& feedback)
        : mFeedback(feedback)
        , mStep(features > 0 ? 1.0 / double(features) : 0.0)
    {
    }
    void next()
    {
        mFeedback.checkCanceled();
        mFeedback.setProgress(mStep * double(mDone++));
    }

private:
    vbas::Feedback& mFeedback;
    double mStep;
    std::size_t mDone = 0;
};

/**
 * Returns a region geometry of a curved type (CurvePolygon, MultiSurface, with arcs or not) as polygons,
 * arcs cut into straight segments of at most 1 degree of arc: the engine reads linear geometries only.
 * (QgsGeometry::convertToStraightSegment() keeps a MultiSurface without arcs as it is.)
 */
QgsGeometry linearized(const QgsGeometry& geometry)
{
    const QgsAbstractGeometry* curved = geometry.constGet();
    if (const auto* polygon = qgsgeometry_cast<const QgsCurvePolygon*>(curved))
        return QgsGeometry(polygon->toPolygon());
    if (const auto* collection = qgsgeometry_cast<const QgsGeometryCollection*>(curved))
    {
        auto polygons = std::make_unique<QgsMultiPolygon>();
        for (int i = 0; i < collection->numGeometries(); ++i)
            if (const auto* part = qgsgeometry_cast<const QgsCurvePolygon*>(collection->geometryN(i)))
                polygons->addGeometry(part->toPolygon());
        return QgsGeometry(std::move(polygons));
    }
    QgsGeometry straight = geometry;
    straight.convertToStraightSegment();
    return straight;
}

/**
 * Reads the regions with a polygon into `data`; the ids of those without one (NULL or empty geometry) go to
 * `withoutGeometry`, to be left out or refused once the records are known. Curved geometries are cut into
 * straight segments (at most 1 degree of arc each): the engine reads linear geometries only.
 */
std::vector<vbas::RegionInput> loadRegions(QgsFeatureSource& source, int idField,
                                           const VbasPlanarFrame& frame, vbas::RepresentativePoint pointMode,
                                           VbasJobData& data, QStringList& withoutGeometry,
                                           vbas::Feedback& feedback)
{
    const VbasPlanarReader reader(frame, source, VbasParameters::kRegions);
    data.geometries = std::make_unique<vbas::RegionGeometries>();
    std::vector<vbas::RegionInput> regions;
    FeatureLoop loop(source.featureCount(), feedback);
    QgsFeatureIterator features =
        source.getFeatures(QgsFeatureRequest().setSubsetOfAttributes(QgsAttributeList{idField}));
    QgsFeature feature;
    std::size_t curved = 0;
    while (features.nextFeature(feature))
    {
        loop.next();
        const QVariant id = feature.attribute(idField);
        if (VbasCompat::isNull(id))
            throw VbasParameters::parameterError(
                VbasParameters::kRegionIdField,
                QObject::tr("feature %1 of REGIONS has no id (NULL); every region needs a unique id: fill "
                            "it in or choose another field")
                    .arg(feature.id()));
        const std::string idText = vbasKeyText(id).toStdString();
        if (feature.geometry().isEmpty()) // NULL geometries too
        {
            withoutGeometry << vbasKeyText(id);
            continue;
        }
        if (QgsWkbTypes::isCurvedType(feature.geometry().wkbType()))
        {
            feature.setGeometry(linearized(feature.geometry()));
            ++curved;
        }
        const QgsGeometry geometry = reader.planarGeometry(feature);
        const QByteArray wkb = geometry.asWkb();
        data.geometries->addWkb(reinterpret_cast<const unsigned char*>(wkb.constData()),
                                std::size_t(wkb.size()), idText);
        regions.push_back({idText, {}});
        data.regionFeatures.push_back(feature.id());
    }
    for (std::size_t i = 0; i < regions.size(); ++i)
        regions[i].point = data.geometries->representativePoint(i, pointMode);
    if (data.geometries->repairedCount() > 0)
        feedback.warning(std::to_string(data.geometries->repairedCount()) +
                         " invalid region polygons were repaired before use (the inputs are unchanged)");
    if (curved > 0)
        feedback.info(QObject::tr("%1 region geometries of a curved type (CurvePolygon, MultiSurface) were "
                                  "read as polygons, arcs cut into straight segments of at most 1 degree of "
                                  "arc (the inputs are unchanged)")
                          .arg(curved)
                          .toStdString());
    return regions;
}

/**
 * Leaves out, with a warning, the regions without geometry that no record names; refuses those that hold
 * records (their records would otherwise count as naming unknown regions), and ids used twice.
 */
void checkRegionsWithoutGeometry(const QStringList& withoutGeometry,
                                 const std::vector<vbas::RegionInput>& kept, const vbas::RecordTable& table,
                                 vbas::Feedback& feedback)
{
    if (withoutGeometry.isEmpty())
        return;
    QHash<QString, int> leftOut;
    for (int i = 0; i < withoutGeometry.size(); ++i)
    {
        if (leftOut.contains(withoutGeometry.at(i)))
            throw VbasParameters::parameterError(
                VbasParameters::kRegions,
                QObject::tr("the id '%1' is used by two regions without geometry; region ids must be unique: "
                            "pick a unique id field or remove the duplicates first")
                    .arg(withoutGeometry.at(i)));
        leftOut.insert(withoutGeometry.at(i), i);
    }
    for (const vbas::RegionInput& region : kept)
        if (leftOut.contains(QString::fromStdString(region.id)))
            throw VbasParameters::parameterError(
                VbasParameters::kRegions,
                QObject::tr("the id '%1' is used by a region with a polygon and by one without geometry; "
                            "region ids must be unique: pick a unique id field or remove the duplicates "
                            "first")
                    .arg(QString::fromStdString(region.id)));
    std::vector<int> keyLeftOut(table.regionKeys.size(), -1);
    for (std::size_t key = 0; key < table.regionKeys.size(); ++key)
        keyLeftOut[key] = leftOut.value(QString::fromStdString(table.regionKeys[key]), -1);
    std::vector<vbas::Count> held(std::size_t(withoutGeometry.size()), 0);
    for (std::size_t row = 0; row < table.rows(); ++row)
    {
        const std::uint32_t key = table.regionKey[row];
        if (key < keyLeftOut.size() && keyLeftOut[key] >= 0)
            held[std::size_t(keyLeftOut[key])] += table.counts.empty() ? 1 : vbas::Count(table.counts[row]);
    }
    int holding = 0;
    int first = -1;
    for (int i = 0; i < withoutGeometry.size(); ++i)
        if (held[std::size_t(i)] > 0 && holding++ == 0)
            first = i;
    if (holding > 0)
        throw VbasParameters::parameterError(
            VbasParameters::kRegions,
            QObject::tr("%1 region(s) without geometry (NULL or empty) hold records (first: '%2', %3 "
                        "record(s)), which cannot be placed; give those regions their polygons, or remove "
                        "their records from RECORDS")
                .arg(holding)
                .arg(withoutGeometry.at(first))
                .arg(held[std::size_t(first)]));
    feedback.warning(
        QObject::tr("%1 region(s) have no geometry (NULL or empty) and no records; they are left "
                    "out of the release and the mapping: %2")
            .arg(withoutGeometry.size())
            .arg(listed(withoutGeometry))
            .toStdString());
}

/** The values of every field of `source` that holds a different one in each feature (an id), by name. */
QHash<QString, QSet<QString>> idFields(const QgsFeatureSource& source)
{
    QHash<QString, QSet<QString>> values;
    QgsFeatureRequest request;
    request.setFlags(VbasCompat::RequestNoGeometry);
    QgsFeatureIterator features = source.getFeatures(request);
    QgsFeature feature;
    const QgsFields fields = source.fields();
    QSet<QString> repeated;
    while (features.nextFeature(feature))
        for (int f = 0; f < fields.count(); ++f)
        {
            QSet<QString>& seen = values[fields.at(f).name()];
            const QVariant value = feature.attribute(f);
            if (VbasCompat::isNull(value) || !seen.contains(vbasKeyText(value)))
                seen.insert(VbasCompat::isNull(value) ? QString() : vbasKeyText(value));
            else
                repeated.insert(fields.at(f).name());
        }
    for (const QString& name : std::as_const(repeated))
        values.remove(name);
    return values;
}

/**
 * The pair of fields (small areas, records) whose values match best, when it matches at least nine in ten of
 * a sample of the records, as "REGION_ID_FIELD=... and RECORD_REGION_FIELD=..." advice; else empty. Read only
 * when the fields given do not correspond, so that the advice is checked on the data, never a guess. A small
 * area id is one per area, and a records' small area field repeats (many records per area): a record field
 * with a value of its own in every sampled record is a record id, whatever it happens to match.
 */
QString correspondingFields(const QgsFeatureSource& regions, const QgsFeatureSource& records)
{
    constexpr long kSample = 5000;
    const QHash<QString, QSet<QString>> areaIds = idFields(regions);
    QgsFeatureRequest request;
    request.setFlags(VbasCompat::RequestNoGeometry).setLimit(kSample);
    QgsFeatureIterator features = records.getFeatures(request);
    QgsFeature feature;
    const QgsFields recordFields = records.fields();
    QHash<QString, int> matches; // "area field\nrecord field" -> records matched
    std::vector<QSet<QString>> seen(std::size_t(recordFields.count()));
    int sampled = 0;
    while (features.nextFeature(feature))
    {
        ++sampled;
        for (int f = 0; f < recordFields.count(); ++f)
        {
            if (VbasCompat::isNull(feature.attribute(f)))
                continue;
            const QString text = vbasKeyText(feature.attribute(f));
            seen[std::size_t(f)].insert(text);
            for (auto area = areaIds.constBegin(); area != areaIds.constEnd(); ++area)
                if (area.value().contains(text))
                    ++matches[area.key() + '\n' + recordFields.at(f).name()];
        }
    }
    QString best;
    int most = 0;
    for (auto pair = matches.constBegin(); pair != matches.constEnd(); ++pair)
    {
        const int field = recordFields.lookupField(pair.key().section('\n', 1, 1));
        if (seen[std::size_t(field)].size() == sampled)
            continue; // a record id
        // Ties by name, so that the advice does not depend on hash order.
        if (pair.value() > most || (pair.value() == most && pair.key() < best))
        {
            best = pair.key();
            most = pair.value();
        }
    }
    if (sampled == 0 || most * 10 < sampled * 9)
        return QString();
    return QObject::tr("the small areas' '%1' matches the records' '%2' for %3 of the first %4 records: give "
                       "REGION_ID_FIELD=%1 and RECORD_REGION_FIELD=%2")
        .arg(best.section('\n', 0, 0), best.section('\n', 1, 1))
        .arg(most)
        .arg(sampled);
}

/**
 * Refuses records of which most name no small area: the two id fields do not hold the same codes (a record id
 * taken for its small area, say), and dropping unknown small areas would release the wrong records. The
 * error shows the values of both fields and, when another pair of fields matches, that pair.
 */
void checkRecordsMatchRegions(const QgsFeatureSource& regions, int regionIdField,
                              const std::vector<vbas::RegionInput>& kept, const QStringList& withoutGeometry,
                              const QgsFeatureSource& records, const VbasRecordFields& fields,
                              const vbas::RecordTable& table)
{
    if (table.regionKeys.empty() || kept.empty())
        return; // no record with a small area (said before), or no regions (the engine says so)
    QSet<QString> ids(withoutGeometry.cbegin(), withoutGeometry.cend());
    for (const vbas::RegionInput& region : kept)
        ids.insert(QString::fromStdString(region.id));
    std::vector<bool> known(table.regionKeys.size());
    QStringList recordValues;
    for (std::size_t key = 0; key < table.regionKeys.size(); ++key)
    {
        const QString text = QString::fromStdString(table.regionKeys[key]);
        known[key] = ids.contains(text);
        if (!known[key])
            recordValues << text;
    }
    vbas::Count matched = 0, total = 0;
    for (std::size_t row = 0; row < table.rows(); ++row)
    {
        const vbas::Count count = table.counts.empty() ? 1 : vbas::Count(table.counts[row]);
        total += count;
        const std::uint32_t key = table.regionKey[row];
        matched += key < known.size() && known[key] ? count : 0;
    }
    if (2 * matched >= total)
        return;
    QStringList regionIds;
    for (const vbas::RegionInput& region : kept)
        regionIds << QString::fromStdString(region.id);
    std::sort(regionIds.begin(), regionIds.end());
    std::sort(recordValues.begin(), recordValues.end());
    const QString advice = correspondingFields(regions, records);
    throw VbasParameters::parameterError(
        VbasParameters::kRecordRegionField,
        QObject::tr(
            "the records' '%1' and the small areas' '%2' do not correspond: only %3 of %4 records name a "
            "small area. '%1' holds %5; '%2' holds %6. %7")
            .arg(records.fields().at(fields.region).name(), regions.fields().at(regionIdField).name())
            .arg(matched)
            .arg(total)
            .arg(listed(recordValues), listed(regionIds))
            .arg(advice.isEmpty()
                     ? QObject::tr("Check that the two fields hold the same codes (leading zeros: "
                                   "'01001' is not '1001', and a code stored as a number has lost "
                                   "them), or choose the right fields.")
                     : QObject::tr("Choose the right fields: %1.").arg(advice)));
}

/**
 * Says what happens to the rows whose region is NULL: an error when they are all like that (the field is
 * the wrong one) or when unknown regions fail the run, else a warning that they are dropped with the
 * records of unknown regions.
 */
void reportNullRegions(const QgsFeatureSource& source, const VbasRecordFields& fields, std::size_t nullRows,
                       vbas::Count nullRecords, QgsFeatureId firstNull, std::size_t rows, bool grouped,
                       const vbas::DatasetOptions& options, vbas::Feedback& feedback)
{
    if (nullRows == 0)
        return;
    const QString field = source.fields().at(fields.region).name();
    if (nullRows == rows)
        throw VbasParameters::parameterError(
            VbasParameters::kRecordRegionField,
            QObject::tr("'%1' is NULL in every record, so no record has a small area; choose the field that "
                        "holds the small area of each record")
                .arg(field));
    // The database counted groups of rows, so no feature can be named: the filter finds them.
    const QString what =
        grouped
            ? QObject::tr(
                  "%1 record(s) have no small area ('%2' is NULL; the filter \"%2\" IS NULL shows them)")
                  .arg(nullRecords)
                  .arg(field)
            : QObject::tr("%1 record(s) in %2 row(s) have no small area ('%3' is NULL; first: feature %4)")
                  .arg(nullRecords)
                  .arg(nullRows)
                  .arg(field)
                  .arg(firstNull);
    if (options.unknownRegions == vbas::UnknownRegionPolicy::Fail)
        throw VbasParameters::parameterError(
            VbasParameters::kRecordRegionField,
            QObject::tr("%1; fill in their small area, or set %2 to drop to leave them out of the release")
                .arg(what, VbasParameters::kUnknownRegions));
    feedback.warning(QObject::tr("%1; they are dropped with the records of unknown small areas, not released")
                         .arg(what)
                         .toStdString());
}

/** Says in the log which quasi-identifiers hold NULL, in how many records, and how it is treated. */
void reportNullCategories(const QgsFeatureSource& source, const VbasRecordFields& fields,
                          const std::vector<vbas::Count>& nullRecords, vbas::Feedback& feedback)
{
    for (std::size_t j = 0; j < nullRecords.size(); ++j)
    {
        if (nullRecords[j] > 0)
            feedback.warning(
                QObject::tr("'%1' is NULL in %2 record(s); NULL is a category of its own, grouped "
                            "only with other NULLs (not with empty text)")
                    .arg(source.fields().at(fields.quasiIdentifiers.at(int(j))).name())
                    .arg(nullRecords[j])
                    .toStdString());
    }
}

/**
 * Refuses a published field whose values single records out or link them in small sets (SPEC section 10,
 * vbas::identifyingValues()): an id, ids on part of the records beside a shared value, values shared by
 * pairs. `recordsPerValue` holds, per published field, the records holding each code of `categories`.
 */
void refuseIdentifiers(const QgsFeatureSource& source, const VbasRecordFields& fields,
                       const std::vector<VbasCategoryCodes>& categories,
                       const std::vector<std::vector<vbas::Count>>& recordsPerValue)
{
    const QList<int> published = fields.publishedValues();
    for (int j = 0; j < published.size(); ++j)
    {
        const std::vector<vbas::Count>& held = recordsPerValue[std::size_t(j)];
        const vbas::IdentifyingValues found = vbas::identifyingValues(held, fields.k);
        if (!found.identifies())
            continue;
        const QString parameter =
            j < fields.sensitive.size() ? VbasParameters::kSensitiveFields : VbasParameters::kReleaseFields;
        QString larger = QObject::tr("and no value is held by %1 records or more").arg(found.smallSet);
        if (found.mostCommon >= found.smallSet)
        {
            // Of values tied as the most common, the first in text order: the message does not depend on the
            // order of the rows.
            const std::vector<std::uint32_t> rank = categories[std::size_t(j)].ranks();
            std::size_t mostCommon = held.size();
            for (std::size_t code = 0; code < held.size(); ++code)
                if (held[code] == found.mostCommon &&
                    (mostCommon == held.size() || rank[code] < rank[mostCommon]))
                    mostCommon = code;
            const QVariant value = categories[std::size_t(j)].rankedValues().at(int(rank[mostCommon]));
            larger =
                QObject::tr("against %1 records in shared values other than its most common one ('%2', %3 "
                            "records)")
                    .arg(QString::number(found.inLargerGroups()),
                         VbasCompat::isNull(value) ? QStringLiteral("NULL") : vbasKeyText(value),
                         QString::number(found.mostCommon));
        }
        // Values that also group records in larger sets make a coded category with rare values (a diagnosis
        // code), which stays publishable coarser; an id does not.
        const QString coarser =
            found.inLargerGroups() > 0
                ? QObject::tr("; as a category with rare values, it can be published coarser instead, from a "
                              "field of its own (a diagnosis code generalized to its chapter, say)")
                : QString();
        throw VbasParameters::parameterError(
            parameter,
            QObject::tr("'%1' singles records out: %2 of %3 records carry a value that fewer than %4 records "
                        "share (%5 values, %6 of them held by one record), %7. An identifier is never "
                        "published: remove it from %8, or declare it a quasi-identifier (QUASI_IDENTIFIERS) "
                        "so that it is protected with the others%9")
                .arg(source.fields().at(published.at(j)).name(), QString::number(found.inSmallSets),
                     QString::number(found.records), QString::number(found.smallSet),
                     QString::number(found.valuesInSmallSets), QString::number(found.valuesHeldByOne), larger,
                     parameter, coarser));
    }
}

/**
 * Returns the records a row stands for: 1 without a count field, else its count (0: the row holds no
 * records), or nothing when the count is NULL. Throws, naming COUNT_FIELD, for a count that is no whole
 * number of 0 or more (text holding one is accepted, as CSV files deliver it).
 */
std::optional<qint64> rowRecords(QgsFeatureId feature, const QVariant* countValue, const QString& countField,
                                 bool grouped)
{
    if (countValue == nullptr)
        return 1;
    const QVariant& value = *countValue;
    if (VbasCompat::isNull(value))
        return std::nullopt;
    bool isNumber = false;
    const double count = value.toDouble(&isNumber);
    const std::optional<vbas::Count> records = isNumber ? vbas::wholeRecordCount(count) : std::nullopt;
    if (!records)
        // Rows counted in groups have no feature id: the filter finds them.
        throw VbasParameters::countError(
            grouped
                ? QObject::tr("a row (the filter \"%1\" = '%2' shows it)").arg(countField, value.toString())
                : QObject::tr("feature %1").arg(feature),
            value.toString());
    return static_cast<qint64>(*records);
}

/** The rows skipped for holding no records: a count of 0, or NULL read as 0. */
struct EmptyRows
{
    std::size_t zero = 0;
    std::size_t null = 0;
    QgsFeatureId firstNull = 0;
};

/**
 * Refuses NULL counts unless they are to be read as 0, and a table whose rows all hold no records; says in
 * the log which rows were skipped.
 */
void reportEmptyRows(const QgsFeatureSource& source, const VbasRecordFields& fields, const EmptyRows& empty,
                     std::size_t rowsWithRecords, bool grouped, vbas::Feedback& feedback)
{
    if (fields.count < 0)
        return;
    const QString field = source.fields().at(fields.count).name();
    if (empty.null > 0)
    {
        const QString what = QObject::tr("'%1' is NULL in %2 row(s) (%3)")
                                 .arg(field)
                                 .arg(empty.null)
                                 .arg(grouped ? QObject::tr("the filter \"%1\" IS NULL shows them").arg(field)
                                              : QObject::tr("first: feature %1").arg(empty.firstNull));
        if (!fields.nullCountAsZero)
            throw VbasParameters::parameterError(
                VbasParameters::kParameterCountField,
                QObject::tr(
                    "%1, so how many records they hold is unknown; fill in their counts, or set %2 to "
                    "read NULL as 0 (no records)")
                    .arg(what, VbasRecordFields::kNullCountAsZero));
        feedback.warning(QObject::tr("%1; read as 0 (no records), as %2 asks")
                             .arg(what, VbasRecordFields::kNullCountAsZero)
                             .toStdString());
    }
    if (empty.zero > 0)
        feedback.info(QObject::tr("%1 row(s) have a count of 0 in '%2': they hold no records and are skipped")
                          .arg(empty.zero)
                          .arg(field)
                          .toStdString());
    if (rowsWithRecords == 0 && empty.zero + empty.null > 0)
        throw VbasParameters::parameterError(
            VbasParameters::kParameterCountField,
            QObject::tr("every row has a count of 0 in '%1' (NULL read as 0), so there are no records to "
                        "release; choose the field that holds the number of records of each row")
                .arg(field));
}

/**
 * The codes of the values a source numbered (VbasRecordRows::valueIds()), by column and number: each
 * distinct value is coded once, not once per row (35 M records: 14.5 M rows of 4 values, 56 k distinct).
 */
class CodesByValueId
{
public:
    explicit CodesByValueId(std::size_t columns)
        : mCodes(columns)
    {
    }
    /** The code of column `column`'s value: `compute()`'s, found by the value's number when `ids` has one. */
    template <typename Compute>
    std::uint32_t code(const std::uint32_t* ids, std::size_t column, Compute compute)
    {
        if (ids == nullptr)
            return compute();
        std::vector<std::uint32_t>& codes = mCodes[column];
        const std::uint32_t valueId = ids[column];
        if (valueId >= codes.size())
            codes.resize(std::size_t(valueId) + 1, kUnknown);
        if (codes[valueId] == kUnknown)
            codes[valueId] = compute();
        return codes[valueId];
    }

private:
    /** No code yet: codes and region keys stay far below it (the NULL region's key is the largest number). */
    static constexpr std::uint32_t kUnknown = std::numeric_limits<std::uint32_t>::max() - 1;
    std::vector<std::vector<std::uint32_t>> mCodes;
};

/** Reads every empty text of a row as NULL (VbasRecordFields::emptyTextIsNull). */
void readEmptyTextAsNull(QVector<QVariant>& values)
{
    for (QVariant& value : values)
        if (value.userType() == QMetaType::QString && value.toString().isEmpty())
            value = VbasCompat::nullOf(VbasCompat::FieldTypeString);
}

vbas::RecordTable loadRecords(QgsFeatureSource& source, const QgsVectorLayer* layer,
                              const VbasRecordFields& fields, const vbas::DatasetOptions& options,
                              VbasJobData& data, vbas::Feedback& feedback)
{
    const QList<int> published = fields.publishedValues();
    // Read in this order: the quasi-identifiers, the published values, the region, the count.
    QgsAttributeList attributes = fields.readFields();
    const int q = int(fields.quasiIdentifiers.size()), regionAt = int(attributes.size()) - 1;
    if (fields.count >= 0)
        attributes << fields.count;
    const int countAt = regionAt + 1;
    if (fields.recordId >= 0)
        attributes << fields.recordId;
    const int idAt = int(attributes.size()) - 1;
    // With COUNT_FIELD, identical rows (their counts included) are grouped alike: each holds its count.
    VbasRecordRows rows(source, layer, attributes, feedback, fields.grouping);
    feedback.info(rows.description().toStdString());
    data.recordsGrouped = rows.grouped();
    const QString countField = fields.count >= 0 ? source.fields().at(fields.count).name() : QString();
    const bool counted = fields.count >= 0 || rows.grouped();

    vbas::RecordTable table;
    table.quasiIdentifierCount = std::size_t(q);
    table.sensitiveCount = std::size_t(fields.sensitive.size());
    QHash<QString, std::uint32_t> regionKeys;
    std::vector<VbasCategoryCodes> categories(table.quasiIdentifierCount);
    std::vector<vbas::Count> nullCategoryRecords(table.quasiIdentifierCount, 0);
    // Sensitive values first, as publishedValues() lists them.
    std::vector<VbasCategoryCodes> publishedCategories(std::size_t(published.size()));
    // Per published field, the records holding each code: what the identifier guard weighs.
    std::vector<std::vector<vbas::Count>> publishedValueRecords(publishedCategories.size());
    std::vector<std::uint32_t>& publishedCodes = data.recordValues.publishedCodes;
    CodesByValueId byValueId(std::size_t(attributes.size()));
    const long expectedRows = rows.expectedRows();
    if (expectedRows > 0) // room made once, not by doubling and copying as the rows come
    {
        const auto rowCount = std::size_t(expectedRows);
        table.regionKey.reserve(rowCount);
        table.codes.reserve(rowCount * table.quasiIdentifierCount);
        publishedCodes.reserve(rowCount * std::size_t(published.size()));
        if (counted)
            table.counts.reserve(rowCount);
    }
    FeatureLoop loop(expectedRows, feedback);
    QgsFeatureId id = 0;
    QVector<QVariant> values;
    std::size_t nullRegionRows = 0;
    vbas::Count nullRegionRecords = 0;
    QgsFeatureId firstNullRegion = 0;
    EmptyRows empty;
    while (rows.next(id, values))
    {
        loop.next();
        if (fields.emptyTextIsNull)
            readEmptyTextAsNull(values);
        const qint64 identicalRows = rows.groupSize();
        const std::optional<qint64> read =
            rowRecords(id, fields.count >= 0 ? &values.at(countAt) : nullptr, countField, rows.grouped());
        if (!read)
        {
            empty.firstNull = empty.null == 0 ? id : empty.firstNull;
            empty.null += std::size_t(identicalRows);
        }
        const qint64 count = read.value_or(0) * identicalRows;
        if (count == 0)
        {
            empty.zero += read ? std::size_t(identicalRows) : 0;
            continue; // no records: in no output, whatever its other fields hold
        }
        const QVariant& region = values.at(regionAt);
        const std::uint32_t* ids = rows.valueIds();
        if (VbasCompat::isNull(region))
        {
            if (nullRegionRows++ == 0)
                firstNullRegion = id;
            nullRegionRecords += vbas::Count(count);
        }
        table.regionKey.push_back(byValueId.code(ids, std::size_t(regionAt),
                                                 [&]
                                                 {
                                                     if (VbasCompat::isNull(region))
                                                         return kNullRegionKey;
                                                     const QString text = vbasKeyText(region);
                                                     std::uint32_t key = regionKeys.value(
                                                         text, std::uint32_t(table.regionKeys.size()));
                                                     if (key == table.regionKeys.size())
                                                     {
                                                         regionKeys.insert(text, key);
                                                         table.regionKeys.push_back(text.toStdString());
                                                     }
                                                     return key;
                                                 }));
        for (std::size_t j = 0; j < categories.size(); ++j)
        {
            const QVariant& value = values.at(int(j));
            if (VbasCompat::isNull(value))
                nullCategoryRecords[j] += vbas::Count(count);
            table.codes.push_back(byValueId.code(ids, j, [&] { return categories[j].code(value); }));
        }
        for (std::size_t j = 0; j < publishedCategories.size(); ++j)
        {
            const std::uint32_t code = byValueId.code(
                ids, std::size_t(q) + j, [&] { return publishedCategories[j].code(values.at(q + int(j))); });
            publishedCodes.push_back(code);
            std::vector<vbas::Count>& held = publishedValueRecords[j];
            if (code >= held.size())
                held.resize(std::size_t(code) + 1, 0);
            held[code] += vbas::Count(count);
        }
        if (fields.recordId >= 0)
        {
            const QVariant& recordId = values.at(idAt);
            if (VbasCompat::isNull(recordId))
                throw VbasParameters::parameterError(
                    VbasParameters::kRecordIdField,
                    QObject::tr(
                        "record %1 has no id (NULL); every record needs its id for the release ledger to "
                        "tell new records from earlier ones, or leave RECORD_ID_FIELD empty")
                        .arg(id));
            data.recordIds.push_back(vbasKeyText(recordId).toStdString());
        }
        if (counted)
            table.counts.push_back(count);
    }
    // Rows of count 0 hold no records and are left out.
    const std::size_t rowsWithRecords = table.regionKey.size();
    reportEmptyRows(source, fields, empty, rowsWithRecords, rows.grouped(), feedback);
    refuseIdentifiers(source, fields, publishedCategories, publishedValueRecords);
    reportNullRegions(source, fields, nullRegionRows, nullRegionRecords, firstNullRegion, rowsWithRecords,
                      rows.grouped(), options, feedback);
    reportNullCategories(source, fields, nullCategoryRecords, feedback);
    // Codes become ranks in text order: the same codes whatever order the rows come in (grouped or not).
    const auto rankCodes = [](const VbasCategoryCodes& codes, std::vector<std::uint32_t>& column,
                              std::size_t first, std::size_t width)
    {
        const std::vector<std::uint32_t> rank = codes.ranks();
        for (std::size_t i = first; i < column.size(); i += width)
            column[i] = rank[column[i]];
    };
    for (std::size_t j = 0; j < categories.size(); ++j)
    {
        data.quasiIdentifierValues.push_back(categories[j].values());
        data.recordValues.values.push_back(categories[j].rankedValues());
        rankCodes(categories[j], table.codes, j, categories.size());
    }
    for (std::size_t j = 0; j < publishedCategories.size(); ++j)
    {
        data.recordValues.values.push_back(publishedCategories[j].rankedValues());
        rankCodes(publishedCategories[j], publishedCodes, j, publishedCategories.size());
    }
    const std::size_t width = publishedCategories.size();
    table.sensitiveCodes.reserve(rowsWithRecords * table.sensitiveCount);
    for (std::size_t i = 0; i < publishedCodes.size(); i += width)
        table.sensitiveCodes.insert(table.sensitiveCodes.end(), publishedCodes.begin() + std::ptrdiff_t(i),
                                    publishedCodes.begin() + std::ptrdiff_t(i + table.sensitiveCount));
    return table;
}
} // namespace

VbasPlanarFrame::VbasPlanarFrame(const QgsCoordinateReferenceSystem& sourceCrs,
                                 const QgsRectangle& sourceExtent,
                                 const QgsCoordinateTransformContext& transformContext,
                                 const QgsCoordinateReferenceSystem& computationCrs)
    : mSourceCrs(sourceCrs)
    , mTransformContext(transformContext)
{
    setUp(sourceExtent, extentGrid(sourceExtent), computationCrs, true);
}

VbasPlanarFrame::VbasPlanarFrame(const QgsFeatureSource& regions,
                                 const QgsCoordinateTransformContext& transformContext,
                                 const QgsCoordinateReferenceSystem& computationCrs)
    : mSourceCrs(regions.sourceCrs())
    , mTransformContext(transformContext)
{
    // A wrong computation CRS fails before the regions are read.
    if (computationCrs.isValid())
    {
        const QString problem = computationCrsProblem(computationCrs, mSourceCrs);
        if (!problem.isEmpty())
            throw VbasParameters::parameterError(kComputationCrs, problem);
    }
    setUp(regions.sourceExtent(), sampleVertices(regions), computationCrs, false);
}

QString VbasPlanarFrame::computationCrsProblem(const QgsCoordinateReferenceSystem& computationCrs,
                                               const QgsCoordinateReferenceSystem& sourceCrs)
{
    const QString instead = QObject::tr("choose a projected CRS in metres made for the area of REGIONS (an "
                                        "equal-area or conformal projection of the country), or leave %1 "
                                        "empty to let VBAS choose")
                                .arg(kComputationCrs);
    if (!computationCrs.isValid())
        return QObject::tr("the CRS is not valid; %1").arg(instead);
    if (computationCrs.isGeographic())
        return QObject::tr("%1 is geographic (degrees), but the computation needs a plane in metres; %2")
            .arg(computationCrs.userFriendlyIdentifier(), instead);
    if (computationCrs.mapUnits() != VbasCompat::DistanceMeters)
        return QObject::tr("%1 is in %2, not in metres; %3")
            .arg(computationCrs.userFriendlyIdentifier(), QgsUnitTypes::toString(computationCrs.mapUnits()),
                 instead);
    if (!sourceCrs.isValid())
        return QObject::tr("REGIONS have no CRS, so they cannot be brought into %1; set the CRS of REGIONS "
                           "(Layer Properties > Source), or leave %2 empty")
            .arg(computationCrs.userFriendlyIdentifier(), kComputationCrs);
    return QString();
}

void VbasPlanarFrame::setUp(const QgsRectangle& sourceExtent, const std::vector<QgsPointXY>& samples,
                            const QgsCoordinateReferenceSystem& computationCrs, bool centreOnExtent)
{
    const QgsCoordinateReferenceSystem& sourceCrs = mSourceCrs;
    if (sourceCrs.isGeographic() && !sourceExtent.isEmpty() &&
        !QgsRectangle(-360.0, -90.0, 360.0, 90.0).contains(sourceExtent))
        throw VbasParameters::parameterError(
            VbasParameters::kRegions,
            QObject::tr("the layer is in %1 (degrees), but its coordinates reach %2, beyond any longitude "
                        "and latitude; set the CRS its coordinates are really in (Layer Properties > Source)")
                .arg(sourceCrs.userFriendlyIdentifier(), sourceExtent.toString(0)));
    if (computationCrs.isValid())
    {
        const QString problem = computationCrsProblem(computationCrs, sourceCrs);
        if (!problem.isEmpty())
            throw VbasParameters::parameterError(kComputationCrs, problem);
        mPlanarCrs = computationCrs;
        mGivenCrs = true;
    }
    else if (sourceCrs.isValid() && sourceCrs.isGeographic())
    {
        // The extent's centre is kept where it is as good as the sphere's (its largest scale, c / sin c at
        // the data's reach c, no more than 0.01 % larger), so that results on data that never had the problem
        // stay as they were; across the antimeridian it lies on the other side of the Earth.
        QgsPointXY centre = sourceExtent.center();
        double reach = reachFrom(centre, samples);
        if (!centreOnExtent && !samples.empty())
        {
            double sphericalReach = 0.0;
            const QgsPointXY spherical = sphericalCentre(samples, sphericalReach);
            if (azimuthalScale(reach) > azimuthalScale(sphericalReach) + 1e-4)
            {
                centre = spherical;
                reach = sphericalReach;
            }
        }
        mCentre = centre;
        mReachKm = reach * kEarthRadiusKm;
        mPlanarCrs = azimuthalCrsFor(sourceCrs, centre);
    }
    else
        mPlanarCrs = metricCrsFor(sourceCrs);
    if (!mPlanarCrs.isValid() && sourceCrs.isValid())
        throw VbasParameters::parameterError(
            VbasParameters::kRegions,
            QObject::tr("no planar projection in metres could be made for the CRS of REGIONS (%1); "
                        "reproject REGIONS to a projected CRS in metres first")
                .arg(sourceCrs.userFriendlyIdentifier()));
    if (mPlanarCrs != mSourceCrs)
        mToSource.emplace(mPlanarCrs, mSourceCrs, mTransformContext);
    measureDistortion(samples);
}

void VbasPlanarFrame::measureDistortion(const std::vector<QgsPointXY>& samples)
{
    if (!mSourceCrs.isValid() || !mPlanarCrs.isValid() || samples.empty())
        return;
    const QgsCoordinateReferenceSystem geographic =
        mSourceCrs.isGeographic() ? mSourceCrs : QgsCoordinateReferenceSystem(QStringLiteral("EPSG:4326"));
    const QgsEllipsoidUtils::EllipsoidParameters ellipsoid = ellipsoidOf(mSourceCrs);
    std::optional<QgsCoordinateTransform> toGeographic;
    if (!mSourceCrs.isGeographic())
        toGeographic.emplace(mSourceCrs, geographic, mTransformContext);
    const QgsCoordinateTransform toPlane(geographic, mPlanarCrs, mTransformContext);
    for (const QgsPointXY& sample : samples)
    {
        try
        {
            const LocalScale scale =
                localScale(toPlane, ellipsoid, toGeographic ? toGeographic->transform(sample) : sample);
            if (!std::isfinite(scale.area) || !std::isfinite(scale.largest) || !std::isfinite(scale.smallest))
                continue;
            mAreaDistortion = std::max(mAreaDistortion, std::abs(scale.area - 1.0));
            mDistanceDistortion = std::max(
                {mDistanceDistortion, std::abs(scale.largest - 1.0), std::abs(scale.smallest - 1.0)});
        }
        catch (const QgsCsException&)
        {
            // A point the plane cannot hold: the reader says so, naming the feature.
        }
    }
    if (mAreaDistortion > kDistortionLimit)
    {
        mEllipsoidal.emplace();
        mEllipsoidal->setSourceCrs(mPlanarCrs, mTransformContext);
        // By name: QGIS 3.22 makes no CRS for an ellipsoid given by its axes, and then measures NaN.
        if (!mEllipsoidal->setEllipsoid(mSourceCrs.ellipsoidAcronym()) ||
            !mEllipsoidal->ellipsoidCrs().isValid())
            mEllipsoidal->setEllipsoid(QStringLiteral("EPSG:7030")); // WGS 84
    }
}

QString VbasPlanarFrame::description() const
{
    if (!mSourceCrs.isValid())
        return QObject::tr("REGIONS have no CRS: distances and areas are in their own coordinate units");
    if (!mToSource)
        return QObject::tr(
                   "computing in the CRS of REGIONS (%1): distances in metres, areas in square metres")
            .arg(mSourceCrs.userFriendlyIdentifier());
    if (mGivenCrs)
        return QObject::tr("REGIONS are in %1; computing in %2, the %3 (distances in metres, areas in "
                           "square metres), results written back in %1")
            .arg(mSourceCrs.userFriendlyIdentifier(), mPlanarCrs.userFriendlyIdentifier(), kComputationCrs);
    // A CRS of its own, with no name a user would know: said in words.
    return QObject::tr("REGIONS are in %1; distances (metres) and areas (square metres) are measured on a "
                       "map projection centred on them (azimuthal equidistant), results written back in %1")
        .arg(mSourceCrs.userFriendlyIdentifier());
}

QString VbasPlanarFrame::distortionWarning() const
{
    if (mAreaDistortion <= kDistortionLimit && mDistanceDistortion <= kDistortionLimit)
        return QString();
    QString where;
    if (mGivenCrs)
        where = QObject::tr("on %1, the %2,").arg(mPlanarCrs.userFriendlyIdentifier(), kComputationCrs);
    else if (mCentre)
        where =
            QObject::tr("REGIONS reach %1 km from the centre (lon %2, lat %3) of the azimuthal projection "
                        "made for them; on it,")
                .arg(mReachKm, 0, 'f', 0)
                .arg(mCentre->x(), 0, 'f', 2)
                .arg(mCentre->y(), 0, 'f', 2);
    else
        where = QObject::tr("on the CRS of REGIONS (%1),").arg(mSourceCrs.userFriendlyIdentifier());
    const QString measured = areasOnEllipsoid()
                                 ? QObject::tr("area_m2 is measured on the ellipsoid, but distances, nearest "
                                               "sites and partitions are computed on the plane")
                                 : QObject::tr("distances, nearest sites and partitions are computed on it");
    return QObject::tr("%1 areas are off by up to %2 % and distances by up to %3 % over the data; %4. "
                       "For data this wide, choose a projected CRS in metres made for the area (an "
                       "equal-area or conformal projection of the country or continent) as %5, or reproject "
                       "REGIONS to one")
        .arg(where, percent(mAreaDistortion), percent(mDistanceDistortion), measured, kComputationCrs);
}

double VbasPlanarFrame::area(const std::vector<unsigned char>& planarWkb, double planarArea) const
{
    if (!mEllipsoidal || planarWkb.empty())
        return planarArea;
    QgsGeometry geometry;
    geometry.fromWkb(QByteArray(reinterpret_cast<const char*>(planarWkb.data()), int(planarWkb.size())));
    try
    {
        const double ellipsoidal = mEllipsoidal->measureArea(geometry);
        if (std::isfinite(ellipsoidal) && ellipsoidal > 0.0)
            return ellipsoidal;
    }
    catch (const QgsCsException&)
    {
        // Keep the planar area: the warning says how far off it may be.
    }
    return planarArea;
}

QgsGeometry VbasPlanarFrame::toSource(QgsGeometry planar) const
{
    if (!mToSource)
        return planar;
    try
    {
        planar.transform(*mToSource);
    }
    catch (const QgsCsException& error)
    {
        throw QgsProcessingException(QObject::tr("a result cannot be transformed back to %1: %2")
                                         .arg(mSourceCrs.userFriendlyIdentifier(), error.what()));
    }
    return planar;
}

QgsPointXY VbasPlanarFrame::toSource(const vbas::Point& planar) const
{
    return toSource(QgsGeometry::fromPointXY(QgsPointXY(planar.x, planar.y))).asPoint();
}

VbasPlanarReader::VbasPlanarReader(const VbasPlanarFrame& frame, const QgsFeatureSource& source,
                                   const QString& parameter)
    : mTransform(source.sourceCrs(), frame.planarCrs(), frame.transformContext())
    , mSourceName(source.sourceName())
    , mParameter(parameter)
{
    const QgsCoordinateReferenceSystem crs = source.sourceCrs();
    if (!crs.isValid() && frame.sourceCrs().isValid())
        throw VbasParameters::parameterError(
            parameter, QObject::tr("'%1' has no CRS, so it cannot be placed on REGIONS (%2); set its CRS "
                                   "(Layer Properties > Source) or reproject it")
                           .arg(mSourceName, frame.sourceCrs().userFriendlyIdentifier()));
    if (crs.isValid() && !frame.sourceCrs().isValid())
        throw VbasParameters::parameterError(
            parameter,
            QObject::tr("REGIONS have no CRS, so '%1' (%2) cannot be placed on them; set the CRS of REGIONS")
                .arg(mSourceName, crs.userFriendlyIdentifier()));
}

QgsGeometry VbasPlanarReader::planarGeometry(const QgsFeature& feature) const
{
    QgsGeometry geometry = feature.geometry();
    if (geometry.isEmpty() || mTransform.isShortCircuited())
        return geometry;
    try
    {
        if (geometry.transform(mTransform) == Qgis::GeometryOperationResult::Success &&
            geometry.boundingBox().isFinite())
            return geometry;
    }
    catch (const QgsCsException&)
    {
        // Said below, naming the feature and the layer, like a transform that gave infinities.
    }
    throw VbasParameters::parameterError(
        mParameter,
        QObject::tr("feature %1 of '%2' cannot be transformed from %3 into the plane of the computation; "
                    "check that the layer's CRS is the one its coordinates are in, or reproject it")
            .arg(feature.id())
            .arg(mSourceName, mTransform.sourceCrs().userFriendlyIdentifier()));
}

QHash<QgsFeatureId, std::size_t> vbasFeatureRows(const std::vector<QgsFeatureId>& features)
{
    QHash<QgsFeatureId, std::size_t> rows;
    rows.reserve(int(features.size()));
    for (std::size_t row = 0; row < features.size(); ++row)
        rows.insert(features[row], row);
    return rows;
}

bool vbasIsCsvFile(const QgsVectorLayer* layer)
{
    if (layer == nullptr || layer->dataProvider() == nullptr)
        return false;
    return layer->providerType() == QLatin1String("delimitedtext") ||
           (layer->providerType() == QLatin1String("ogr") &&
            layer->dataProvider()->storageType() == QLatin1String("CSV"));
}

QString vbasKeyText(const QVariant& value)
{
    return value.toString();
}

std::uint32_t VbasCategoryCodes::code(const QVariant& value)
{
    if (VbasCompat::isNull(value))
    {
        if (!mNull)
        {
            mFirstValue.resize(int(mSize) + 1);
            mFirstValue[int(mSize)] = value;
            mNull = mSize++;
        }
        ++mNullRows;
        return *mNull;
    }
    const bool wholeNumber = value.userType() == QMetaType::Int || value.userType() == QMetaType::LongLong;
    if (wholeNumber)
    {
        const auto found = mWholeNumber.constFind(value.toLongLong());
        if (found != mWholeNumber.constEnd())
            return found.value();
    }
    const QString text = vbasKeyText(value);
    const auto found = mText.constFind(text);
    if (found != mText.constEnd())
    {
        if (wholeNumber)
            mWholeNumber.insert(value.toLongLong(), found.value());
        return found.value();
    }
    if (wholeNumber)
        mWholeNumber.insert(value.toLongLong(), mSize);
    mText.insert(text, mSize);
    mFirstValue.resize(int(mSize) + 1);
    mFirstValue[int(mSize)] = value;
    return mSize++;
}

std::vector<vbas::CategoryValue> VbasCategoryCodes::values() const
{
    const std::vector<std::uint32_t> rank = ranks();
    std::vector<vbas::CategoryValue> values(mSize);
    for (std::uint32_t code = 0; code < mSize; ++code)
    {
        vbas::CategoryValue& value = values[rank[code]];
        if (mNull && code == *mNull)
        {
            value.null = true;
            continue;
        }
        const QVariant& first = mFirstValue.at(int(code));
        value.text = vbasKeyText(first).toStdString();
        switch (first.userType())
        {
        case QMetaType::Int:
        case QMetaType::UInt:
        case QMetaType::LongLong:
        case QMetaType::ULongLong:
        case QMetaType::Double:
            value.number = first.toDouble();
            break;
        case QMetaType::QDate:
        case QMetaType::QDateTime:
            value.day = QDate(1970, 1, 1).daysTo(first.toDate());
            break;
        default:
            break;
        }
    }
    return values;
}

QVector<QVariant> VbasCategoryCodes::rankedValues() const
{
    const std::vector<std::uint32_t> rank = ranks();
    QVector<QVariant> values;
    values.resize(int(mSize));
    for (std::uint32_t code = 0; code < mSize; ++code)
        values[int(rank[code])] = mFirstValue.at(int(code));
    return values;
}

std::vector<std::uint32_t> VbasCategoryCodes::ranks() const
{
    std::vector<std::pair<QString, std::uint32_t>> sorted;
    for (auto it = mText.constBegin(); it != mText.constEnd(); ++it)
        sorted.emplace_back(it.key(), it.value());
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::uint32_t> rank(mSize);
    std::uint32_t next = 0;
    if (mNull)
        rank[*mNull] = next++;
    for (const auto& entry : sorted)
        rank[entry.second] = next++;
    return rank;
}

QString vbasValueKey(const QVariant& value)
{
    // NULL is a value of its own, apart from empty text: a control character no field value starts with.
    return VbasCompat::isNull(value) ? QStringLiteral("\x1e") : vbasKeyText(value);
}

VbasJobData loadJobData(QgsFeatureSource& regions, int regionIdField, const VbasPlanarFrame& frame,
                        vbas::RepresentativePoint pointMode, QgsFeatureSource& records,
                        const QgsVectorLayer* recordsLayer, const VbasRecordFields& recordFields,
                        const vbas::DatasetOptions& options, vbas::Feedback& feedback)
{
    VbasJobData data;
    std::vector<vbas::RegionInput> regionInputs;
    QStringList withoutGeometry;
    const auto seconds = [](const QElapsedTimer& timer)
    {
        return QString::number(double(timer.elapsed()) / 1000.0, 'f', 2);
    };
    QElapsedTimer timer;
    timer.start();
    {
        vbas::Feedback::Stage stage(feedback, 0.0, 0.4);
        regionInputs = loadRegions(regions, regionIdField, frame, pointMode, data, withoutGeometry, feedback);
    }
    vbas::RecordTable table;
    {
        vbas::Feedback::Stage stage(feedback, 0.4, 0.9);
        table = loadRecords(records, recordsLayer, recordFields, options, data, feedback);
    }
    feedback.info((data.recordsGrouped
                       ? QObject::tr("Read %1 small areas (REGIONS) and %2 groups of records "
                                     "(RECORDS) in %3 s")
                       : QObject::tr("Read %1 small areas (REGIONS) and %2 rows (RECORDS) in %3 s"))
                      .arg(data.regionFeatures.size())
                      .arg(table.regionKey.size())
                      .arg(seconds(timer))
                      .toStdString());
    checkRegionsWithoutGeometry(withoutGeometry, regionInputs, table, feedback);
    checkRecordsMatchRegions(regions, regionIdField, regionInputs, withoutGeometry, records, recordFields,
                             table);
    std::vector<vbas::QuasiIdentifier> quasiIdentifiers;
    for (const int field : recordFields.quasiIdentifiers)
        quasiIdentifiers.push_back({records.fields().at(field).name().toStdString(), 0});
    vbas::Feedback::Stage stage(feedback, 0.9, 1.0);
    data.dataset.emplace(vbas::Dataset::build(
        std::move(regionInputs), vbas::Schema(std::move(quasiIdentifiers)), table, options, feedback));
    data.recordValues.quasiIdentifierCodes = std::move(table.codes);
    return data;
}

vbas::Sites loadSites(QgsFeatureSource& source, const QString& parameter, const QString& weightField,
                      const VbasPlanarFrame& frame, vbas::Feedback& feedback)
{
    const VbasPlanarReader reader(frame, source, parameter);
    const int weightIndex = weightField.isEmpty() ? -1 : source.fields().lookupField(weightField);
    if (!weightField.isEmpty() && weightIndex < 0)
        throw QgsProcessingException(
            QObject::tr("%1: the weight field '%2' is not in the layer").arg(parameter, weightField));
    vbas::Sites sites;
    std::size_t withoutPoint = 0;
    FeatureLoop loop(source.featureCount(), feedback);
    QgsFeatureRequest request;
    if (weightIndex < 0)
        request.setNoAttributes();
    else
        request.setSubsetOfAttributes(QgsAttributeList{weightIndex});
    QgsFeatureIterator features = source.getFeatures(request);
    QgsFeature feature;
    while (features.nextFeature(feature))
    {
        loop.next();
        const QgsGeometry geometry = reader.planarGeometry(feature);
        if (geometry.isEmpty())
        {
            ++withoutPoint;
            continue;
        }
        double weight = 0.0;
        if (weightIndex >= 0)
        {
            const QVariant value = feature.attribute(weightIndex);
            bool ok = false;
            weight = value.toDouble(&ok);
            if (VbasCompat::isNull(value) || !ok || !std::isfinite(weight))
                throw QgsProcessingException(
                    QObject::tr(
                        "%1: site %2 has no number in its weight field '%3' (value: %4); give every site "
                        "a weight, 0 for none")
                        .arg(parameter)
                        .arg(feature.id())
                        .arg(weightField, value.toString()));
        }
        const QgsMultiPointXY parts =
            geometry.isMultipart() ? geometry.asMultiPoint() : QgsMultiPointXY{geometry.asPoint()};
        for (const QgsPointXY& point : parts)
        {
            sites.points.push_back({point.x(), point.y()});
            if (weightIndex >= 0)
                sites.weights.push_back(weight);
        }
    }
    if (withoutPoint > 0)
        feedback.warning(std::to_string(withoutPoint) + " features without a point were skipped");
    return sites;
}

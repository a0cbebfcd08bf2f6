#include "vbasplanarframe.h"

#include "geometry/PortableMath.h"
#include "vbasparameters.h"
#include "vbasqgiscompat.h"

#include <qgsellipsoidutils.h>
#include <qgsexception.h>
#include <qgsfeatureiterator.h>
#include <qgsfeaturesource.h>
#include <qgsrectangle.h>
#include <qgsunittypes.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

namespace
{
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

// The centre and the reach come from portable arithmetic (vbas::portable), so that every platform chooses the
// same plane.
UnitVector unitVector(const QgsPointXY& lonLat)
{
    double sinLon = 0.0, cosLon = 0.0, sinLat = 0.0, cosLat = 0.0;
    vbas::portable::sinCosDegrees(lonLat.x(), sinLon, cosLon);
    vbas::portable::sinCosDegrees(lonLat.y(), sinLat, cosLat);
    return {cosLat * cosLon, cosLat * sinLon, sinLat};
}

double dot(const UnitVector& a, const UnitVector& b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** Returns the transverse scale c / sin c of an azimuthal equidistant projection on the sphere at `c`
 * (radians) from its centre: its largest distortion of distances and areas there. */
double azimuthalScale(double c)
{
    double sine = 0.0, cosine = 0.0;
    vbas::portable::sinCosDegrees(std::min(c, M_PI - 1e-9) * 180.0 / M_PI, sine, cosine);
    return c < 1e-6 ? 1.0 : c / sine;
}

/** Returns the largest angle (radians) on the sphere from `centre` to any of `lonLat`. */
double reachFrom(const QgsPointXY& centre, const std::vector<QgsPointXY>& lonLat)
{
    const UnitVector from = unitVector(centre);
    double reach = 0.0;
    for (const QgsPointXY& point : lonLat)
        reach = std::max(reach, vbas::portable::acos(dot(unitVector(point), from)));
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
    const QgsPointXY found(vbas::portable::atan2(centre[1], centre[0]) * 180.0 / M_PI,
                           vbas::portable::asin(centre[2]) * 180.0 / M_PI);
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
 * Returns the scale of `toPlane` (from longitude and latitude on the ellipsoid `ellipsoid`) at `lonLat`, by
 * finite differences of about ten metres along the meridian and the parallel, compared with their lengths
 * on the ellipsoid. Throws QgsCsException where the point cannot be projected.
 */
LocalScale localScale(const std::function<QgsPointXY(const QgsPointXY&)>& toPlane,
                      const QgsEllipsoidUtils::EllipsoidParameters& ellipsoid, const QgsPointXY& lonLat)
{
    constexpr double kStep = 1e-4; // degrees
    const double lat = std::clamp(lonLat.y(), -89.9, 89.9);
    const double north = lat + kStep > 89.95 ? -kStep : kStep;
    const QgsPointXY origin = toPlane(QgsPointXY(lonLat.x(), lat));
    const QgsPointXY alongMeridian = toPlane(QgsPointXY(lonLat.x(), lat + north));
    const QgsPointXY alongParallel = toPlane(QgsPointXY(lonLat.x() + kStep, lat));
    const double a = ellipsoid.semiMajor;
    const double e2 = 1.0 - (ellipsoid.semiMinor * ellipsoid.semiMinor) / (a * a);
    double sinPhi = 0.0, cosPhi = 0.0;
    vbas::portable::sinCosDegrees(lat, sinPhi, cosPhi);
    const double w = std::sqrt(1.0 - e2 * sinPhi * sinPhi);
    const double meridian = a * (1.0 - e2) / (w * w * w) * std::abs(north) * M_PI / 180.0; // M dphi
    const double parallel = a / w * cosPhi * kStep * M_PI / 180.0; // N cos(phi) dlambda
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
            throw VbasParameters::parameterError(VbasParameters::kComputationCrs, problem);
    }
    setUp(regions.sourceExtent(), sampleVertices(regions), computationCrs, false);
}

QString VbasPlanarFrame::computationCrsProblem(const QgsCoordinateReferenceSystem& computationCrs,
                                               const QgsCoordinateReferenceSystem& sourceCrs)
{
    const QString instead = QObject::tr("choose a projected CRS in metres made for the area of REGIONS (an "
                                        "equal-area or conformal projection of the country), or leave %1 "
                                        "empty to let VBAS choose")
                                .arg(VbasParameters::kComputationCrs);
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
            .arg(computationCrs.userFriendlyIdentifier(), VbasParameters::kComputationCrs);
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
            throw VbasParameters::parameterError(VbasParameters::kComputationCrs, problem);
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
        // To a millionth of a degree (10 cm), as the plane has been centred since it was PROJ's.
        const QgsPointXY rounded(std::round(centre.x() * 1e6) / 1e6, std::round(centre.y() * 1e6) / 1e6);
        const QgsEllipsoidUtils::EllipsoidParameters ellipsoid = ellipsoidOf(sourceCrs);
        mProjection.emplace(rounded.x(), rounded.y(), ellipsoid.semiMajor,
                            1.0 - (ellipsoid.semiMinor * ellipsoid.semiMinor) /
                                      (ellipsoid.semiMajor * ellipsoid.semiMajor));
        mPlanarCrs = azimuthalCrsFor(sourceCrs, rounded);
    }
    else
        mPlanarCrs = metricCrsFor(sourceCrs);
    if (!mPlanarCrs.isValid() && sourceCrs.isValid())
        throw VbasParameters::parameterError(
            VbasParameters::kRegions,
            QObject::tr("no planar projection in metres could be made for the CRS of REGIONS (%1); "
                        "reproject REGIONS to a projected CRS in metres first")
                .arg(sourceCrs.userFriendlyIdentifier()));
    if (mPlanarCrs != mSourceCrs && !mProjection)
    {
        mToPlane.emplace(mSourceCrs, mPlanarCrs, mTransformContext);
        mToSource.emplace(mPlanarCrs, mSourceCrs, mTransformContext);
    }
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
    const QgsCoordinateTransform toPlanarCrs(geographic, mPlanarCrs, mTransformContext);
    const std::function<QgsPointXY(const QgsPointXY&)> toPlane = [&](const QgsPointXY& lonLat)
    {
        if (!mProjection)
            return toPlanarCrs.transform(lonLat);
        const vbas::Point planar = mProjection->forward({lonLat.x(), lonLat.y()});
        return QgsPointXY(planar.x, planar.y);
    };
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
    if (mAreaDistortion > kDistortionLimit && !mProjection)
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
    if (!mToSource && !mProjection)
        return QObject::tr(
                   "computing in the CRS of REGIONS (%1): distances in metres, areas in square metres")
            .arg(mSourceCrs.userFriendlyIdentifier());
    if (mGivenCrs)
        return QObject::tr("REGIONS are in %1; computing in %2, the %3 (distances in metres, areas in "
                           "square metres), results written back in %1")
            .arg(mSourceCrs.userFriendlyIdentifier(), mPlanarCrs.userFriendlyIdentifier(),
                 VbasParameters::kComputationCrs);
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
        where = QObject::tr("on %1, the %2,")
                    .arg(mPlanarCrs.userFriendlyIdentifier(), VbasParameters::kComputationCrs);
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
        .arg(where, percent(mAreaDistortion), percent(mDistanceDistortion), measured,
             VbasParameters::kComputationCrs);
}

double VbasPlanarFrame::area(const std::vector<unsigned char>& planarWkb, double planarArea) const
{
    if ((!mProjection && !mEllipsoidal) || planarWkb.empty())
        return planarArea;
    QgsGeometry geometry;
    geometry.fromWkb(QByteArray(reinterpret_cast<const char*>(planarWkb.data()), int(planarWkb.size())));
    if (mProjection)
    {
        // On the ellipsoid by VBAS's own arithmetic: the fitted sphere's areas err by up to 10^-4 per 100 km,
        // PROJ's and GeographicLib's differ in the last digits between versions.
        double area = 0.0;
        for (const QgsPolygonXY& polygon :
             geometry.isMultipart() ? geometry.asMultiPolygon() : QgsMultiPolygonXY{geometry.asPolygon()})
            for (int r = 0; r < polygon.size(); ++r)
            {
                std::vector<vbas::Point> ring;
                ring.reserve(std::size_t(polygon.at(r).size()));
                for (const QgsPointXY& point : polygon.at(r))
                    ring.push_back({point.x(), point.y()});
                const double ringArea = std::abs(mProjection->ellipsoidalArea(ring));
                area += r == 0 ? ringArea : -ringArea;
            }
        return area;
    }
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
    if (mProjection)
    {
        planar.transformVertices(
            [this](const QgsPoint& point)
            {
                const vbas::Point lonLat = mProjection->inverse({point.x(), point.y()});
                return QgsPoint(lonLat.x, lonLat.y);
            });
        return planar;
    }
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

QgsGeometry VbasPlanarFrame::toPlane(QgsGeometry source) const
{
    if (mProjection)
    {
        source.transformVertices(
            [this](const QgsPoint& point)
            {
                const vbas::Point planar = mProjection->forward({point.x(), point.y()});
                return QgsPoint(planar.x, planar.y);
            });
        return source;
    }
    if (mToPlane)
        source.transform(*mToPlane);
    return source;
}

VbasPlanarReader::VbasPlanarReader(const VbasPlanarFrame& frame, const QgsFeatureSource& source,
                                   const QString& parameter)
    : mFrame(frame)
    , mTransform(source.sourceCrs(), frame.sourceCrs(), frame.transformContext())
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
    if (geometry.isEmpty())
        return geometry;
    try
    {
        if ((mTransform.isShortCircuited() ||
             geometry.transform(mTransform) == Qgis::GeometryOperationResult::Success) &&
            geometry.boundingBox().isFinite())
        {
            geometry = mFrame.toPlane(geometry);
            if (geometry.boundingBox().isFinite())
                return geometry;
        }
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

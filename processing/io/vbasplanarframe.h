#pragma once

#include "geometry/AzimuthalEquidistant.h"
#include "geometry/RegionGeometries.h"

#include <qgscoordinatereferencesystem.h>
#include <qgscoordinatetransform.h>
#include <qgsdistancearea.h>
#include <qgsfeature.h>
#include <qgsgeometry.h>

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
 * The projection of geographic regions is VBAS's own (vbas::AzimuthalEquidistant), not PROJ's: it gives the
 * same plane to the last bit on every platform and with every version of PROJ, and so the same release
 * (PROJ's own moved points by up to 3 nm between PROJ 9.1 and 9.6, which changed the demo's regions).
 * Layers in another CRS are brought into the regions' CRS by QGIS first. planarCrs() is then PROJ's
 * nearest equivalent, for drawing the plane (the map image), never for computing in it.
 *
 * The centre is found on the sphere, from a sample of the regions' vertices (the centre of the
 * smallest spherical cap holding them), so that data across the antimeridian (Alaska and the
 * Aleutians) is centred on itself, not on the other side of the Earth; the extent's centre is kept where
 * it distorts no more than 0.01 % more (results stay as they were where it was right). The scale
 * distortion of the plane is measured at the same vertices (Tissot's indicatrix, by finite differences
 * against the ellipsoid); beyond kDistortionLimit the frame has a warning for the log. area() measures on
 * the ellipsoid the regions of VBAS's own projection always (by its own arithmetic, as the plane), and those
 * of a PROJ plane beyond kDistortionLimit.
 */
class VbasPlanarFrame
{
public:
    /** Relative error of areas or distances over the data above which the frame warns and area() measures on
     * the ellipsoid. */
    static constexpr double kDistortionLimit = 0.01;

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
    /** Whether area() measures on the ellipsoid: VBAS's own projection, or a plane whose areas are off by
     * more than kDistortionLimit. */
    bool areasOnEllipsoid() const { return mProjection || mEllipsoidal; }
    /**
     * Returns the area to report of a planar polygon (engine WKB) whose planar area is `planarArea`: its area
     * on the ellipsoid when areasOnEllipsoid(), else `planarArea`.
     */
    double area(const std::vector<unsigned char>& planarWkb, double planarArea) const;

    /** Returns a planar geometry (engine output) in the source CRS; throws QgsProcessingException. */
    QgsGeometry toSource(QgsGeometry planar) const;
    QgsPointXY toSource(const vbas::Point& planar) const;
    /**
     * Returns a geometry in the source CRS in the plane (the frame's own projection, or QGIS's transform to
     * the planar CRS); throws QgsCsException where it cannot be projected.
     */
    QgsGeometry toPlane(QgsGeometry source) const;

private:
    /** Chooses the plane, checks it and measures its distortion at `samples` (points in the source CRS). */
    void setUp(const QgsRectangle& sourceExtent, const std::vector<QgsPointXY>& samples,
               const QgsCoordinateReferenceSystem& computationCrs, bool centreOnExtent);
    /** Measures the plane's distortion at `samples` (points in the source CRS). */
    void measureDistortion(const std::vector<QgsPointXY>& samples);

    QgsCoordinateReferenceSystem mSourceCrs;
    QgsCoordinateReferenceSystem mPlanarCrs;
    /** The projection of geographic regions into the plane, when VBAS made the plane for them. */
    std::optional<vbas::AzimuthalEquidistant> mProjection;
    QgsCoordinateTransformContext mTransformContext;
    /** QGIS's transforms between the regions' CRS and a planar CRS they are not in (not VBAS's projection).
     */
    std::optional<QgsCoordinateTransform> mToPlane;
    std::optional<QgsCoordinateTransform> mToSource;
    bool mGivenCrs = false; //!< the plane is COMPUTATION_CRS
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
    const VbasPlanarFrame& mFrame;
    /** From the layer's CRS to the regions' CRS (short-circuited for the regions themselves). */
    QgsCoordinateTransform mTransform;
    QString mSourceName;
    QString mParameter;
};

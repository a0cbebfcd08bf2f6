#pragma once

#include "base/Error.h"
#include "base/Types.h"

#include <geos_c.h>

#include <memory>
#include <string>
#include <vector>

namespace vbas::geos
{

/**
 * One reentrant GEOS context (one per thread), with an error handler that keeps the last
 * message so failures can say what GEOS objected to.
 */
class Context
{
public:
    Context();
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    GEOSContextHandle_t handle() const { return mHandle; }
    const std::string& lastError() const { return mLastError; }
    void clearError() { mLastError.clear(); }

private:
    static void onError(const char* message, void* userData);
    GEOSContextHandle_t mHandle;
    std::string mLastError;
};

/** Destroys a geometry in the context that made it. */
struct GeometryDeleter
{
    GEOSContextHandle_t handle;
    void operator()(GEOSGeometry* geometry) const
    {
        if (geometry != nullptr)
            GEOSGeom_destroy_r(handle, geometry);
    }
};
using GeometryPtr = std::unique_ptr<GEOSGeometry, GeometryDeleter>;

inline GeometryPtr own(const Context& context, GEOSGeometry* geometry)
{
    return GeometryPtr(geometry, GeometryDeleter{context.handle()});
}

/**
 * Returns `geometry` in GEOS's normal form (GEOSNormalize: rings start at their least point, shells and holes
 * turn one way, parts in order). GEOS versions make the same polygon with its rings starting elsewhere or
 * turning the other way (3.11 and 3.13 unioning the same small areas); normalized it has one form, so that
 * the figures summed along its rings and the geometry published are the same bits whichever GEOS made it.
 */
GeometryPtr normalized(Context& context, GeometryPtr geometry);

/** Well-known binary of a geometry (2D). */
std::vector<unsigned char> toWkb(const Context& context, const GEOSGeometry* geometry);
/** Geometry from well-known binary; throws Error(Regions) with GEOS's reason when unreadable. */
GeometryPtr fromWkb(Context& context, const unsigned char* wkb, std::size_t size);
/** Geometry from well-known text (tests, data files). */
GeometryPtr fromWkt(Context& context, const std::string& wkt);

/** Whether `g` is a polygon or a multipolygon. */
bool isPolygonal(GEOSContextHandle_t h, const GEOSGeometry* g);
/**
 * The polygons of `geometry`: itself when polygonal, the union of its polygonal members when a collection
 * (what MakeValid and overlays return for mixed results: lines and points where shapes only touch), else
 * null.
 */
GeometryPtr polygonalPart(Context& context, GeometryPtr geometry);

/**
 * Calls visit(a, b) for every segment of every line and polygon ring of `g`, collections included,
 * skipping repeated points.
 */
template <typename Visit> void forEachSegment(GEOSContextHandle_t h, const GEOSGeometry* g, Visit&& visit)
{
    const int type = GEOSGeomTypeId_r(h, g);
    if (type == GEOS_LINESTRING || type == GEOS_LINEARRING)
    {
        const GEOSCoordSequence* coordinates = GEOSGeom_getCoordSeq_r(h, g);
        unsigned size = 0;
        GEOSCoordSeq_getSize_r(h, coordinates, &size);
        Point previous;
        for (unsigned i = 0; i < size; ++i)
        {
            Point p;
            GEOSCoordSeq_getXY_r(h, coordinates, i, &p.x, &p.y);
            if (i > 0 && p != previous)
                visit(previous, p);
            previous = p;
        }
    }
    else if (type == GEOS_POLYGON)
    {
        forEachSegment(h, GEOSGetExteriorRing_r(h, g), visit);
        for (int i = 0; i < GEOSGetNumInteriorRings_r(h, g); ++i)
            forEachSegment(h, GEOSGetInteriorRingN_r(h, g, i), visit);
    }
    else if (type == GEOS_MULTILINESTRING || type == GEOS_MULTIPOLYGON || type == GEOS_GEOMETRYCOLLECTION)
    {
        for (int i = 0; i < GEOSGetNumGeometries_r(h, g); ++i)
            forEachSegment(h, GEOSGetGeometryN_r(h, g, i), visit);
    }
}

} // namespace vbas::geos

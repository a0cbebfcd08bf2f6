#include "Geos.h"

namespace vbas::geos
{

Context::Context()
    : mHandle(GEOS_init_r())
{
    GEOSContext_setErrorMessageHandler_r(mHandle, &Context::onError, this);
}

Context::~Context()
{
    GEOS_finish_r(mHandle);
}

void Context::onError(const char* message, void* userData)
{
    static_cast<Context*>(userData)->mLastError = message != nullptr ? message : "unknown GEOS error";
}

GeometryPtr normalized(Context& context, GeometryPtr geometry)
{
    if (geometry && GEOSNormalize_r(context.handle(), geometry.get()) != 0)
        throw Error(Subject::Regions, "a geometry cannot be normalized: " + context.lastError());
    return geometry;
}

std::vector<unsigned char> toWkb(const Context& context, const GEOSGeometry* geometry)
{
    GEOSWKBWriter* writer = GEOSWKBWriter_create_r(context.handle());
    std::size_t size = 0;
    unsigned char* buffer = GEOSWKBWriter_write_r(context.handle(), writer, geometry, &size);
    GEOSWKBWriter_destroy_r(context.handle(), writer);
    if (buffer == nullptr)
        throw Error(Subject::Regions, "could not write a geometry: " + context.lastError());
    std::vector<unsigned char> wkb(buffer, buffer + size);
    GEOSFree_r(context.handle(), buffer);
    return wkb;
}

GeometryPtr fromWkb(Context& context, const unsigned char* wkb, std::size_t size)
{
    context.clearError();
    GeometryPtr geometry = own(context, GEOSGeomFromWKB_buf_r(context.handle(), wkb, size));
    if (!geometry)
        throw Error(Subject::Regions, "a region geometry cannot be read: " + context.lastError());
    return geometry;
}

GeometryPtr fromWkt(Context& context, const std::string& wkt)
{
    context.clearError();
    GeometryPtr geometry = own(context, GEOSGeomFromWKT_r(context.handle(), wkt.c_str()));
    if (!geometry)
        throw Error(Subject::Regions, "a region geometry cannot be read: " + context.lastError());
    return geometry;
}

bool isPolygonal(GEOSContextHandle_t h, const GEOSGeometry* g)
{
    const int type = GEOSGeomTypeId_r(h, g);
    return type == GEOS_POLYGON || type == GEOS_MULTIPOLYGON;
}

GeometryPtr polygonalPart(Context& context, GeometryPtr geometry)
{
    const GEOSContextHandle_t h = context.handle();
    if (isPolygonal(h, geometry.get()))
        return geometry;
    if (GEOSGeomTypeId_r(h, geometry.get()) != GEOS_GEOMETRYCOLLECTION)
        return own(context, nullptr);
    std::vector<GEOSGeometry*> polygons;
    for (int i = 0; i < GEOSGetNumGeometries_r(h, geometry.get()); ++i)
    {
        const GEOSGeometry* part = GEOSGetGeometryN_r(h, geometry.get(), i);
        if (isPolygonal(h, part))
            polygons.push_back(GEOSGeom_clone_r(h, part));
    }
    if (polygons.empty())
        return own(context, nullptr);
    GeometryPtr collection =
        own(context, GEOSGeom_createCollection_r(h, GEOS_GEOMETRYCOLLECTION, polygons.data(),
                                                 unsigned(polygons.size())));
    return own(context, GEOSUnaryUnion_r(h, collection.get()));
}

} // namespace vbas::geos

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

} // namespace vbas::geos

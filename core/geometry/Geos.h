#pragma once

#include "Error.h"

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

/** Well-known binary of a geometry (2D). */
std::vector<unsigned char> toWkb(const Context& context, const GEOSGeometry* geometry);
/** Geometry from well-known binary; throws Error(Regions) with GEOS's reason when unreadable. */
GeometryPtr fromWkb(Context& context, const unsigned char* wkb, std::size_t size);
/** Geometry from well-known text (tests, data files). */
GeometryPtr fromWkt(Context& context, const std::string& wkt);

} // namespace vbas::geos

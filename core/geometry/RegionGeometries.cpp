#include "RegionGeometries.h"

namespace vbas
{
namespace
{
bool isPolygonal(GEOSContextHandle_t h, const GEOSGeometry* g)
{
    const int type = GEOSGeomTypeId_r(h, g);
    return type == GEOS_POLYGON || type == GEOS_MULTIPOLYGON;
}

/** The polygons of a geometry collection (what MakeValid returns for mixed results), or null. */
geos::GeometryPtr polygonalPart(geos::Context& context, geos::GeometryPtr geometry)
{
    const GEOSContextHandle_t h = context.handle();
    if (isPolygonal(h, geometry.get()))
        return geometry;
    if (GEOSGeomTypeId_r(h, geometry.get()) != GEOS_GEOMETRYCOLLECTION)
        return geos::own(context, nullptr);
    std::vector<GEOSGeometry*> polygons;
    for (int i = 0; i < GEOSGetNumGeometries_r(h, geometry.get()); ++i)
    {
        const GEOSGeometry* part = GEOSGetGeometryN_r(h, geometry.get(), i);
        if (isPolygonal(h, part))
            polygons.push_back(GEOSGeom_clone_r(h, part));
    }
    if (polygons.empty())
        return geos::own(context, nullptr);
    geos::GeometryPtr collection =
        geos::own(context, GEOSGeom_createCollection_r(h, GEOS_GEOMETRYCOLLECTION, polygons.data(),
                                                       unsigned(polygons.size())));
    return geos::own(context, GEOSUnaryUnion_r(h, collection.get()));
}
} // namespace

RegionGeometries::RegionGeometries() = default;

void RegionGeometries::add(geos::GeometryPtr polygon, const std::string& regionId)
{
    const GEOSContextHandle_t h = mContext.handle();
    if (!polygon || !isPolygonal(h, polygon.get()))
        throw Error(Subject::Regions,
                    "region '" + regionId + "' is not a polygon; give a polygon layer of small areas");
    if (GEOSisEmpty_r(h, polygon.get()) == 1)
        throw Error(Subject::Regions, "region '" + regionId + "' has an empty geometry; repair or remove it");
    if (GEOSisValid_r(h, polygon.get()) != 1)
    {
        geos::GeometryPtr repaired =
            polygonalPart(mContext, geos::own(mContext, GEOSMakeValid_r(h, polygon.get())));
        if (!repaired || GEOSisEmpty_r(h, repaired.get()) == 1)
            throw Error(Subject::Regions,
                        "region '" + regionId +
                            "' has an invalid geometry that cannot be repaired; fix it first");
        polygon = std::move(repaired);
        ++mRepaired;
    }
    mGeometries.push_back(std::move(polygon));
}

void RegionGeometries::addWkb(const unsigned char* wkb, std::size_t size, const std::string& regionId)
{
    add(geos::fromWkb(mContext, wkb, size), regionId);
}

Point RegionGeometries::representativePoint(std::size_t i, RepresentativePoint mode) const
{
    const GEOSContextHandle_t h = mContext.handle();
    geos::GeometryPtr point = geos::own(mContext, mode == RepresentativePoint::Centroid
                                                      ? GEOSGetCentroid_r(h, mGeometries[i].get())
                                                      : GEOSPointOnSurface_r(h, mGeometries[i].get()));
    Point result;
    if (!point || GEOSGeomGetX_r(h, point.get(), &result.x) != 1 ||
        GEOSGeomGetY_r(h, point.get(), &result.y) != 1)
        throw Error(Subject::Regions, "no representative point for a region: " + mContext.lastError());
    return result;
}

double RegionGeometries::area(std::size_t i) const
{
    double value = 0.0;
    GEOSArea_r(mContext.handle(), mGeometries[i].get(), &value);
    return value;
}

} // namespace vbas

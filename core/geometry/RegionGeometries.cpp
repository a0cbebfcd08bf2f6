#include "RegionGeometries.h"

namespace vbas
{
RegionGeometries::RegionGeometries() = default;

void RegionGeometries::add(geos::GeometryPtr polygon, const std::string& regionId)
{
    const GEOSContextHandle_t h = mContext.handle();
    if (!polygon || !geos::isPolygonal(h, polygon.get()))
        throw Error(Subject::Regions,
                    "region '" + regionId + "' is not a polygon; give a polygon layer of small areas");
    if (GEOSisEmpty_r(h, polygon.get()) == 1)
        throw Error(Subject::Regions, "region '" + regionId + "' has an empty geometry; repair or remove it");
    if (GEOSisValid_r(h, polygon.get()) != 1)
    {
        geos::GeometryPtr repaired =
            geos::polygonalPart(mContext, geos::own(mContext, GEOSMakeValid_r(h, polygon.get())));
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

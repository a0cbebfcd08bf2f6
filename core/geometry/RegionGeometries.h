#pragma once

#include "Geos.h"
#include "base/Types.h"

#include <vector>

namespace vbas
{

/** How an initial region becomes a point (SPEC section 1). */
enum class RepresentativePoint
{
    Centroid,       //!< centre of mass; may fall outside a concave or multipart region
    PointOnSurface, //!< a point guaranteed inside the region
};

/**
 * The polygons of the initial regions, in the region order of the Dataset, held as GEOS
 * geometries. Invalid polygons are repaired on the way in (GEOSMakeValid, keeping only the
 * polygonal part) and counted, so the dissolve never sees them.
 */
class RegionGeometries
{
public:
    RegionGeometries();

    /** Adds the next region's polygon; throws Error(Regions) when it is not polygonal or empty. */
    void add(geos::GeometryPtr polygon, const std::string& regionId);
    void addWkb(const unsigned char* wkb, std::size_t size, const std::string& regionId);

    std::size_t size() const { return mGeometries.size(); }
    std::size_t repairedCount() const { return mRepaired; }
    const GEOSGeometry* geometry(std::size_t i) const { return mGeometries[i].get(); }
    geos::Context& context() const { return mContext; }

    Point representativePoint(std::size_t i, RepresentativePoint mode) const;
    double area(std::size_t i) const;

private:
    mutable geos::Context mContext;
    std::vector<geos::GeometryPtr> mGeometries;
    std::size_t mRepaired = 0;
};

} // namespace vbas

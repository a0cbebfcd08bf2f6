#include "Dissolve.h"

#include <cmath>
#include <utility>

namespace vbas
{
namespace
{
constexpr double kPi = 3.14159265358979323846;

std::size_t polygonParts(GEOSContextHandle_t h, const GEOSGeometry* g)
{
    if (GEOSisEmpty_r(h, g) == 1)
        return 0;
    return GEOSGeomTypeId_r(h, g) == GEOS_POLYGON ? 1 : std::size_t(GEOSGetNumGeometries_r(h, g));
}

/** Ring area at or below this share of its aggregate's area: a slit, not a hole. */
constexpr double kSlitShare = 1e-9;

/**
 * `polygon` without its slits: interior rings of (next to) no area, which some GEOS versions (3.11) leave
 * where member borders meet imperfectly and others (3.13) do not. They add length to the perimeter (and so
 * change the compactness) without enclosing anything.
 */
GEOSGeometry* withoutSlits(GEOSContextHandle_t h, const GEOSGeometry* polygon, double minimumHoleArea)
{
    std::vector<GEOSGeometry*> holes;
    for (int i = 0; i < GEOSGetNumInteriorRings_r(h, polygon); ++i)
    {
        GEOSGeometry* ring = GEOSGeom_clone_r(h, GEOSGetInteriorRingN_r(h, polygon, i));
        GEOSGeometry* filled = GEOSGeom_createPolygon_r(h, GEOSGeom_clone_r(h, ring), nullptr, 0);
        double area = 0.0;
        if (filled != nullptr)
            GEOSArea_r(h, filled, &area);
        GEOSGeom_destroy_r(h, filled);
        if (area > minimumHoleArea)
            holes.push_back(ring);
        else
            GEOSGeom_destroy_r(h, ring);
    }
    return GEOSGeom_createPolygon_r(h, GEOSGeom_clone_r(h, GEOSGetExteriorRing_r(h, polygon)), holes.data(),
                                    unsigned(holes.size()));
}

geos::GeometryPtr unionOfMembers(geos::Context& context, const RegionGeometries& regions,
                                 const Aggregation& aggregation, std::size_t a)
{
    const GEOSContextHandle_t h = context.handle();
    std::vector<GEOSGeometry*> members;
    for (std::size_t m = aggregation.memberOffsets[a]; m < aggregation.memberOffsets[a + 1]; ++m)
    {
        const GEOSGeometry* polygon = regions.geometry(aggregation.members[m]);
        // Coverage union wants polygons, not multipolygons: flatten.
        if (GEOSGeomTypeId_r(h, polygon) == GEOS_MULTIPOLYGON)
            for (int i = 0; i < GEOSGetNumGeometries_r(h, polygon); ++i)
                members.push_back(GEOSGeom_clone_r(h, GEOSGetGeometryN_r(h, polygon, i)));
        else
            members.push_back(GEOSGeom_clone_r(h, polygon));
    }
    const geos::GeometryPtr collection =
        geos::own(context, GEOSGeom_createCollection_r(h, GEOS_GEOMETRYCOLLECTION, members.data(),
                                                       unsigned(members.size())));
    geos::GeometryPtr merged = geos::own(context, GEOSCoverageUnion_r(h, collection.get()));
    if (merged && GEOSisValid_r(h, merged.get()) == 1)
        return geos::normalized(context, std::move(merged));
    context.clearError();
    merged = geos::own(context, GEOSUnaryUnion_r(h, collection.get()));
    if (!merged)
        throw Error(Subject::Regions, "the polygons of aggregate " + std::to_string(a) +
                                          " cannot be merged: " + context.lastError());
    return geos::normalized(context, std::move(merged));
}
} // namespace

geos::GeometryPtr removeSlits(geos::Context& context, geos::GeometryPtr merged)
{
    const GEOSContextHandle_t h = context.handle();
    double area = 0.0;
    GEOSArea_r(h, merged.get(), &area);
    const double minimumHoleArea = kSlitShare * area;
    const int type = GEOSGeomTypeId_r(h, merged.get());
    if (type == GEOS_POLYGON)
        return geos::own(context, withoutSlits(h, merged.get(), minimumHoleArea));
    if (type != GEOS_MULTIPOLYGON)
        return merged;
    std::vector<GEOSGeometry*> parts;
    for (int i = 0; i < GEOSGetNumGeometries_r(h, merged.get()); ++i)
        parts.push_back(withoutSlits(h, GEOSGetGeometryN_r(h, merged.get(), i), minimumHoleArea));
    return geos::own(context,
                     GEOSGeom_createCollection_r(h, GEOS_MULTIPOLYGON, parts.data(), unsigned(parts.size())));
}

std::vector<DissolvedAggregate> dissolve(const RegionGeometries& regions, const Aggregation& aggregation,
                                         Feedback& feedback)
{
    geos::Context& context = regions.context();
    const GEOSContextHandle_t h = context.handle();
    std::vector<DissolvedAggregate> dissolved(aggregation.size());
    for (std::size_t a = 0; a < aggregation.size(); ++a)
    {
        if (a % 64 == 0)
        {
            feedback.checkCanceled();
            feedback.setProgress(double(a) / double(aggregation.size()));
        }
        const geos::GeometryPtr merged =
            removeSlits(context, unionOfMembers(context, regions, aggregation, a));
        DissolvedAggregate& out = dissolved[a];
        GEOSArea_r(h, merged.get(), &out.area);
        GEOSLength_r(h, merged.get(), &out.perimeter);
        out.parts = polygonParts(h, merged.get());
        out.compactness = out.perimeter > 0.0 ? 4.0 * kPi * out.area / (out.perimeter * out.perimeter) : 0.0;
        out.wkb = geos::toWkb(context, merged.get());
    }
    return dissolved;
}

} // namespace vbas

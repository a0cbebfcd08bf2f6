#include "ClippedCells.h"

#include "partition/VoronoiCells.h"

namespace vbas
{
namespace
{
geos::GeometryPtr polygonOf(geos::Context& context, const std::vector<Point>& ring)
{
    const GEOSContextHandle_t h = context.handle();
    GEOSCoordSequence* coordinates = GEOSCoordSeq_create_r(h, unsigned(ring.size()), 2);
    for (std::size_t i = 0; i < ring.size(); ++i)
        GEOSCoordSeq_setXY_r(h, coordinates, unsigned(i), ring[i].x, ring[i].y);
    GEOSGeometry* shell = GEOSGeom_createLinearRing_r(h, coordinates);
    return geos::own(context, GEOSGeom_createPolygon_r(h, shell, nullptr, 0));
}
} // namespace

std::vector<std::vector<unsigned char>> clippedVoronoiCells(const RegionGeometries& regions,
                                                            const std::vector<Point>& sites,
                                                            const std::vector<double>& weights,
                                                            Feedback& feedback)
{
    geos::Context& context = regions.context();
    const GEOSContextHandle_t h = context.handle();
    std::vector<GEOSGeometry*> parts;
    for (std::size_t i = 0; i < regions.size(); ++i)
        parts.push_back(GEOSGeom_clone_r(h, regions.geometry(i)));
    const geos::GeometryPtr collection =
        geos::own(context, GEOSGeom_createCollection_r(h, GEOS_GEOMETRYCOLLECTION, parts.data(),
                                                       unsigned(parts.size())));
    const geos::GeometryPtr area = geos::own(context, GEOSUnaryUnion_r(h, collection.get()));
    if (!area)
        throw Error(Subject::Regions, "the study area cannot be formed: " + context.lastError());
    const GEOSPreparedGeometry* prepared = GEOSPrepare_r(h, area.get());

    const std::vector<std::vector<Point>> rings = voronoiCells(sites, weights);
    std::vector<std::vector<unsigned char>> cells(sites.size());
    for (std::size_t s = 0; s < sites.size(); ++s)
    {
        if (s % 256 == 0)
            feedback.checkCanceled();
        if (rings[s].size() < 4)
            continue;
        const geos::GeometryPtr cell = polygonOf(context, rings[s]);
        if (GEOSPreparedContainsProperly_r(h, prepared, cell.get()) == 1)
            cells[s] = geos::toWkb(context, cell.get());
        else if (GEOSPreparedIntersects_r(h, prepared, cell.get()) == 1)
        {
            const geos::GeometryPtr clipped =
                geos::own(context, GEOSIntersection_r(h, cell.get(), area.get()));
            if (clipped && GEOSisEmpty_r(h, clipped.get()) == 0)
                cells[s] = geos::toWkb(context, clipped.get());
        }
    }
    GEOSPreparedGeom_destroy_r(h, prepared);
    return cells;
}

} // namespace vbas

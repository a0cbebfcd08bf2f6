#include "ClippedCells.h"

#include "geometry/VoronoiCells.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>

namespace vbas
{
namespace
{
/**
 * The cell of a ring of dual points: their convex hull. A Voronoi or power cell is convex, so the hull is the
 * cell; where sites are nearly cocircular (sites on a grid), rounded circumcentres fold the ring into a
 * self-intersecting one, which clipped to more than its cell (or which GEOS refuses to clip), never the hull.
 */
geos::GeometryPtr cellOf(geos::Context& context, const std::vector<Point>& ring)
{
    const GEOSContextHandle_t h = context.handle();
    std::vector<GEOSGeometry*> points;
    for (std::size_t i = 0; i + 1 < ring.size(); ++i) // the ring repeats its first point last
        points.push_back(GEOSGeom_createPointFromXY_r(h, ring[i].x, ring[i].y));
    const geos::GeometryPtr vertices = geos::own(
        context, GEOSGeom_createCollection_r(h, GEOS_MULTIPOINT, points.data(), unsigned(points.size())));
    return geos::own(context, GEOSConvexHull_r(h, vertices.get()));
}

/** Throws for a GEOS predicate that failed (2): a cell left out for it would go unexplained. */
bool holds(char predicate, const geos::Context& context, SiteIndex site)
{
    if (predicate == 2)
        throw Error(Subject::Partition, "the cell of site " + std::to_string(site + 1) +
                                            " cannot be placed in the study area: " + context.lastError());
    return predicate == 1;
}
} // namespace

ClippedCells clippedVoronoiCells(const RegionGeometries& regions, const std::vector<Point>& sites,
                                 const std::vector<double>& weights, Feedback& feedback)
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
    const std::unique_ptr<const GEOSPreparedGeometry, std::function<void(const GEOSPreparedGeometry*)>>
        prepared(GEOSPrepare_r(h, area.get()),
                 [h](const GEOSPreparedGeometry* p) { GEOSPreparedGeom_destroy_r(h, p); });

    // Sites per location, to tell a site that stands where another does from one hidden by weights.
    std::map<std::pair<double, double>, std::size_t> sitesAt;
    for (const Point& site : sites)
        ++sitesAt[{site.x, site.y}];
    const std::vector<std::vector<Point>> rings = voronoiCells(sites, weights);
    ClippedCells cells;
    cells.wkb.resize(sites.size());
    for (SiteIndex s = 0; s < sites.size(); ++s)
    {
        if (s % 256 == 0)
            feedback.checkCanceled();
        if (rings[s].size() < 4)
        {
            cells.withoutCell.push_back(
                {s, sitesAt[{sites[s].x, sites[s].y}] > 1 ? NoCell::SameLocation : NoCell::Hidden});
            continue;
        }
        const geos::GeometryPtr cell = cellOf(context, rings[s]);
        if (!cell)
            throw Error(Subject::Partition, "the cell of site " + std::to_string(s + 1) +
                                                " cannot be formed: " + context.lastError());
        if (holds(GEOSPreparedContainsProperly_r(h, prepared.get(), cell.get()), context, s))
            cells.wkb[s] = geos::toWkb(context, cell.get());
        else if (holds(GEOSPreparedIntersects_r(h, prepared.get(), cell.get()), context, s))
        {
            geos::GeometryPtr clipped = geos::own(context, GEOSIntersection_r(h, cell.get(), area.get()));
            if (!clipped)
                throw Error(Subject::Partition,
                            "the cell of site " + std::to_string(s + 1) +
                                " cannot be clipped to the study area: " + context.lastError());
            // Where the cell only touches the area, the intersection is a line or a point: no area.
            clipped = geos::normalized(context, geos::polygonalPart(context, std::move(clipped)));
            if (clipped && GEOSisEmpty_r(h, clipped.get()) == 0)
                cells.wkb[s] = geos::toWkb(context, clipped.get());
        }
        if (cells.wkb[s].empty())
            cells.withoutCell.push_back({s, NoCell::OutsideArea});
    }
    return cells;
}

} // namespace vbas

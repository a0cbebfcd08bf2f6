#include "VoronoiCells.h"

#include <CGAL/Delaunay_triangulation_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>

#include <algorithm>

namespace vbas
{
namespace
{
using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using VertexBase = CGAL::Triangulation_vertex_base_with_info_2<SiteIndex, Kernel>;
using Delaunay = CGAL::Delaunay_triangulation_2<Kernel, CGAL::Triangulation_data_structure_2<VertexBase>>;
} // namespace

std::vector<std::vector<Point>> voronoiCells(const std::vector<Point>& sites)
{
    std::vector<std::vector<Point>> cells(sites.size());
    if (sites.empty())
        return cells;
    double minX = sites[0].x, maxX = sites[0].x, minY = sites[0].y, maxY = sites[0].y;
    for (const Point& p : sites)
    {
        minX = std::min(minX, p.x);
        maxX = std::max(maxX, p.x);
        minY = std::min(minY, p.y);
        maxY = std::max(maxY, p.y);
    }
    // Frame points far enough that the cells of real sites close well outside the sites' box.
    const double span = std::max({maxX - minX, maxY - minY, 1.0});
    const double cx = (minX + maxX) / 2, cy = (minY + maxY) / 2, far = 100.0 * span;

    Delaunay triangulation;
    std::vector<Delaunay::Vertex_handle> vertexOf;
    for (const Point& site : sites)
        vertexOf.push_back(triangulation.insert(Kernel::Point_2(site.x, site.y)));
    for (auto v = triangulation.finite_vertices_begin(); v != triangulation.finite_vertices_end(); ++v)
        v->info() = 0; // 0: no owner yet; owners store their index + 1
    for (SiteIndex i = 0; i < sites.size(); ++i)
        if (vertexOf[i]->info() == 0)
            vertexOf[i]->info() = i + 1; // ascending: the lowest index at a location owns it
    for (const auto& [fx, fy] :
         {std::pair{-far, -far}, std::pair{far, -far}, std::pair{far, far}, std::pair{-far, far}})
        triangulation.insert(Kernel::Point_2(cx + fx, cy + fy))->info() = 0;

    for (auto v = triangulation.finite_vertices_begin(); v != triangulation.finite_vertices_end(); ++v)
    {
        if (v->info() == 0)
            continue;
        std::vector<Point>& ring = cells[v->info() - 1];
        auto face = triangulation.incident_faces(v);
        const auto start = face;
        do
        {
            const Kernel::Point_2 centre = triangulation.circumcenter(face);
            ring.push_back({centre.x(), centre.y()});
        } while (++face != start);
        ring.push_back(ring.front());
    }
    return cells;
}

} // namespace vbas

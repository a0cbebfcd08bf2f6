#include "VoronoiCells.h"

#include <CGAL/Delaunay_triangulation_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Regular_triangulation_2.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>

#include <algorithm>

namespace vbas
{
namespace
{
using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using VertexBase = CGAL::Triangulation_vertex_base_with_info_2<SiteIndex, Kernel>;
using Delaunay = CGAL::Delaunay_triangulation_2<Kernel, CGAL::Triangulation_data_structure_2<VertexBase>>;
using RegularVertexBase =
    CGAL::Triangulation_vertex_base_with_info_2<SiteIndex, Kernel,
                                                CGAL::Regular_triangulation_vertex_base_2<Kernel>>;
using Regular = CGAL::Regular_triangulation_2<
    Kernel,
    CGAL::Triangulation_data_structure_2<RegularVertexBase, CGAL::Regular_triangulation_face_base_2<Kernel>>>;

/**
 * The cells of the sites inserted by `insert(i)` (returning the vertex of site i), closed by four
 * frame points far around the sites; `centre(face)` is the face's dual point.
 */
template <typename Triangulation, typename Insert, typename Centre>
std::vector<std::vector<Point>> dualCells(const std::vector<Point>& sites, Triangulation& triangulation,
                                          Insert insert, Centre centre)
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

    std::vector<typename Triangulation::Vertex_handle> vertexOf;
    for (SiteIndex i = 0; i < sites.size(); ++i)
        vertexOf.push_back(insert(i));
    for (const auto& v : vertexOf)
        v->info() = 0; // 0: no owner yet; owners store their index + 1
    for (SiteIndex i = 0; i < sites.size(); ++i)
        if (vertexOf[i]->info() == 0)
            vertexOf[i]->info() = i + 1; // ascending: the lowest index at a location owns it
    for (const auto& [fx, fy] :
         {std::pair{-far, -far}, std::pair{far, -far}, std::pair{far, far}, std::pair{-far, far}})
        triangulation.insert(typename Triangulation::Point(Kernel::Point_2(cx + fx, cy + fy)))->info() = 0;

    for (auto v = triangulation.finite_vertices_begin(); v != triangulation.finite_vertices_end(); ++v)
    {
        if (v->info() == 0)
            continue;
        std::vector<Point>& ring = cells[v->info() - 1];
        auto face = triangulation.incident_faces(v);
        const auto start = face;
        do
        {
            const Kernel::Point_2 dual = centre(face);
            ring.push_back({dual.x(), dual.y()});
        } while (++face != start);
        ring.push_back(ring.front());
    }
    return cells;
}
} // namespace

std::vector<std::vector<Point>> voronoiCells(const std::vector<Point>& sites,
                                             const std::vector<double>& weights)
{
    if (weights.empty())
    {
        Delaunay triangulation;
        return dualCells(
            sites, triangulation,
            [&](SiteIndex i) {
                return triangulation.insert({sites[i].x, sites[i].y});
            },
            [&](Delaunay::Face_handle face) { return triangulation.circumcenter(face); });
    }
    Regular triangulation;
    std::vector<std::vector<Point>> cells = dualCells(
        sites, triangulation,
        [&](SiteIndex i) {
            return triangulation.insert(Regular::Weighted_point({sites[i].x, sites[i].y}, weights[i]));
        },
        [&](Regular::Face_handle face) { return triangulation.weighted_circumcenter(face); });
    // A hidden site has an empty power cell.
    for (auto v = triangulation.hidden_vertices_begin(); v != triangulation.hidden_vertices_end(); ++v)
        if (v->info() != 0)
            cells[v->info() - 1].clear();
    return cells;
}

} // namespace vbas

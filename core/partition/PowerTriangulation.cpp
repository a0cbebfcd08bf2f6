#include "PowerTriangulation.h"

#include "SpatialOrder.h"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Regular_triangulation_2.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace vbas
{
namespace
{
using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using VertexBase =
    CGAL::Triangulation_vertex_base_with_info_2<SiteIndex, Kernel,
                                                CGAL::Regular_triangulation_vertex_base_2<Kernel>>;
using FaceBase = CGAL::Regular_triangulation_face_base_2<Kernel>;
using DataStructure = CGAL::Triangulation_data_structure_2<VertexBase, FaceBase>;
using Regular = CGAL::Regular_triangulation_2<Kernel, DataStructure>;
using CgalPoint = Kernel::Point_2;
using WeightedPoint = Kernel::Weighted_point_2;
using VertexHandle = Regular::Vertex_handle;

CgalPoint toCgal(const Point& p)
{
    return CgalPoint(p.x, p.y);
}

WeightedPoint weighted(const Point& p, double w)
{
    return WeightedPoint(toCgal(p), w);
}
} // namespace

int comparePower(const Point& q, const Point& a, double wa, const Point& b, double wb)
{
    return int(CGAL::compare_power_distance(toCgal(q), weighted(a, wa), weighted(b, wb)));
}

struct PowerTriangulation::Impl
{
    Regular triangulation;
    std::vector<VertexHandle> siteVertex;

    /** The visible vertex of least power distance to q: a greedy walk from `start` (CGAL's, with a hint). */
    VertexHandle nearest(const CgalPoint& q, VertexHandle start) const
    {
        if (triangulation.dimension() < 1)
            return triangulation.finite_vertex();
        VertexHandle best = start;
        bool improved = true;
        while (improved)
        {
            improved = false;
            auto circulator = triangulation.incident_vertices(best);
            const auto first = circulator;
            do
            {
                if (!triangulation.is_infinite(circulator) &&
                    CGAL::compare_power_distance(q, circulator->point(), best->point()) == CGAL::SMALLER)
                {
                    best = circulator;
                    improved = true;
                    break;
                }
            } while (++circulator != first);
        }
        return best;
    }

    /**
     * Among the sites exactly as near to q as `nearest`, the lowest index: equally near visible
     * sites are joined by edges of equally near ones, and a hidden site can tie only where it sits
     * in a face at one of them.
     */
    SiteIndex lowestEqual(VertexHandle nearest, const CgalPoint& q) const
    {
        SiteIndex best = nearest->info();
        std::vector<VertexHandle> frontier{nearest};
        std::vector<VertexHandle> seen{nearest};
        const auto consider = [&](VertexHandle w, bool walk)
        {
            if (std::find(seen.begin(), seen.end(), w) != seen.end())
                return;
            if (CGAL::compare_power_distance(q, w->point(), nearest->point()) != CGAL::EQUAL)
                return;
            seen.push_back(w);
            if (walk)
                frontier.push_back(w);
            best = std::min(best, w->info());
        };
        while (!frontier.empty() && triangulation.dimension() >= 1)
        {
            const VertexHandle v = frontier.back();
            frontier.pop_back();
            auto circulator = triangulation.incident_vertices(v);
            const auto first = circulator;
            do
                if (!triangulation.is_infinite(circulator))
                    consider(circulator, true);
            while (++circulator != first);
            if (triangulation.dimension() < 2)
                continue;
            auto face = triangulation.incident_faces(v);
            const auto firstFace = face;
            do
                for (VertexHandle hidden : face->vertex_list())
                    consider(hidden, false);
            while (++face != firstFace);
        }
        return best;
    }
};

PowerTriangulation::PowerTriangulation(const std::vector<Point>& sites, const std::vector<double>& weights)
    : mImpl(std::make_unique<Impl>())
{
    if (weights.size() != sites.size())
        throw Error(Subject::Partition, "every site needs a weight");
    // In index order: a site at the location and weight of an earlier one joins that one's vertex.
    mImpl->siteVertex.resize(sites.size());
    Regular& triangulation = mImpl->triangulation;
    VertexHandle hint;
    for (SiteIndex s = 0; s < sites.size(); ++s)
    {
        const std::size_t before =
            triangulation.number_of_vertices() + triangulation.number_of_hidden_vertices();
        const VertexHandle v = hint == VertexHandle()
                                   ? triangulation.insert(weighted(sites[s], weights[s]))
                                   : triangulation.insert(weighted(sites[s], weights[s]), hint->face());
        if (triangulation.number_of_vertices() + triangulation.number_of_hidden_vertices() > before)
            v->info() = s; // else an earlier site with this location and weight keeps the vertex
        mImpl->siteVertex[s] = v;
        if (!v->is_hidden())
            hint = v;
    }
}

PowerTriangulation::~PowerTriangulation() = default;

std::vector<SiteIndex> PowerTriangulation::nearestSites(const std::vector<Point>& queries, Feedback& feedback,
                                                        const std::vector<std::size_t>* order) const
{
    std::vector<std::size_t> sorted;
    if (order == nullptr)
        order = &(sorted = spatialOrder(queries));

    std::vector<SiteIndex> nearest(queries.size(), kNoSite);
    VertexHandle hint = mImpl->triangulation.finite_vertex();
    for (std::size_t i = 0; i < order->size(); ++i)
    {
        if (i % 65536 == 0)
        {
            feedback.checkCanceled();
            feedback.setProgress(double(i) / double(order->size()));
        }
        const CgalPoint q = toCgal(queries[(*order)[i]]);
        hint = mImpl->nearest(q, hint);
        nearest[(*order)[i]] = mImpl->lowestEqual(hint, q);
    }
    return nearest;
}

SiteIndex PowerTriangulation::nearestSite(const Point& q, SiteIndex near) const
{
    const VertexHandle start = mImpl->siteVertex[near];
    const CgalPoint point = toCgal(q);
    const VertexHandle nearest =
        mImpl->nearest(point, start->is_hidden() ? mImpl->triangulation.finite_vertex() : start);
    return mImpl->lowestEqual(nearest, point);
}

void PowerTriangulation::update(SiteIndex s, const Point& p, double w)
{
    Regular& triangulation = mImpl->triangulation;
    VertexHandle& vertex = mImpl->siteVertex[s];
    const VertexHandle near = vertex->is_hidden() ? VertexHandle() : vertex;
    VertexHandle hint;
    if (near != VertexHandle() && triangulation.dimension() >= 1)
    {
        auto circulator = triangulation.incident_vertices(near);
        const auto first = circulator;
        do
            if (!triangulation.is_infinite(circulator))
                hint = circulator;
        while (hint == VertexHandle() && ++circulator != first);
    }
    triangulation.remove(vertex);
    vertex = hint == VertexHandle() ? triangulation.insert(weighted(p, w))
                                    : triangulation.insert(weighted(p, w), hint->face());
    vertex->info() = s;
}

void PowerTriangulation::neighbours(SiteIndex s, std::vector<SiteIndex>& out) const
{
    const Regular& triangulation = mImpl->triangulation;
    const VertexHandle v = mImpl->siteVertex[s];
    if (v->is_hidden() || triangulation.dimension() < 1 || v->info() != s)
        return;
    auto circulator = triangulation.incident_vertices(v);
    const auto first = circulator;
    do
        if (!triangulation.is_infinite(circulator))
            out.push_back(circulator->info());
    while (++circulator != first);
}

bool PowerTriangulation::heirs(SiteIndex s, std::vector<SiteIndex>& out) const
{
    const Regular& triangulation = mImpl->triangulation;
    const VertexHandle v = mImpl->siteVertex[s];
    if (v->is_hidden() || triangulation.dimension() < 2 || v->info() != s)
        return false;
    auto face = triangulation.incident_faces(v);
    const auto first = face;
    do
        if (triangulation.is_infinite(face) || !face->vertex_list().empty())
            return false;
    while (++face != first);
    neighbours(s, out);
    return true;
}

bool PowerTriangulation::cellBox(SiteIndex s, Point& low, Point& high) const
{
    const Regular& triangulation = mImpl->triangulation;
    const VertexHandle v = mImpl->siteVertex[s];
    if (v->is_hidden() || triangulation.dimension() < 2 || v->info() != s)
        return false;
    const double inf = std::numeric_limits<double>::infinity();
    low = {inf, inf};
    high = {-inf, -inf};
    double magnitude = 0.0;
    auto face = triangulation.incident_faces(v);
    const auto first = face;
    do
    {
        if (triangulation.is_infinite(face))
            return false;
        const CgalPoint corner = triangulation.weighted_circumcenter(face);
        if (!std::isfinite(corner.x()) || !std::isfinite(corner.y()))
            return false;
        low = {std::min(low.x, corner.x()), std::min(low.y, corner.y())};
        high = {std::max(high.x, corner.x()), std::max(high.y, corner.y())};
        magnitude = std::max({magnitude, std::abs(corner.x()), std::abs(corner.y())});
    } while (++face != first);
    // The corners are constructed in doubles: a margin far above their rounding, relative to the cell's
    // size (a nearly flat triangle's far corner) and to the coordinates.
    const double margin = 1e-6 * std::max(high.x - low.x, high.y - low.y) + 1e-9 * magnitude + 1e-9;
    low = {low.x - margin, low.y - margin};
    high = {high.x + margin, high.y + margin};
    return true;
}

bool PowerTriangulation::inStar(SiteIndex s, const Point& p) const
{
    const Regular& triangulation = mImpl->triangulation;
    const VertexHandle v = mImpl->siteVertex[s];
    if (v->is_hidden() || triangulation.dimension() < 2 || v->info() != s)
        return false;
    const CgalPoint q = toCgal(p);
    auto face = triangulation.incident_faces(v);
    const auto first = face;
    do
    {
        if (triangulation.is_infinite(face))
            continue;
        const CgalPoint a = face->vertex(0)->point().point();
        const CgalPoint b = face->vertex(1)->point().point();
        const CgalPoint c = face->vertex(2)->point().point();
        if (CGAL::orientation(a, b, q) != CGAL::RIGHT_TURN &&
            CGAL::orientation(b, c, q) != CGAL::RIGHT_TURN && CGAL::orientation(c, a, q) != CGAL::RIGHT_TURN)
            return true;
    } while (++face != first);
    return false;
}

} // namespace vbas

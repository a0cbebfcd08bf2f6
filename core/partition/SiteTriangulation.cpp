#include "SiteTriangulation.h"

#include "SpatialOrder.h"

#include <CGAL/Delaunay_triangulation_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>

#include <algorithm>
#include <numeric>
#include <tuple>

namespace vbas
{
namespace
{
using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using VertexBase = CGAL::Triangulation_vertex_base_with_info_2<SiteIndex, Kernel>;
using DataStructure = CGAL::Triangulation_data_structure_2<VertexBase>;
using Delaunay = CGAL::Delaunay_triangulation_2<Kernel, DataStructure>;
using CgalPoint = Kernel::Point_2;
using VertexHandle = Delaunay::Vertex_handle;
using FaceHandle = Delaunay::Face_handle;

CgalPoint toCgal(const Point& p)
{
    return CgalPoint(p.x, p.y);
}
} // namespace

struct SiteTriangulation::Impl
{
    Delaunay triangulation;
    std::vector<VertexHandle> siteVertex;
    /** Visit marks of the k-nearest walk, by owning site, valid when equal to `walk`. */
    mutable std::vector<std::uint32_t> visited;
    mutable std::uint32_t walk = 0;

    /**
     * Among the sites exactly as near to q as `nearest`, the lowest index. Equidistant nearest
     * sites lie on one empty circle around q, and consecutive sites on an empty circle are
     * Delaunay neighbours, so a walk over equidistant neighbours finds them all.
     */
    SiteIndex lowestEquidistant(VertexHandle nearest, const CgalPoint& q) const
    {
        SiteIndex best = nearest->info();
        if (triangulation.dimension() < 1)
            return best;
        std::vector<VertexHandle> frontier{nearest};
        std::vector<VertexHandle> seen{nearest};
        while (!frontier.empty())
        {
            const VertexHandle v = frontier.back();
            frontier.pop_back();
            auto circulator = triangulation.incident_vertices(v);
            const auto start = circulator;
            if (circulator == nullptr)
                continue;
            do
            {
                const VertexHandle w = circulator;
                if (triangulation.is_infinite(w) || std::find(seen.begin(), seen.end(), w) != seen.end())
                    continue;
                if (CGAL::compare_distance_to_point(q, w->point(), nearest->point()) == CGAL::EQUAL)
                {
                    seen.push_back(w);
                    frontier.push_back(w);
                    best = std::min(best, w->info());
                }
            } while (++circulator != start);
        }
        return best;
    }
};

SiteTriangulation::SiteTriangulation(const std::vector<Point>& sites)
    : mImpl(std::make_unique<Impl>())
{
    // One vertex per location, owned by the lowest index there; inserted in one spatially sorted
    // batch (CGAL sorts pairs with info), then every site is mapped to the vertex at its location.
    std::vector<SiteIndex> order(sites.size());
    std::iota(order.begin(), order.end(), SiteIndex(0));
    std::sort(order.begin(), order.end(),
              [&](SiteIndex a, SiteIndex b)
              { return std::tie(sites[a].x, sites[a].y, a) < std::tie(sites[b].x, sites[b].y, b); });
    std::vector<std::pair<CgalPoint, SiteIndex>> owners;
    std::vector<std::size_t> ownerOf(sites.size());
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        if (i > 0 && sites[order[i]] == sites[order[i - 1]])
            mDistinct = false;
        else
            owners.emplace_back(toCgal(sites[order[i]]), order[i]);
        ownerOf[order[i]] = owners.size() - 1;
    }
    mImpl->triangulation.insert(owners.begin(), owners.end());
    std::vector<VertexHandle> vertexOfOwner(owners.size());
    for (auto v = mImpl->triangulation.finite_vertices_begin();
         v != mImpl->triangulation.finite_vertices_end(); ++v)
    {
        const std::size_t owner = ownerOf[v->info()];
        vertexOfOwner[owner] = v;
    }
    mImpl->siteVertex.resize(sites.size());
    for (SiteIndex i = 0; i < sites.size(); ++i)
        mImpl->siteVertex[i] = vertexOfOwner[ownerOf[i]];
    mImpl->visited.assign(sites.size(), 0);
}

SiteTriangulation::~SiteTriangulation() = default;
SiteTriangulation::SiteTriangulation(SiteTriangulation&&) noexcept = default;
SiteTriangulation& SiteTriangulation::operator=(SiteTriangulation&&) noexcept = default;

SiteIndex SiteTriangulation::nearestSite(const Point& query) const
{
    const CgalPoint q = toCgal(query);
    return mImpl->lowestEquidistant(mImpl->triangulation.nearest_vertex(q), q);
}

bool SiteTriangulation::moveSite(SiteIndex s, const Point& p)
{
    if (!mDistinct)
        throw Error(Subject::SiteLocation, "sites must have distinct locations to be moved");
    const VertexHandle v = mImpl->siteVertex[s];
    return mImpl->triangulation.move_if_no_collision(v, toCgal(p)) == v;
}

void SiteTriangulation::neighbours(SiteIndex s, std::vector<SiteIndex>& out) const
{
    const Delaunay& triangulation = mImpl->triangulation;
    if (triangulation.dimension() < 1)
        return;
    auto circulator = triangulation.incident_vertices(mImpl->siteVertex[s]);
    const auto start = circulator;
    do
    {
        if (!triangulation.is_infinite(circulator))
            out.push_back(circulator->info());
    } while (++circulator != start);
}

bool SiteTriangulation::inStar(SiteIndex s, const Point& p) const
{
    const Delaunay& triangulation = mImpl->triangulation;
    if (triangulation.dimension() < 2)
        return false;
    const CgalPoint q = toCgal(p);
    auto face = triangulation.incident_faces(mImpl->siteVertex[s]);
    const auto start = face;
    do
    {
        if (triangulation.is_infinite(face))
            continue;
        const CgalPoint& a = face->vertex(0)->point();
        const CgalPoint& b = face->vertex(1)->point();
        const CgalPoint& c = face->vertex(2)->point();
        // Faces are counter-clockwise: inside or on the boundary when no edge sees q on its right.
        if (CGAL::orientation(a, b, q) != CGAL::RIGHT_TURN &&
            CGAL::orientation(b, c, q) != CGAL::RIGHT_TURN && CGAL::orientation(c, a, q) != CGAL::RIGHT_TURN)
            return true;
    } while (++face != start);
    return false;
}

struct SiteTriangulation::NearestWalk::State
{
    using Candidate = std::pair<double, VertexHandle>;
    const Impl& impl;
    Point p;
    std::uint32_t stamp;
    std::vector<Candidate> frontier; // min-heap on distance

    static bool farther(const Candidate& a, const Candidate& b) { return a.first > b.first; }
    void reach(VertexHandle v)
    {
        impl.visited[v->info()] = stamp;
        frontier.emplace_back(squaredDistance(p, {v->point().x(), v->point().y()}), v);
        std::push_heap(frontier.begin(), frontier.end(), farther);
    }
};

SiteTriangulation::NearestWalk::NearestWalk(const SiteTriangulation& triangulation, const Point& p)
    : mState(std::make_unique<State>(State{*triangulation.mImpl, p, 0, {}}))
{
    const Impl& impl = *triangulation.mImpl;
    if (impl.triangulation.number_of_vertices() == 0)
        return;
    if (++impl.walk == 0) // the stamp wrapped: clear the marks once
    {
        std::fill(impl.visited.begin(), impl.visited.end(), 0);
        impl.walk = 1;
    }
    mState->stamp = impl.walk;
    mState->reach(impl.triangulation.nearest_vertex(toCgal(p)));
}

SiteTriangulation::NearestWalk::~NearestWalk() = default;

bool SiteTriangulation::NearestWalk::next(SiteIndex& site)
{
    State& state = *mState;
    if (state.frontier.empty())
        return false;
    std::pop_heap(state.frontier.begin(), state.frontier.end(), State::farther);
    const VertexHandle v = state.frontier.back().second;
    state.frontier.pop_back();
    site = v->info();
    const Delaunay& triangulation = state.impl.triangulation;
    if (triangulation.dimension() >= 1)
    {
        auto circulator = triangulation.incident_vertices(v);
        const auto first = circulator;
        do
        {
            if (!triangulation.is_infinite(circulator) &&
                state.impl.visited[circulator->info()] != state.stamp)
                state.reach(circulator);
        } while (++circulator != first);
    }
    return true;
}

void SiteTriangulation::nearestSites(const Point& p, std::size_t k, std::vector<SiteIndex>& out) const
{
    NearestWalk walk(*this, p);
    SiteIndex site;
    for (std::size_t found = 0; found < k && walk.next(site); ++found)
        out.push_back(site);
}

std::vector<std::pair<SiteIndex, SiteIndex>> SiteTriangulation::edges() const
{
    const Delaunay& triangulation = mImpl->triangulation;
    std::vector<std::pair<SiteIndex, SiteIndex>> result;
    for (auto e = triangulation.finite_edges_begin(); e != triangulation.finite_edges_end(); ++e)
    {
        const SiteIndex a = e->first->vertex(Delaunay::cw(e->second))->info();
        const SiteIndex b = e->first->vertex(Delaunay::ccw(e->second))->info();
        result.emplace_back(std::min(a, b), std::max(a, b));
    }
    return result;
}

SiteIndex SiteTriangulation::nearestAmong(const Point& q, const std::vector<Point>& sites,
                                          const SiteIndex* first, const SiteIndex* last)
{
    const CgalPoint query = toCgal(q);
    SiteIndex best = *first;
    CgalPoint bestPoint = toCgal(sites[best]);
    for (const SiteIndex* it = first + 1; it != last; ++it)
    {
        const SiteIndex candidate = *it;
        const CgalPoint point = toCgal(sites[candidate]);
        const CGAL::Comparison_result order = CGAL::compare_distance_to_point(query, point, bestPoint);
        if (order == CGAL::SMALLER || (order == CGAL::EQUAL && candidate < best))
        {
            best = candidate;
            bestPoint = point;
        }
    }
    return best;
}

std::vector<SiteIndex> SiteTriangulation::nearestSites(const std::vector<Point>& queries, Feedback& feedback,
                                                       const std::vector<std::size_t>* order) const
{
    std::vector<std::size_t> sorted;
    if (order == nullptr)
        order = &(sorted = spatialOrder(queries));

    std::vector<SiteIndex> nearest(queries.size(), kNoSite);
    FaceHandle hint;
    for (std::size_t i = 0; i < order->size(); ++i)
    {
        if (i % 65536 == 0)
        {
            feedback.checkCanceled();
            feedback.setProgress(double(i) / double(order->size()));
        }
        const CgalPoint q = toCgal(queries[(*order)[i]]);
        const VertexHandle v = mImpl->triangulation.nearest_vertex(q, hint);
        hint = v->face();
        nearest[(*order)[i]] = mImpl->lowestEquidistant(v, q);
    }
    return nearest;
}

} // namespace vbas

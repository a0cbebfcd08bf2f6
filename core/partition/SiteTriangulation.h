#pragma once

#include "base/Feedback.h"
#include "base/Types.h"

#include <memory>
#include <vector>

namespace vbas
{

/**
 * The sites of a partition in one Delaunay triangulation (CGAL, kept out of this header): nearest-
 * site queries, Voronoi neighbours, and site moves for incremental partitions.
 *
 * Sites at the same location share one vertex, owned by the lowest site index; the others own
 * nothing. Distance ties go to the lowest site index, decided with exact predicates.
 */
class SiteTriangulation
{
public:
    explicit SiteTriangulation(const std::vector<Point>& sites);
    ~SiteTriangulation();
    SiteTriangulation(const SiteTriangulation&) = delete;
    SiteTriangulation& operator=(const SiteTriangulation&) = delete;
    SiteTriangulation(SiteTriangulation&&) noexcept;
    SiteTriangulation& operator=(SiteTriangulation&&) noexcept;

    /**
     * Nearest site of each query; queries are spatially sorted once (or taken in `order`, their
     * spatialOrder()) and located with hints.
     */
    std::vector<SiteIndex> nearestSites(const std::vector<Point>& queries, Feedback& feedback,
                                        const std::vector<std::size_t>* order = nullptr) const;
    /** Nearest site of one query. */
    SiteIndex nearestSite(const Point& query) const;

    /** Whether every site has a location of its own (required by moveSite). */
    bool sitesAreDistinct() const { return mDistinct; }
    /** Moves site s to p; false (nothing moved) when another site is at p. Needs distinct sites. */
    bool moveSite(SiteIndex s, const Point& p);
    /** The Delaunay (Voronoi) neighbours of site s, appended to `out`. */
    void neighbours(SiteIndex s, std::vector<SiteIndex>& out) const;
    /**
     * Whether p lies in the star of s: the union of the Delaunay triangles at s, i.e. the polygon
     * through its neighbour sites, closed by s itself when s is on the hull. Boundary included.
     */
    bool inStar(SiteIndex s, const Point& p) const;
    /**
     * The sites in order of distance from p, one at a time: a best-first walk over Delaunay
     * neighbours, exact because the k nearest sites of any point form a connected set in the
     * Delaunay graph. One walk at a time per triangulation.
     */
    class NearestWalk
    {
    public:
        NearestWalk(const SiteTriangulation& triangulation, const Point& p);
        ~NearestWalk();
        /** The next nearest site, false when every site was visited. */
        bool next(SiteIndex& site);

    private:
        struct State;
        std::unique_ptr<State> mState;
    };
    /** The k sites nearest to p (fewer when there are fewer), nearest first. */
    void nearestSites(const Point& p, std::size_t k, std::vector<SiteIndex>& out) const;

    /** Every finite Delaunay edge once (pairs of owning sites). */
    std::vector<std::pair<SiteIndex, SiteIndex>> edges() const;
    /** The nearest of `candidates` to q, exact, ties to the lowest index. */

    static SiteIndex nearestAmong(const Point& q, const std::vector<Point>& sites, const SiteIndex* first,
                                  const SiteIndex* last);

private:
    struct Impl;
    std::unique_ptr<Impl> mImpl;
    bool mDistinct = true;
};

} // namespace vbas

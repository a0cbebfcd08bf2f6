#pragma once

#include "Feedback.h"
#include "Types.h"

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

    /** Nearest site of each query; queries are spatially sorted once and located with hints. */
    std::vector<SiteIndex> nearestSites(const std::vector<Point>& queries, Feedback& feedback) const;
    /** Nearest site of one query. */
    SiteIndex nearestSite(const Point& query) const;

private:
    struct Impl;
    std::unique_ptr<Impl> mImpl;
};

} // namespace vbas

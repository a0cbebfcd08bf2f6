#pragma once

#include "base/Feedback.h"
#include "base/Types.h"

#include <memory>
#include <vector>

namespace vbas
{

/**
 * Compares the power distances ‖q − a‖² − wa and ‖q − b‖² − wb exactly: negative when a is nearer,
 * 0 on a tie, positive when b is nearer.
 */
int comparePower(const Point& q, const Point& a, double wa, const Point& b, double wb);

/**
 * Weighted sites in one CGAL regular triangulation (SPEC section 11): the power diagram's nearest
 * site queries and neighbours, and single site changes.
 *
 * A site whose power cell is empty is hidden: it owns nothing and has no neighbours. Sites at one
 * location keep the heaviest (the lowest index among equals). Ties go to the lowest site index,
 * decided with exact predicates among the equally near visible sites and the hidden sites of
 * their faces.
 */
class PowerTriangulation
{
public:
    PowerTriangulation(const std::vector<Point>& sites, const std::vector<double>& weights);
    ~PowerTriangulation();
    PowerTriangulation(const PowerTriangulation&) = delete;
    PowerTriangulation& operator=(const PowerTriangulation&) = delete;

    /**
     * Site of least power distance for each query; queries are spatially sorted (or taken in `order`, their
     * spatialOrder()) and located with hints.
     */
    std::vector<SiteIndex> nearestSites(const std::vector<Point>& queries, Feedback& feedback,
                                        const std::vector<std::size_t>* order = nullptr) const;
    /** Site of least power distance to q, walking from site `near` (cheap when q is near it). */
    SiteIndex nearestSite(const Point& q, SiteIndex near) const;

    /** Gives site s location p and weight w. Needs sites at distinct locations (the caller checks). */
    void update(SiteIndex s, const Point& p, double w);
    /** The power neighbours of site s, appended to `out` (none when s is hidden). */
    void neighbours(SiteIndex s, std::vector<SiteIndex>& out) const;
    /**
     * The power neighbours of site s, appended to `out`, when they alone take its cell if s is removed: s is
     * visible, not on the hull, and no hidden site lies in a triangle at s (removing s would uncover it);
     * else false, and `out` is left as it was.
     */
    bool heirs(SiteIndex s, std::vector<SiteIndex>& out) const;
    /**
     * A box holding the power cell of site s, from its corners (the power centres of the triangles at s)
     * widened for their rounding; false when no box is known: the cell is unbounded (s on the hull), s is
     * hidden or shares its vertex, or the sites are collinear.
     */
    bool cellBox(SiteIndex s, Point& low, Point& high) const;
    /** Whether p lies in a triangle at s (its star), boundary included; false when s is hidden. */
    bool inStar(SiteIndex s, const Point& p) const;

private:
    struct Impl;
    std::unique_ptr<Impl> mImpl;
};

} // namespace vbas

#pragma once

#include "base/Types.h"

#include <utility>
#include <vector>

namespace vbas
{

/**
 * Site locations with their power weights (SPEC section 11): region r goes to the site j with the
 * least d(p_r, s_j)² − w_j, d the partition's distance (straight, through borders, around
 * obstacles). No weights means every weight is 0: the nearest site.
 */
struct Sites
{
    // Implicit: a list of locations is a set of unweighted sites.
    Sites(std::vector<Point> locations = {}, std::vector<double> powerWeights = {})
        : points(std::move(locations))
        , weights(std::move(powerWeights))
    {
    }
    std::vector<Point> points;
    /** One per site, or empty (all 0). */
    std::vector<double> weights;

    /** Whether some weight is not 0. */
    bool weighted() const;
};

/** Sites and the site each initial region is assigned to. */
struct Partition
{
    std::vector<Point> sites;
    /** Per initial region: the index of its site. */
    std::vector<SiteIndex> regionSite;
    /** The sites' power weights; empty when every weight is 0. */
    std::vector<double> weights;
};

} // namespace vbas

#pragma once

#include "Geos.h"
#include "RegionGeometries.h"
#include "base/Feedback.h"
#include "model/Aggregation.h"

#include <vector>

namespace vbas
{

/** One aggregate's polygon and its geometric figures (SPEC section 7). */
struct DissolvedAggregate
{
    std::vector<unsigned char> wkb;
    double area = 0.0;
    double perimeter = 0.0;
    std::size_t parts = 0;
    /** Polsby-Popper compactness 4 pi A / P^2: 1 for a disc, near 0 for a sliver. */
    double compactness = 0.0;
};

/**
 * Dissolves the member polygons of every aggregate (GEOMETRY-NOTES section c): coverage union
 * first (fast on clean tessellations); when GEOS 3.11 returns nothing or an invalid result
 * (T-junctions, overlaps) it falls back to a unary union. Slits are removed (removeSlits()).
 */
std::vector<DissolvedAggregate> dissolve(const RegionGeometries& regions, const Aggregation& aggregation,
                                         Feedback& feedback);

/**
 * Returns a (multi)polygon without its slits: interior rings of no area (at most a billionth of the
 * geometry's area), which unions leave where member borders meet imperfectly, in different places on
 * different GEOS versions. They enclose nothing but add to the perimeter, and so to the compactness.
 */
geos::GeometryPtr removeSlits(geos::Context& context, geos::GeometryPtr geometry);

} // namespace vbas

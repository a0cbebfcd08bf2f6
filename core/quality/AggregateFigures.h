#pragma once

#include "Metric.h"

#include <vector>

namespace vbas
{

/**
 * Per-aggregate quality figures (SPEC section 7). Geometric figures (area, parts, compactness)
 * come from the dissolved polygons, see geometry/Dissolve.h.
 */
struct AggregateFigures
{
    SiteIndex site;
    Point sitePoint;
    std::size_t memberRegions;
    Count recordsBefore; //!< records after global, before local suppression
    Count recordsReleased;
    Count recordsSuppressed;         //!< by local suppression or l-diversity
    Count recordsGloballySuppressed; //!< of the members, by global suppression
    std::size_t classesReleased;
    Count anonymityBefore; //!< smallest class before local suppression (0: no records)
    Count anonymityAfter;  //!< smallest released class (0: nothing released)
    double meanDistance;   //!< mean distance of member points to the site
};

std::vector<AggregateFigures> aggregateFigures(const RatingInput& input);

} // namespace vbas

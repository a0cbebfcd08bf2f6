#pragma once

#include "base/Feedback.h"
#include "data/RegionSet.h"
#include "geometry/Obstacles.h"
#include "geometry/RegionAdjacency.h"
#include "sitelocation/SiteRefiner.h"

#include <vector>

namespace vbas
{

/** What a boundary refinement may use besides the regions: who borders whom, obstacles, parents. */
struct BoundaryInput
{
    const RegionSet& regions;
    const RegionAdjacency& adjacency;
    /** Borders these cut (as the barrier partition cuts them) are not crossed; null: none. */
    const Obstacles* obstacles;
    /** The parent of every region (empty: none); an aggregate never mixes parents. */
    const std::vector<std::uint32_t>& regionParent;
};

/**
 * Improves a partition after it is made (SPEC section 11, beyond the diagram): moves single regions
 * between aggregates that share a border.
 *
 * Contract: changes only `regionSite` entries of regions that have a site, to the site of an aggregate
 * the region borders (through a border no obstacle cuts, within its parent); never empties an
 * aggregate; deterministic; stops promptly on cancel; fills `report`.
 */
class BoundaryRefiner
{
public:
    virtual ~BoundaryRefiner() = default;
    virtual void refine(const BoundaryInput& input, const ReleaseRule& rule,
                        std::vector<SiteIndex>& regionSite, std::size_t sites, RefinementReport& report,
                        Feedback& feedback) const = 0;
};

} // namespace vbas

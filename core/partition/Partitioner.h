#pragma once

#include "Feedback.h"
#include "IncrementalPartition.h"
#include "SpatialContext.h"
#include "Types.h"

#include <memory>
#include <vector>

namespace vbas
{

/** Sites and the site each initial region is assigned to. */
struct Partition
{
    std::vector<Point> sites;
    /** Per initial region: the index of its site. */
    std::vector<SiteIndex> regionSite;
};

/**
 * Assigns every initial region to one site (thesis section 3.2.3, SPEC section 5).
 *
 * Contract, checked for every registered partitioner by one parameterised test:
 *  - every region gets a site index below sites.size();
 *  - deterministic; distance ties go to the lower site index;
 *  - polls feedback.checkCanceled() in long loops.
 */
class Partitioner
{
public:
    virtual ~Partitioner() = default;
    /** Throws Error(SiteLocation) when there are no sites. */
    Partition partition(const PartitionInput& input, std::vector<Point> sites, Feedback& feedback) const;
    /**
     * The same partition, ready to follow single site moves. Throws Error(SiteLocation) unless there
     * are sites, each at a location of its own.
     */
    std::unique_ptr<IncrementalPartition> incremental(const PartitionInput& input, std::vector<Point> sites,
                                                      Feedback& feedback) const;

private:
    // The checks above live in the base, once for every strategy; a strategy sees only valid sites.
    /** partition() with at least one site. */
    virtual Partition assignRegions(const PartitionInput& input, std::vector<Point> sites,
                                    Feedback& feedback) const = 0;
    /** incremental() with at least one site, every site at a location of its own. */
    virtual std::unique_ptr<IncrementalPartition> assignRegionsIncrementally(const PartitionInput& input,
                                                                             std::vector<Point> sites,
                                                                             Feedback& feedback) const = 0;
};

} // namespace vbas

#pragma once

#include "IncrementalPartition.h"
#include "SpatialContext.h"
#include "base/Feedback.h"
#include "base/Types.h"
#include "model/Sites.h"

#include <memory>
#include <vector>

namespace vbas
{

/**
 * Assigns every initial region to one site (thesis section 3.2.3, SPEC section 5), by power
 * distance when the sites carry weights (SPEC section 11).
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
    /**
     * Throws Error(SiteLocation) when there are no sites, Error(Partition) when the weights are not
     * one finite number per site.
     */
    Partition partition(const PartitionInput& input, Sites sites, Feedback& feedback) const;
    /**
     * The same partition, ready to follow single site moves; with weights (zeros included) also
     * single weight changes. Throws Error(SiteLocation) unless there are sites, each at a location
     * of its own.
     */
    std::unique_ptr<IncrementalPartition> incremental(const PartitionInput& input, Sites sites,
                                                      Feedback& feedback) const;

private:
    // The checks above live in the base, once for every strategy; a strategy sees only valid sites.
    /** partition() with at least one site; weights, when given, by power distance (empty when all 0). */
    virtual Partition assignRegions(const PartitionInput& input, Sites sites, Feedback& feedback) const = 0;
    /**
     * incremental() with at least one site, every site at a location of its own; weights one per
     * site (a weighted partition that follows reweigh()) or empty.
     */
    virtual std::unique_ptr<IncrementalPartition>
    assignRegionsIncrementally(const PartitionInput& input, Sites sites, Feedback& feedback) const = 0;
};

} // namespace vbas

#pragma once

#include "Partitioner.h"

#include <memory>
#include <vector>

namespace vbas
{

/**
 * Any partitioner under a parent constraint (SPEC section 5): no aggregate mixes regions with
 * different parent values (province, health authority), so a released region still tells its
 * parent. Each site belongs to the parent of the region point nearest to it; a parent without a
 * site gets one at its region with the most records (so fewer sites than parents is impossible);
 * then the inner partitioner runs on each parent's regions and sites alone, with the adjacency
 * graph cut at parent boundaries.
 */
class ParentConstrainedPartitioner : public Partitioner
{
public:
    /** Constrains `inner`, which must outlive this, to the parents of `regionParent` (a code per region). */
    ParentConstrainedPartitioner(const Partitioner& inner, std::vector<std::uint32_t> regionParent);
    ~ParentConstrainedPartitioner() override;

private:
    Partition assignRegions(const PartitionInput& input, Sites sites, Feedback& feedback) const override;
    std::unique_ptr<IncrementalPartition> assignRegionsIncrementally(const PartitionInput& input, Sites sites,
                                                                     Feedback& feedback) const override;

    const Partitioner& mInner;

    std::vector<std::uint32_t> mRegionParent;
};

} // namespace vbas

#pragma once

#include "base/Types.h"

#include <vector>

namespace vbas
{

/**
 * A partition that follows single site moves without recomputing everything (ADC, SPEC section 6):
 * only the regions of the moved site and of its old and new neighbours can change site.
 *
 * Contract, checked for every partitioner by one test: after any sequence of moves and undos,
 * regionSite() equals a full partition of the current sites.
 */
class IncrementalPartition
{
public:
    /** One region that changed site. */
    struct Change
    {
        RegionIndex region;
        SiteIndex from;
        SiteIndex to;
    };

    virtual ~IncrementalPartition() = default;

    virtual const std::vector<Point>& sites() const = 0;
    /** The sites' power weights (SPEC section 11); empty when the partition is unweighted. */
    virtual const std::vector<double>& weights() const;
    virtual const std::vector<SiteIndex>& regionSite() const = 0;
    /** The regions of site s, in no particular order. */
    virtual const std::vector<RegionIndex>& members(SiteIndex s) const = 0;

    /**
     * Moves site s to p and appends every region that changed site to `changes`. Returns false,
     * changing nothing, when p is the location of another site (sites stay distinct).
     */
    virtual bool move(SiteIndex s, const Point& p, std::vector<Change>& changes) = 0;
    /** Reverts the last successful move of s from `previous`, given the changes it reported. */
    virtual void undo(SiteIndex s, const Point& previous, const std::vector<Change>& changes) = 0;
    /**
     * Gives site s the power weight w, appending every region that changed site to `changes`.
     * Throws Error(Partition) unless the partition is weighted.
     */
    virtual bool reweigh(SiteIndex s, double w, std::vector<Change>& changes);
    /** Reverts the last reweigh() of s from weight `previous`, given the changes it reported. */
    virtual void undoReweigh(SiteIndex s, double previous, const std::vector<Change>& changes);

    /** The sites adjacent to s (whose regions a move of s can take or give). */
    virtual void neighbours(SiteIndex s, std::vector<SiteIndex>& out) const = 0;
    /**
     * Whether p, a region point owned by `owner`, lies in the neighbourhood of site s: the cell
     * of s or the polygon through its neighbour sites (with s itself on the hull, thesis L833).
     */
    virtual bool inNeighbourhood(SiteIndex s, const Point& p, SiteIndex owner) const = 0;
};

} // namespace vbas

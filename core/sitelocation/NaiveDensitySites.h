#pragma once

#include "SiteLocator.h"

#include <memory>

namespace vbas
{

class StrategyOptions;

/**
 * sitelocation.naive_density (thesis L568-689, L1127-1139; SPEC section 4): a grid of about
 * `count` near-square cells over the bounding box of the points (rows along the short side);
 * each cell gets floor(d_i) sites for its density d_i = p_i / p' (points counted unweighted), the
 * rest go one per cell by descending fractional part (ties by cell index), in passes until all
 * are placed; cells without points get none. A cell's sites sit at the centres of a sub-grid of
 * exactly that many sub-cells (same row rule, the extra sub-cells appended to the first rows).
 */
class NaiveDensitySites : public SiteLocator
{
public:
    static std::unique_ptr<SiteLocator> create(const StrategyOptions& options);
    std::vector<Point> locate(const RegionSet& regions, std::size_t count, Feedback& feedback) const override;
};

} // namespace vbas

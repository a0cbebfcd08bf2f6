#pragma once

#include "SiteLocator.h"
#include "StrategyOptions.h"

#include <memory>

namespace vbas
{

/** Where balanced density puts the site of a cell. */
enum class CellCentre
{
    Mean,         //!< mean of the cell's points (the thesis, L777-783)
    WeightedMean, //!< mean weighted by record count
    Median,       //!< coordinate-wise median
};

/**
 * sitelocation.balanced_density (thesis L691-783, L1141-1153; SPEC section 4): rows of about equal
 * record population cut walking up the points sorted by y, each row cut into cells of about equal
 * population walking along x, one site per cell. Rows: c0 = floor(sqrt(s)), c0 + 1 rows when
 * c0 (c0 + 1) <= s. Cells per row: s apportioned by largest remainder of row population (this
 * replaces the broken L757-759), at least one per row. A row short of cells splits its most
 * populous cells at their weighted x-median; a one-point cell cannot split, so fewer than s sites
 * may come back (reported). The site of a cell is the mean of its points (L777-783 calls it the
 * median), or by option the weighted mean or the coordinate-wise median.
 */
class BalancedDensitySites : public SiteLocator
{
public:
    explicit BalancedDensitySites(CellCentre centre);
    static std::unique_ptr<SiteLocator> create(const StrategyOptions& options);
    /** "cell_centre": mean, weighted_mean or median (mapped to CellCentre here). */
    static std::vector<OptionSpec> options();
    std::vector<Point> locate(const RegionSet& regions, std::size_t count, Feedback& feedback) const override;

    /** Planned row count for s sites (equations 1-2). */
    static std::size_t plannedRows(std::size_t sites);

private:
    CellCentre mCentre;
};

} // namespace vbas

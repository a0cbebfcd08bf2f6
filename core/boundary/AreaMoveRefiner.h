#pragma once

#include "BoundaryRefiner.h"

#include <memory>

namespace vbas
{

struct OptionSpec;
class StrategyOptions;

/**
 * boundary.suppression: moves single regions (or two bordering ones) to a bordering aggregate while the
 * records that local suppression and l-diversity withhold fall (issue 12: a power diagram's cells are too
 * coarse a family of maps to withhold much fewer at the same detail).
 *
 * A pass visits the regions in index order. For a region it tries every aggregate it borders (through a
 * border no obstacle cuts, within its parent, sharing at least the border share of what it shares with its
 * own) and keeps the move that lowers (withheld records, deficit, non-uniform entropy) most in this order:
 * the deficit, how far the groups below k of the classes moved are from k, rewards moves that bring rare
 * groups together before they reach k. A move that withholds fewer records or lowers the deficit keeps the
 * release's NUE within the slack above where the stage started. A move never empties its aggregate, never
 * makes an aggregate releasing records withhold all of them (so the released regions do not fall) and never
 * splits the aggregate it leaves into more pieces (border-sharing regions) than it had. When a pass of single
 * regions keeps nothing, a pass tries each region with one bordering region of its aggregate; passes end when
 * a pass of pairs keeps nothing, or at the time limit.
 */
class AreaMoveRefiner : public BoundaryRefiner
{
public:
    /**
     * `entropySlack`: the most the release's NUE may rise, as a share of where the stage started;
     * `borderShare`: the least border the moved areas share with the aggregate they join, as a share of
     * the border they share with the one they leave.
     */
    AreaMoveRefiner(double entropySlack, double borderShare, double maxSeconds);
    static std::unique_ptr<BoundaryRefiner> create(const StrategyOptions& options);
    /** "boundary_entropy_slack", "boundary_border_share" (percents) and "boundary_max_seconds" (0: no limit).
     */
    static std::vector<OptionSpec> options();
    /** report.objectiveBefore/After: records withheld; movesTried: region and aggregate pairs weighed. */
    void refine(const BoundaryInput& input, const ReleaseRule& rule, std::vector<SiteIndex>& regionSite,
                std::size_t sites, RefinementReport& report, Feedback& feedback) const override;

private:
    double mEntropySlack;
    double mBorderShare;
    double mMaxSeconds;
};

} // namespace vbas

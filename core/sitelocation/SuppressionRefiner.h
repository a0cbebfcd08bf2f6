#pragma once

#include "SiteRefiner.h"

#include <chrono>
#include <memory>
#include <optional>

namespace vbas
{

struct OptionSpec;
class StrategyOptions;

/**
 * refinement.suppression: changes sites one at a time and keeps a change only when it lowers the
 * records that local suppression and l-diversity withhold while the release's non-uniform entropy
 * stays within the slack above where it started (issue 12: fewer withheld records at the same
 * detail, not by trading detail away), or keeps them and lowers the non-uniform entropy (SPEC
 * section 11), no aggregate formed before is lost and no aggregate releasing records before ends
 * up withholding all of them (so the released regions do not fall). Unless suppression_move_weights is off, a
 * change is first the site's power weight, up or down by the step times the squared distance to its nearest
 * neighbour site, then its position.
 *
 * A pass visits the sites whose aggregates withhold records, most withheld first (ties: site
 * index). For a site it tries its weight, then a step towards, in this order: the neighbouring regions whose
 * withheld records this aggregate would release (their weighted mean, then the region with most),
 * the neighbouring records of its three withheld classes closest to k, the point mirroring its
 * own withheld records (to hand them to neighbours), and the two neighbour sites withholding
 * most. The first move that lowers the withheld count, or keeps it and lowers the non-uniform
 * entropy (SPEC section 11's tie-break), is kept. The step, a fraction of the way to the target, starts at 1
 * and halves after a pass that keeps nothing; the search stops after such a pass at step 1/16, or at the move
 * or time limit. A site that kept nothing is skipped until a kept move changes an aggregate next to it, which
 * makes passes after the first cheap.
 *
 * With the l-diversity rule on, the withheld records include the groups of k or more that fail it,
 * tracked per (aggregate, class) from the sensitive values of the rows (SPEC section 11's objective).
 * Moves are evaluated incrementally (IncrementalPartition, SuppressionLedger). Seed sites sharing a
 * location are reduced to one, as in ADC.
 *
 * resume() continues a run at another count (the budget search's later rounds): most sites have settled at
 * the finest step already, so only the sites next to what resizing changed are examined, and a finer step
 * re-examines only the sites this run examined.
 */
class SuppressionRefiner : public SiteRefiner
{
public:
    /** `entropySlack`: the most the release's NUE may rise, as a share of where it started. */
    SuppressionRefiner(std::uint64_t maxMoves, double maxSeconds, bool moveWeights = true,
                       double entropySlack = 0.05);
    static std::unique_ptr<SiteRefiner> create(const StrategyOptions& options);
    /**
     * "suppression_max_moves", "suppression_max_seconds" (0: no limit), "suppression_move_weights" and
     * "suppression_entropy_slack" (percent).
     */
    static std::vector<OptionSpec> options();
    /** report.objectiveBefore/After: records withheld by local suppression. */
    Sites refine(const RegionSet& regions, const PartitionInput& input, const ReleaseRule& rule,
                 const Partitioner& partitioner, std::vector<Point> seeds, RefinementReport& report,
                 Feedback& feedback) const override;

    /**
     * Continues from `refined` resized to `count`: every site settled but those next to the changed regions,
     * the slack counted from the located sites the chain of runs started from.
     */
    std::optional<Sites> resume(const RegionSet& regions, const PartitionInput& input,
                                const ReleaseRule& rule, const Partitioner& partitioner, const Sites& refined,
                                const RefinementReport& refinedReport, std::size_t count,
                                RefinementReport& report, Feedback& feedback) const override;

private:
    /** What a continued run starts from beside its sites. */
    struct Continuation
    {
        std::vector<RegionIndex> changedRegions;
        /** The entropy rise of the run continued (RefinementReport::entropyRise). */
        double entropyRise;
    };
    /** The refinement from `sites` (weights, zeros included, exactly when moving weights). */
    Sites run(const RegionSet& regions, const PartitionInput& input, const ReleaseRule& rule,
              const Partitioner& partitioner, Sites sites, const std::optional<Continuation>& continuation,
              std::chrono::steady_clock::time_point start, RefinementReport& report,
              Feedback& feedback) const;

    std::uint64_t mMaxMoves;
    double mMaxSeconds;
    bool mMoveWeights;
    double mEntropySlack;
};

} // namespace vbas

#pragma once

#include "SiteRefiner.h"

#include <memory>

namespace vbas
{

struct OptionSpec;
class StrategyOptions;

/**
 * refinement.adc: Anonymity-Driven Clustering (thesis L785-893, L1155-1169; SPEC section 6), a
 * k-means-like search that moves one site at a time to raise anonymity.
 *
 * Objective v = alpha |S| - |S_alpha| (alpha before local suppression, S the aggregates with
 * records). A pass takes the aggregates with records in ascending anonymity (ties: site index);
 * for each class at the aggregate's lowest count (key order) the candidate site is the mean of the
 * region points of the neighbourhood (the cell and the polygon through the neighbour sites)
 * holding that class, weighted by its count there. A move is kept only if v rises; when the
 * aggregate's anonymity rises the search restarts from the lowest aggregate. It stops when
 * alpha >= k, when a whole pass keeps no move (a local maximum), or at the move or time limit.
 * Moves are evaluated incrementally (IncrementalPartition, AdcLedger) and undone cheaply.
 * Seed sites sharing a location are reduced to one (a hidden twin owns nothing). With
 * adc_keep_withheld a kept move must also not raise the records local suppression withholds.
 */
class AdcRefiner : public SiteRefiner
{
public:
    AdcRefiner(std::uint64_t maxMoves, double maxSeconds, bool keepWithheld = false);
    static std::unique_ptr<SiteRefiner> create(const StrategyOptions& options);
    /** "adc_max_moves", "adc_max_seconds" (0: no limit) and "adc_keep_withheld". */
    static std::vector<OptionSpec> options();
    Sites refine(const RegionSet& regions, const PartitionInput& input, const ReleaseRule& rule,
                 const Partitioner& partitioner, std::vector<Point> seeds, RefinementReport& report,
                 Feedback& feedback) const override;

private:
    std::uint64_t mMaxMoves;
    double mMaxSeconds;
    bool mKeepWithheld;
};

} // namespace vbas

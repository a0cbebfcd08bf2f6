#include "AdcRefiner.h"

#include "AdcLedger.h"
#include "StrategyOptions.h"
#include "partition/Partitioner.h"
#include "suppression/SuppressionLedger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <set>

namespace vbas
{
namespace
{
using Clock = std::chrono::steady_clock;

/**
 * The weighted mean of the region points in the neighbourhood of s that hold class `cls`
 * (thesis equations 5-6); false when none does. Neighbourhood points lie in the cells of s and of
 * its neighbours, so only their members are visited.
 */
bool candidateSite(const RegionSet& regions, const IncrementalPartition& partition, SiteIndex s, ClassId cls,
                   std::vector<SiteIndex>& scratch, Point& candidate)
{
    scratch.assign(1, s);
    partition.neighbours(s, scratch);
    double sumX = 0.0, sumY = 0.0, sumW = 0.0;
    for (SiteIndex owner : scratch)
        for (RegionIndex r : partition.members(owner))
        {
            const Count weight = classCountIn(regions, r, cls);
            if (weight == 0 || !partition.inNeighbourhood(s, regions.point(r), owner))
                continue;
            sumX += double(weight) * regions.point(r).x;
            sumY += double(weight) * regions.point(r).y;
            sumW += double(weight);
        }
    if (sumW == 0.0)
        return false;
    candidate = {sumX / sumW, sumY / sumW};
    return true;
}
} // namespace

AdcRefiner::AdcRefiner(std::uint64_t maxMoves, double maxSeconds, bool keepWithheld)
    : mMaxMoves(maxMoves)
    , mMaxSeconds(maxSeconds)
    , mKeepWithheld(keepWithheld)
{
    if (!(maxSeconds >= 0.0))
        throw Error(Subject::SiteLocation, "the ADC time limit must be zero (none) or positive seconds");
}

namespace
{
const OptionSpec& maxMovesOption()
{
    static const OptionSpec spec =
        OptionSpec::integer("adc_max_moves", "ADC: most site moves to try (0: no limit)", 0, 0,
                            std::numeric_limits<double>::infinity(),
                            "Stops the refinement after this many tried moves; 0: no limit.")
            .asAdvanced();
    return spec;
}

const OptionSpec& maxSecondsOption()
{
    static const OptionSpec spec =
        OptionSpec::number("adc_max_seconds", "ADC: time limit in seconds (0: none)", 0.0, 0.0,
                           std::numeric_limits<double>::infinity(),
                           "Stops the refinement after this many seconds, keeping the best sites so far; "
                           "0: no limit. A limit makes the result depend on the machine's speed.")
            .asAdvanced();
    return spec;
}
const OptionSpec& keepWithheldOption()
{
    static const OptionSpec spec =
        OptionSpec::flag("adc_keep_withheld", "ADC: keep a move only if no more records are withheld", false,
                         "Besides raising ADC's objective, a kept move must not raise the records local "
                         "suppression withholds. Off: ADC as first published.")
            .asAdvanced();
    return spec;
}
} // namespace

std::vector<OptionSpec> AdcRefiner::options()
{
    return {maxMovesOption(), maxSecondsOption(), keepWithheldOption()};
}

std::unique_ptr<SiteRefiner> AdcRefiner::create(const StrategyOptions& options)
{
    const double seconds = options.number(maxSecondsOption());
    if (!(seconds >= 0.0))
        throw optionError("adc_max_seconds", "the time limit must be 0 (none) or positive seconds");
    return std::make_unique<AdcRefiner>(options.count(maxMovesOption()), seconds,
                                        options.flag(keepWithheldOption()));
}

Sites AdcRefiner::refine(const RegionSet& regions, const PartitionInput& input, const ReleaseRule& rule,
                         const Partitioner& partitioner, std::vector<Point> seeds, RefinementReport& report,
                         Feedback& feedback) const
{
    // ADC's objective is anonymity before suppression (SPEC section 6); l-diversity is not part of it.
    if (rule.population != nullptr)
        throw Error(Subject::Strategy,
                    "refinement.adc raises the smallest class of records, which k-map does not count; with "
                    "k_counts 'population' refine with refinement.suppression, or switch refinement off");
    const Count k = rule.k;
    const Clock::time_point start = Clock::now();
    std::vector<Point> sites = distinctSites(seeds);
    report = RefinementReport{};
    report.duplicateSitesDropped = seeds.size() - sites.size();
    if (sites.empty())
        return sites;
    const std::unique_ptr<IncrementalPartition> partition =
        partitioner.incremental(input, std::move(sites), feedback);
    AdcLedger ledger(regions, *partition);
    // Kept only with adc_keep_withheld: the records local suppression withholds.
    std::optional<SuppressionLedger> withheld;
    if (mKeepWithheld)
        withheld.emplace(regions, *partition, k);
    AdcLedger::Objective value = ledger.objective();
    report.objectiveBefore = double(value);
    report.anonymityBefore = ledger.globalAnonymity();

    std::vector<IncrementalPartition::Change> changes;
    std::vector<SiteIndex> scratch;
    const auto elapsed = [&]
    {
        return std::chrono::duration<double>(Clock::now() - start).count();
    };
    const Count alphaStart = ledger.globalAnonymity();
    while (true)
    {
        const Count alpha = ledger.globalAnonymity();
        if (alpha == 0)
        {
            report.stopReason = "no records to release";
            break;
        }
        if (alpha >= k)
        {
            report.stopReason = report.movesAccepted == 0 ? "already k-anonymous before suppression"
                                                          : "reached k before suppression";
            break;
        }
        if (alpha > alphaStart)
            feedback.setProgress(double(alpha - alphaStart) / double(k - alphaStart));

        // One pass over the aggregates with records, ascending anonymity, then site index.
        std::vector<SiteIndex> order;
        for (SiteIndex s = 0; s < partition->sites().size(); ++s)
            if (ledger.anonymity(s) > 0)
                order.push_back(s);
        std::stable_sort(order.begin(), order.end(),
                         [&](SiteIndex a, SiteIndex b) { return ledger.anonymity(a) < ledger.anonymity(b); });
        bool accepted = false, restart = false, limited = false;
        for (SiteIndex s : order)
        {
            const Count lowest = ledger.anonymity(s);
            for (ClassId cls : ledger.histogram(s).classesAt(lowest))
            {
                if (ledger.histogram(s).count(cls) != ledger.anonymity(s))
                    continue; // an earlier move of this pass changed the aggregate
                if ((mMaxMoves > 0 && report.movesTried >= mMaxMoves) ||
                    (mMaxSeconds > 0 && elapsed() >= mMaxSeconds))
                {
                    limited = true;
                    break;
                }
                if (report.movesTried % 256 == 0)
                    feedback.checkCanceled();
                Point candidate;
                const Point previous = partition->sites()[s];
                if (!candidateSite(regions, *partition, s, cls, scratch, candidate) || candidate == previous)
                    continue;
                ++report.movesTried;
                changes.clear();
                if (!partition->move(s, candidate, changes))
                    continue;
                ledger.apply(changes);
                const AdcLedger::Objective moved = ledger.objective();
                const Count withheldBefore = withheld ? withheld->withheld() : 0;
                if (withheld)
                    withheld->apply(changes);
                if (moved > value && (!withheld || withheld->withheld() <= withheldBefore))
                {
                    value = moved;
                    ++report.movesAccepted;
                    accepted = true;
                    if (ledger.anonymity(s) > lowest)
                    {
                        restart = true;
                        break;
                    }
                }
                else
                {
                    ledger.revert(changes);
                    if (withheld)
                        withheld->revert(changes);
                    partition->undo(s, previous, changes);
                }
            }
            if (restart || limited)
                break;
        }
        if (limited)
        {
            report.stopReason = mMaxMoves > 0 && report.movesTried >= mMaxMoves ? "move limit" : "time limit";
            break;
        }
        if (!accepted)
        {
            report.stopReason = "local maximum: a full pass kept no move";
            break;
        }
    }
    report.objectiveAfter = double(value);
    report.anonymityAfter = ledger.globalAnonymity();
    report.seconds = elapsed();
    return partition->sites();
}

} // namespace vbas

#include "SuppressionRefiner.h"

#include "SiteLocator.h"
#include "StrategyOptions.h"
#include "partition/Partitioner.h"
#include "suppression/SuppressionLedger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

namespace vbas
{
namespace
{
using Clock = std::chrono::steady_clock;

/** The step halves down to 1/16 of the way to a target: finer steps rarely move a region. */
constexpr double kSmallestStep = 1.0 / 16.0;
/** Deficit classes of a site whose neighbouring records are tried as targets. */
constexpr std::size_t kClassTargets = 3;
/** Neighbour sites tried as targets. */
constexpr std::size_t kSiteTargets = 2;
/** Sites of a pass between progress reports. */
constexpr std::size_t kSitesPerProgress = 16;

struct WeightedMean
{
    double x = 0.0, y = 0.0, weight = 0.0;

    void add(const Point& p, double w)
    {
        x += w * p.x;
        y += w * p.y;
        weight += w;
    }
    bool empty() const { return weight == 0.0; }
    Point mean() const { return {x / weight, y / weight}; }
};

/** Where site s might go, most promising first (see the class comment). */
class Targets
{
public:
    Targets(const RegionSet& regions, const IncrementalPartition& partition, const SuppressionLedger& ledger,
            Count k)
        : mRegions(regions)
        , mPartition(partition)
        , mLedger(ledger)
        , mK(k)
    {
    }

    const std::vector<Point>& of(SiteIndex s)
    {
        mTargets.clear();
        mNeighbours.clear();
        mPartition.neighbours(s, mNeighbours);
        // In index order: the targets' sums then do not depend on how the partition keeps its neighbours.
        std::sort(mNeighbours.begin(), mNeighbours.end());
        const Point site = mPartition.sites()[s];

        // The regions of the neighbours within reach of s, each with its site.
        mNear.clear();
        for (SiteIndex j : mNeighbours)
            for (RegionIndex r : mPartition.members(j))
                if (mPartition.inNeighbourhood(s, mRegions.point(r), j))
                    mNear.emplace_back(r, j);

        // Neighbouring regions whose withheld records this aggregate would release.
        WeightedMean gain;
        Count bestGain = 0;
        Point bestRegion;
        for (const auto& [r, j] : mNear)
        {
            Count released = 0;
            for (const ClassCount& entry : mRegions.histograms().entries(r))
                if (mLedger.belowK(j, entry.cls) && mLedger.kCountJoined(s, r, entry.cls, entry.count) >= mK)
                    released += entry.count;
            if (released == 0)
                continue;
            gain.add(mRegions.point(r), double(released));
            if (released > bestGain)
            {
                bestGain = released;
                bestRegion = mRegions.point(r);
            }
        }
        if (!gain.empty())
        {
            mTargets.push_back(gain.mean());
            mTargets.push_back(bestRegion);
        }

        // The withheld classes of this aggregate closest to k, and its own withheld records.
        mDeficit.clear();
        WeightedMean withheld;
        for (RegionIndex r : mPartition.members(s))
        {
            Count inRegion = 0;
            for (const ClassCount& entry : mRegions.histograms().entries(r))
            {
                if (!mLedger.belowK(s, entry.cls))
                    continue;
                inRegion += entry.count;
                mDeficit.emplace_back(mLedger.kCount(s, entry.cls), entry.cls);
            }
            if (inRegion > 0)
                withheld.add(mRegions.point(r), double(inRegion));
        }
        std::sort(mDeficit.begin(), mDeficit.end(),
                  [](const auto& a, const auto& b)
                  { return a.first != b.first ? a.first > b.first : a.second < b.second; });
        mDeficit.erase(std::unique(mDeficit.begin(), mDeficit.end()), mDeficit.end());
        for (std::size_t i = 0; i < mDeficit.size() && i < kClassTargets; ++i)
        {
            WeightedMean records;
            for (const auto& near : mNear)
                if (const Count count = classCountIn(mRegions, near.first, mDeficit[i].second); count > 0)
                    records.add(mRegions.point(near.first), double(count));
            if (!records.empty())
                mTargets.push_back(records.mean());
        }
        if (!withheld.empty())
        {
            // Away from them: they may be released in the neighbours that take them.
            const Point centre = withheld.mean();
            mTargets.push_back({2.0 * site.x - centre.x, 2.0 * site.y - centre.y});
        }

        std::stable_sort(mNeighbours.begin(), mNeighbours.end(),
                         [&](SiteIndex a, SiteIndex b) {
                             return mLedger.withheld(a) != mLedger.withheld(b)
                                        ? mLedger.withheld(a) > mLedger.withheld(b)
                                        : a < b;
                         });
        for (std::size_t i = 0; i < mNeighbours.size() && i < kSiteTargets; ++i)
            mTargets.push_back(mPartition.sites()[mNeighbours[i]]);
        return mTargets;
    }

    /** The neighbours of the site of the last of() call. */
    const std::vector<SiteIndex>& neighbours() const { return mNeighbours; }

private:
    const RegionSet& mRegions;
    const IncrementalPartition& mPartition;
    const SuppressionLedger& mLedger;
    Count mK;
    std::vector<Point> mTargets;
    std::vector<SiteIndex> mNeighbours;
    std::vector<std::pair<RegionIndex, SiteIndex>> mNear;
    std::vector<std::pair<Count, ClassId>> mDeficit;
};

Point clamped(const Point& p, const BoundingBox& box)
{
    return {std::clamp(p.x, box.minX, box.maxX), std::clamp(p.y, box.minY, box.maxY)};
}

const OptionSpec& maxMovesOption()
{
    static const OptionSpec spec =
        OptionSpec::integer(
            "suppression_max_moves", "Suppression refinement: most site moves to try (0: no limit)", 0, 0,
            std::numeric_limits<double>::infinity(),
            "Stops the suppression-aware refinement after this many tried moves; 0: no limit.")
            .asAdvanced();
    return spec;
}

const OptionSpec& moveWeightsOption()
{
    static const OptionSpec spec =
        OptionSpec::flag(
            "suppression_move_weights", "Suppression refinement: also change site weights", true,
            "Lets the suppression-aware refinement give sites power weights (a weighted Voronoi "
            "diagram; with the barrier and geodesic partitions the squared path length minus the "
            "weight); off: it only moves sites.")
            .asAdvanced();
    return spec;
}

const OptionSpec& entropySlackOption()
{
    static const OptionSpec spec =
        OptionSpec::number(
            "suppression_entropy_slack", "Suppression refinement: most rise in non-uniform entropy (%)", 5.0,
            0.0, std::numeric_limits<double>::infinity(),
            "The refinement keeps a move that withholds fewer records only while the release's non-uniform "
            "entropy stays within this percentage above where it started. Without a limit it withholds "
            "fewer records by making a few aggregates large and the rest small, which loses as much detail "
            "as a map with fewer regions; larger values trade detail for fewer withheld records.")
            .asAdvanced();
    return spec;
}

/** Squared distance from site s to its nearest neighbour site: the unit of its weight steps. */
double weightUnit(const IncrementalPartition& partition, SiteIndex s,
                  const std::vector<SiteIndex>& neighbours)
{
    double nearest = std::numeric_limits<double>::infinity();
    for (SiteIndex t : neighbours)
        nearest = std::min(nearest, squaredDistance(partition.sites()[s], partition.sites()[t]));
    return std::isfinite(nearest) ? nearest : 0.0;
}

const OptionSpec& maxSecondsOption()
{
    static const OptionSpec spec =
        OptionSpec::number(
            "suppression_max_seconds", "Suppression refinement: time limit in seconds (0: none)", 0.0, 0.0,
            std::numeric_limits<double>::infinity(),
            "Stops the suppression-aware refinement after this many seconds, keeping the best "
            "sites so far; 0: no limit. A limit makes the result depend on the machine's speed.")
            .asAdvanced();
    return spec;
}
} // namespace

SuppressionRefiner::SuppressionRefiner(std::uint64_t maxMoves, double maxSeconds, bool moveWeights,
                                       double entropySlack)
    : mMaxMoves(maxMoves)
    , mMaxSeconds(maxSeconds)
    , mMoveWeights(moveWeights)
    , mEntropySlack(entropySlack)
{
    if (!(maxSeconds >= 0.0))
        throw Error(Subject::SiteLocation,
                    "the suppression refinement's time limit must be zero (none) or positive seconds");
}

std::vector<OptionSpec> SuppressionRefiner::options()
{
    return {maxMovesOption(), maxSecondsOption(), moveWeightsOption(), entropySlackOption()};
}

std::unique_ptr<SiteRefiner> SuppressionRefiner::create(const StrategyOptions& options)
{
    const double seconds = options.number(maxSecondsOption());
    if (!(seconds >= 0.0))
        throw optionError("suppression_max_seconds", "the time limit must be 0 (none) or positive seconds");
    return std::make_unique<SuppressionRefiner>(options.count(maxMovesOption()), seconds,
                                                options.flag(moveWeightsOption()),
                                                options.number(entropySlackOption()) / 100.0);
}

Sites SuppressionRefiner::refine(const RegionSet& regions, const PartitionInput& input,
                                 const ReleaseRule& rule, const Partitioner& partitioner,
                                 std::vector<Point> seeds, RefinementReport& report, Feedback& feedback) const
{
    const Clock::time_point start = Clock::now();
    std::vector<Point> sites = distinctSites(seeds);
    report = RefinementReport{};
    report.duplicateSitesDropped = seeds.size() - sites.size();
    if (sites.empty())
        return sites;
    std::vector<double> zeros(mMoveWeights ? sites.size() : 0, 0.0);
    return run(regions, input, rule, partitioner, Sites(std::move(sites), std::move(zeros)), std::nullopt,
               start, report, feedback);
}

std::optional<Sites> SuppressionRefiner::resume(const RegionSet& regions, const PartitionInput& input,
                                                const ReleaseRule& rule, const Partitioner& partitioner,
                                                const Sites& refined, const RefinementReport& refinedReport,
                                                std::size_t count, RefinementReport& report,
                                                Feedback& feedback) const
{
    const Clock::time_point start = Clock::now();
    std::optional<ResizedSites> resized = resizedSites(regions, input, partitioner, refined, count, feedback);
    if (!resized)
        return std::nullopt;
    if (!mMoveWeights)
        resized->sites.weights.clear();
    report = RefinementReport{};
    report.continuedFrom = refined.points.size();
    return run(regions, input, rule, partitioner, std::move(resized->sites),
               Continuation{std::move(resized->changedRegions), refinedReport.entropyRise}, start, report,
               feedback);
}

Sites SuppressionRefiner::run(const RegionSet& regions, const PartitionInput& input, const ReleaseRule& rule,
                              const Partitioner& partitioner, Sites sites,
                              const std::optional<Continuation>& continuation, Clock::time_point start,
                              RefinementReport& report, Feedback& feedback) const
{
    const Count k = rule.k;
    const BoundingBox box = boundingBox(regions.points());
    const bool weighted = mMoveWeights;
    const std::unique_ptr<IncrementalPartition> partition =
        partitioner.incremental(input, std::move(sites), feedback);
    SuppressionLedger ledger(regions, *partition, k, rule.criteria, rule.population);
    Targets targets(regions, *partition, ledger, k);
    const Count withheldBefore = ledger.withheld();
    const std::size_t formed = ledger.formed();
    const std::size_t releasing = ledger.releasing();
    report.objectiveBefore = double(withheldBefore);
    report.anonymityBefore = ledger.globalAnonymity();

    const auto elapsed = [&]
    {
        return std::chrono::duration<double>(Clock::now() - start).count();
    };
    std::vector<IncrementalPartition::Change> changes;
    std::vector<SiteIndex> order, around, before;
    // A site that kept no move stays settled until a kept move changes an aggregate next to it:
    // its targets and their outcomes depend on those aggregates alone (up to a second ring).
    // A continued refinement starts with every site settled but those next to the regions resizing changed,
    // and a finer step re-examines only the sites this run examined: the others had settled at the finest
    // step.
    std::vector<char> settled(partition->sites().size(), continuation ? 1 : 0), examined(settled.size(), 0);
    const auto unsettleAround = [&](SiteIndex site)
    {
        settled[site] = 0;
        around.clear();
        partition->neighbours(site, around);
        for (SiteIndex t : around)
            settled[t] = 0;
    };
    if (continuation)
        for (const RegionIndex r : continuation->changedRegions)
            if (settled[partition->regionSite()[r]])
                unsettleAround(partition->regionSite()[r]);
    // SPEC section 11: at equal withheld records, lower non-uniform entropy decides. Only the aggregates a
    // move touched change their part of it: each aggregate's part is kept, and a move recomputes only
    // those of the aggregates it touched.
    std::vector<double> siteEntropy(partition->sites().size());
    double entropy = 0.0;
    for (SiteIndex s = 0; s < partition->sites().size(); ++s)
        entropy += siteEntropy[s] = ledger.entropyTerm(s, partition->members(s));
    std::vector<SiteIndex> touched;
    std::vector<double> touchedAfter;
    /** The NUE of the aggregates `moved` touched, after and before it (applied to the ledger). */
    const auto entropyChange = [&](const std::vector<IncrementalPartition::Change>& moved)
    {
        touched.clear();
        for (const IncrementalPartition::Change& change : moved)
            touched.insert(touched.end(), {change.from, change.to});
        std::sort(touched.begin(), touched.end());
        touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
        touchedAfter.clear();
        double after = 0.0, previously = 0.0;
        for (const SiteIndex t : touched)
        {
            touchedAfter.push_back(ledger.entropyTerm(t, partition->members(t)));
            after += touchedAfter.back();
            previously += siteEntropy[t];
        }
        return std::pair{after, previously};
    };
    // Withheld records fall most by making some aggregates large and others small, which coarsens
    // the map as much as fewer regions would: the release's NUE may rise by the slack at most.
    // A continued run counts from the entropy of the located sites its chain started from, estimated by the
    // rise of the run it continues, so that warm starts one after another do not add up their slack.
    const double entropyStart = entropy;
    const double locatedEntropy = continuation ? entropy / std::max(1.0, continuation->entropyRise) : entropy;
    const double entropyCap =
        std::isinf(mEntropySlack) ? mEntropySlack : std::max(entropy, locatedEntropy * (1.0 + mEntropySlack));
    double step = 1.0;
    // Progress: a fifth per step size (1 down to kSmallestStep), within it by passes and the sites of a pass.
    std::size_t levelsDone = 0, passesAtLevel = 0;
    while (true)
    {
        if (ledger.withheld() == 0)
        {
            report.stopReason = "no records withheld";
            break;
        }
        order.clear();
        for (SiteIndex s = 0; s < partition->sites().size(); ++s)
            if (ledger.withheld(s) > 0 && !settled[s])
                order.push_back(s);
        std::stable_sort(order.begin(), order.end(),
                         [&](SiteIndex a, SiteIndex b) { return ledger.withheld(a) > ledger.withheld(b); });
        bool kept = false, limited = false;
        for (std::size_t position = 0; position < order.size(); ++position)
        {
            if (position % kSitesPerProgress == 0)
                feedback.setProgress((double(levelsDone) +
                                      passProgress(passesAtLevel, double(position) / double(order.size()))) /
                                     5.0);
            const SiteIndex s = order[position];
            if (ledger.withheld(s) == 0 || settled[s])
                continue; // an earlier move of this pass released its records or settled it
            examined[s] = 1;
            const Point previous = partition->sites()[s];
            const std::vector<Point>& toward = targets.of(s);
            before = targets.neighbours();
            bool keptHere = false;
            // Candidate moves in order: the weight up and down (weighted partitions), then the
            // position toward each target.
            const std::size_t weightMoves = weighted ? 2 : 0;
            const double weightStep = weighted ? step * weightUnit(*partition, s, before) : 0.0;
            const double previousWeight = weighted ? partition->weights()[s] : 0.0;
            for (std::size_t move = 0; move < weightMoves + toward.size(); ++move)
            {
                if ((mMaxMoves > 0 && report.movesTried >= mMaxMoves) ||
                    (mMaxSeconds > 0 && elapsed() >= mMaxSeconds))
                {
                    limited = true;
                    break;
                }
                if (report.movesTried % 64 == 0)
                    feedback.checkCanceled();
                changes.clear();
                if (move < weightMoves)
                {
                    if (weightStep == 0.0)
                        continue;
                    ++report.movesTried;
                    partition->reweigh(s, previousWeight + (move == 0 ? weightStep : -weightStep), changes);
                }
                else
                {
                    const Point& target = toward[move - weightMoves];
                    const Point candidate = clamped({previous.x + step * (target.x - previous.x),
                                                     previous.y + step * (target.y - previous.y)},
                                                    box);
                    if (candidate == previous)
                        continue;
                    ++report.movesTried;
                    if (!partition->move(s, candidate, changes))
                        continue;
                }
                const Count withheld = ledger.withheld();
                ledger.apply(changes);
                const bool fewer = ledger.withheld() < withheld;
                if (ledger.formed() >= formed && ledger.releasing() >= releasing &&
                    ledger.withheld() <= withheld)
                {
                    const auto [after, previously] = entropyChange(changes);
                    const bool lowers = after < previously - 1e-9 * std::max(1.0, previously);
                    if (lowers || (fewer && entropy + after - previously <= entropyCap))
                    {
                        entropy += after - previously;
                        for (std::size_t i = 0; i < touched.size(); ++i)
                            siteEntropy[touched[i]] = touchedAfter[i];
                        ++report.movesAccepted;
                        report.movesAcceptedOnTie += !fewer;
                        kept = keptHere = true;
                        break;
                    }
                }
                ledger.revert(changes);
                if (move < weightMoves)
                    partition->undoReweigh(s, previousWeight, changes);
                else
                    partition->undo(s, previous, changes);
            }
            if (limited)
                break;
            if (!keptHere)
            {
                settled[s] = 1;
                continue;
            }
            for (const IncrementalPartition::Change& change : changes)
            {
                unsettleAround(change.from);
                unsettleAround(change.to);
            }
            for (SiteIndex t : before)
                settled[t] = 0;
            unsettleAround(s);
        }
        if (limited)
        {
            report.stopReason = mMaxMoves > 0 && report.movesTried >= mMaxMoves ? "move limit" : "time limit";
            break;
        }
        if (!kept)
        {
            if (step <= kSmallestStep)
            {
                report.stopReason = "a pass at the smallest step kept no move";
                break;
            }
            step /= 2.0;
            for (SiteIndex s = 0; s < settled.size(); ++s)
                settled[s] = continuation && !examined[s];
            ++levelsDone;
            passesAtLevel = 0;
        }
        else
            ++passesAtLevel;
    }
    report.objectiveAfter = double(ledger.withheld());
    report.anonymityAfter = ledger.globalAnonymity();
    report.seconds = elapsed();
    report.entropyRise = entropyStart > 0.0 ? entropy / locatedEntropy : 1.0;
    Sites refined(partition->sites(), partition->weights());
    if (!refined.weighted())
        refined.weights.clear();
    return refined;
}

} // namespace vbas

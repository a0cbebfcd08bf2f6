#include "AreaMoveRefiner.h"

#include "StrategyOptions.h"
#include "suppression/SuppressionLedger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <tuple>

namespace vbas
{
namespace
{
using Clock = std::chrono::steady_clock;

const OptionSpec& entropySlackOption()
{
    static const OptionSpec spec =
        OptionSpec::number(
            "boundary_entropy_slack", "Boundary moves: most rise in non-uniform entropy (%)", 0.0, 0.0,
            std::numeric_limits<double>::infinity(),
            "A small area moves to a neighbouring region only while the release's non-uniform entropy "
            "stays within this percentage above where the moves started (0: it may not rise; the "
            "suppression refinement before them has its own limit). Larger values trade detail for fewer "
            "withheld records.")
            .asAdvanced();
    return spec;
}

const OptionSpec& borderShareOption()
{
    static const OptionSpec spec =
        OptionSpec::number(
            "boundary_border_share", "Boundary moves: least border with the region joined (%)", 50.0, 0.0,
            100.0,
            "A small area moves only to a region with which it shares at least this percentage of the "
            "border it shares with the region it leaves. 50 keeps regions compact; 0 lets an area join "
            "any bordering region, which withholds fewer records but draws regions with long arms.")
            .asAdvanced();
    return spec;
}

const OptionSpec& maxSecondsOption()
{
    static const OptionSpec spec =
        OptionSpec::number("boundary_max_seconds", "Boundary moves: time limit in seconds (0: none)", 0.0,
                           0.0, std::numeric_limits<double>::infinity(),
                           "Stops the boundary moves after this many seconds, keeping the moves made so far; "
                           "0: no limit. A limit makes the result depend on the machine's speed.")
            .asAdvanced();
    return spec;
}

/** Counts the pieces (sets of regions linked by shared borders) of an aggregate's members but `left`. */
class Pieces
{
public:
    Pieces(const RegionAdjacency& adjacency, const std::vector<SiteIndex>& regionSite)
        : mAdjacency(adjacency)
        , mRegionSite(regionSite)
        , mMark(regionSite.size(), 0)
    {
    }

    /** Pieces of `members` without the regions `left` (marked first, so never entered). */
    std::size_t count(const std::vector<RegionIndex>& members, const std::vector<RegionIndex>& left)
    {
        ++mStamp;
        for (RegionIndex r : left)
            mMark[r] = mStamp;
        std::size_t pieces = 0;
        for (RegionIndex start : members)
        {
            if (mMark[start] == mStamp)
                continue;
            ++pieces;
            mMark[start] = mStamp;
            mStack.assign(1, start);
            while (!mStack.empty())
            {
                const RegionIndex r = mStack.back();
                mStack.pop_back();
                for (const auto* n = mAdjacency.neighboursBegin(r); n != mAdjacency.neighboursEnd(r); ++n)
                    if (mMark[n->region] != mStamp && mRegionSite[n->region] == mRegionSite[start])
                    {
                        mMark[n->region] = mStamp;
                        mStack.push_back(n->region);
                    }
            }
        }
        return pieces;
    }

private:
    const RegionAdjacency& mAdjacency;
    const std::vector<SiteIndex>& mRegionSite;
    std::vector<std::uint32_t> mMark;
    std::uint32_t mStamp = 0;
    std::vector<RegionIndex> mStack;
};
/** Changed classes up to which termAfter() looks each one up in a member's entries rather than scans them. */
constexpr std::size_t kLookUpLimit = 8;

double nLogN(Count n)
{
    return n > 0 ? double(n) * std::log2(double(n)) : 0.0;
}

/**
 * The search state: the ledger of the current assignment, every aggregate's members, and what its part
 * of the non-uniform entropy (SPEC section 7) is made of: N log2 N - sum over members of n log2 n, n the
 * records a member keeps released and N their sum. A move takes one or two regions of one aggregate to a
 * bordering one; its entropy change is counted from the classes whose release it changes, so a tried move
 * costs the entries of the moved regions and a look-up per member and changed class.
 */
class MoveSearch
{
public:
    MoveSearch(const BoundaryInput& input, const ReleaseRule& rule, std::vector<SiteIndex>& regionSite,
               std::size_t sites, double entropySlack, double borderShare)
        : mInput(input)
        , mRegions(input.regions)
        , mAdjacency(input.adjacency)
        , mK(rule.k)
        , mBorderShare(borderShare)
        , mCountsDecide(rule.population == nullptr)
        , mScreen(mCountsDecide && (rule.criteria == nullptr || !rule.criteria->summarized()))
        , mRegionSite(regionSite)
        , mLedger(input.regions, regionSite, sites, rule.k, rule.criteria, rule.population)
        , mMembers(sites)
        , mReleased(input.regions.size(), 0)
        , mSiteReleased(sites, 0)
        , mSiteSum(sites, 0.0)
        , mPieces(input.adjacency, regionSite)
        , mClassMark(input.regions.classCount(), 0)
        , mClassIndex(input.regions.classCount(), 0)
        , mChangeSign(input.regions.classCount(), 0)
    {
        for (RegionIndex r = 0; r < mRegions.size(); ++r)
            if (regionSite[r] != kNoSite)
                mMembers[regionSite[r]].push_back(r);
        for (SiteIndex s = 0; s < sites; ++s)
        {
            recount(s);
            mEntropy += term(s);
        }
        // Fewer withheld records by growing some aggregates and shrinking others would coarsen the map as
        // fewer regions would: the release's NUE may rise by the slack at most.
        mEntropyCap = std::isinf(entropySlack) ? entropySlack : mEntropy * (1.0 + entropySlack);
        mFormed = mLedger.formed();
        mReleasing = mLedger.releasing();
    }

    const SuppressionLedger& ledger() const { return mLedger; }

    /**
     * Moves `moved` (one or two regions of one aggregate with records, a second one bordering the first)
     * to the bordering aggregate that lowers (withheld records, deficit, entropy) most, if any does within
     * the entropy cap, the released regions and the pieces of the aggregate left. Returns whether it moved.
     */
    bool tryMove(const std::vector<RegionIndex>& moved, std::uint64_t& tried)
    {
        const SiteIndex from = mRegionSite[moved.front()];
        if (from == kNoSite || mMembers[from].size() <= moved.size() || mLedger.withheld() == 0)
            return false;
        mTargets.clear();
        for (RegionIndex a : moved)
            addTargets(a, from);
        if (mBorderShare > 0.0)
        {
            // Regions with long arms of other regions' areas read badly on a map.
            const double left = mBorderShare * borderWith(moved, from);
            mTargets.erase(std::remove_if(mTargets.begin(), mTargets.end(),
                                          [&](SiteIndex to) { return borderWith(moved, to) < left; }),
                           mTargets.end());
        }
        if (mTargets.empty())
            return false;
        mChanges.clear();
        for (RegionIndex a : moved)
            mChanges.push_back({a, from, kNoSite});
        collectClasses(moved);
        const Count withheldNow = mLedger.withheld();
        SiteIndex best = kNoSite;
        Count bestWithheld = withheldNow;
        std::int64_t bestDeficit = 0;
        double bestChange = 0.0;
        for (const SiteIndex to : mTargets)
        {
            ++tried;
            for (IncrementalPartition::Change& change : mChanges)
                change.to = to;
            const CountChange counted = mCountsDecide ? countChange(from, to) : CountChange{};
            // Without l-diversity the counts alone decide what is withheld: most moves stop here, before
            // the ledger is touched.
            if (mScreen && (counted.belowK > 0 || (counted.belowK == 0 && counted.deficit > 0)))
                continue;
            const std::int64_t deficitChange = counted.deficit;
            statuses(from, to, mBefore);
            mLedger.apply(mChanges);
            const Count withheld = mLedger.withheld();
            if (withheld <= bestWithheld && mLedger.formed() >= mFormed && mLedger.releasing() >= mReleasing)
            {
                if (best != kNoSite &&
                    std::tie(withheld, deficitChange) > std::tie(bestWithheld, bestDeficit))
                {
                    mLedger.revert(mChanges);
                    continue;
                }
                statuses(from, to, mAfter);
                const double entropyChange =
                    termAfter(from, moved, false) + termAfter(to, moved, true) - term(from) - term(to);
                const double tolerance = 1e-9 * std::max(1.0, term(from) + term(to));
                // Each kept move lowers (withheld, deficit, entropy) in this order, so the passes end.
                const bool allowed = withheld < withheldNow || deficitChange < 0
                                         ? mEntropy + entropyChange <= mEntropyCap
                                         : deficitChange == 0 && entropyChange < -tolerance;
                if (allowed && (best == kNoSite ||
                                std::tie(withheld, deficitChange) < std::tie(bestWithheld, bestDeficit) ||
                                (withheld == bestWithheld && deficitChange == bestDeficit &&
                                 entropyChange < bestChange)))
                {
                    best = to;
                    bestWithheld = withheld;
                    bestDeficit = deficitChange;
                    bestChange = entropyChange;
                }
            }
            mLedger.revert(mChanges);
        }
        if (best == kNoSite || mPieces.count(mMembers[from], moved) > mPieces.count(mMembers[from], {}))
            return false;
        for (IncrementalPartition::Change& change : mChanges)
            change.to = best;
        mLedger.apply(mChanges);
        std::vector<RegionIndex>& left = mMembers[from];
        left.erase(std::remove_if(left.begin(), left.end(),
                                  [&](RegionIndex r)
                                  { return std::find(moved.begin(), moved.end(), r) != moved.end(); }),
                   left.end());
        for (RegionIndex a : moved)
        {
            mMembers[best].push_back(a);
            mRegionSite[a] = best;
        }
        // Counted afresh for the two aggregates, so no rounding accumulates over many moves.
        mEntropy -= term(from) + term(best);
        recount(from);
        recount(best);
        mEntropy += term(from) + term(best);
        return true;
    }

private:
    double term(SiteIndex s) const { return nLogN(mSiteReleased[s]) - mSiteSum[s]; }

    void recount(SiteIndex s)
    {
        mSiteReleased[s] = 0;
        mSiteSum[s] = 0.0;
        for (RegionIndex r : mMembers[s])
        {
            mReleased[r] = mRegions.records(r) - mLedger.withheldOf(r, s);
            mSiteReleased[s] += mReleased[r];
            mSiteSum[s] += nLogN(mReleased[r]);
        }
    }

    /** The length of border the moved regions share with the regions of site s (but themselves). */
    double borderWith(const std::vector<RegionIndex>& moved, SiteIndex s) const
    {
        double length = 0.0;
        for (RegionIndex a : moved)
            for (const auto* n = mAdjacency.neighboursBegin(a); n != mAdjacency.neighboursEnd(a); ++n)
                if (mRegionSite[n->region] == s &&
                    std::find(moved.begin(), moved.end(), n->region) == moved.end())
                    length += mAdjacency.pairs()[n->pair].sharedLength;
        return length;
    }

    /** The aggregates region a borders, through a border no obstacle cuts, within its parent. */
    void addTargets(RegionIndex a, SiteIndex from)
    {
        for (const auto* n = mAdjacency.neighboursBegin(a); n != mAdjacency.neighboursEnd(a); ++n)
        {
            const SiteIndex to = mRegionSite[n->region];
            if (to == kNoSite || to == from ||
                (!mInput.regionParent.empty() && mInput.regionParent[n->region] != mInput.regionParent[a]))
                continue;
            const Point border = mAdjacency.pairs()[n->pair].border;
            if (mInput.obstacles != nullptr && (mInput.obstacles->blocks(mRegions.point(a), border) ||
                                                mInput.obstacles->blocks(border, mRegions.point(n->region))))
                continue;
            if (std::find(mTargets.begin(), mTargets.end(), to) == mTargets.end())
                mTargets.push_back(to);
        }
        std::sort(mTargets.begin(), mTargets.end());
    }

    /** The classes the moved regions hold, each once with their records: only their groups change. */
    void collectClasses(const std::vector<RegionIndex>& moved)
    {
        ++mClassStamp;
        mClasses.clear();
        mMovedCounts.clear();
        for (RegionIndex a : moved)
            for (const ClassCount& entry : mRegions.histograms().entries(a))
                if (mClassMark[entry.cls] != mClassStamp)
                {
                    mClassMark[entry.cls] = mClassStamp;
                    mClassIndex[entry.cls] = std::uint32_t(mClasses.size());
                    mClasses.push_back(entry.cls);
                    mMovedCounts.push_back(entry.count);
                }
                else
                    mMovedCounts[mClassIndex[entry.cls]] += entry.count;
    }

    /** What moving the collected classes does to the groups below k of the two aggregates. */
    struct CountChange
    {
        /** The change of the records in groups below k (all that is withheld without l-diversity). */
        std::int64_t belowK = 0;
        /**
         * The change of the deficit: the sum over groups below k of k minus their records. A move that
         * withholds as many records but brings groups nearer k (or empties them) opens moves that
         * release them.
         */
        std::int64_t deficit = 0;
    };

    /** The change of the counts if the collected classes moved from one aggregate to the other. */
    CountChange countChange(SiteIndex from, SiteIndex to) const
    {
        const auto below = [this](Count count)
        {
            return count > 0 && count < mK;
        };
        CountChange change;
        for (std::size_t i = 0; i < mClasses.size(); ++i)
        {
            const Count moved = mMovedCounts[i];
            for (const auto& [before, after] :
                 {std::pair{mLedger.count(from, mClasses[i]), mLedger.count(from, mClasses[i]) - moved},
                  std::pair{mLedger.count(to, mClasses[i]), mLedger.count(to, mClasses[i]) + moved}})
            {
                change.belowK +=
                    (below(after) ? std::int64_t(after) : 0) - (below(before) ? std::int64_t(before) : 0);
                change.deficit += (below(after) ? std::int64_t(mK - after) : 0) -
                                  (below(before) ? std::int64_t(mK - before) : 0);
            }
        }
        return change;
    }

    /** Whether the two aggregates release each collected class: (from, to) per class. */
    void statuses(SiteIndex from, SiteIndex to, std::vector<std::pair<bool, bool>>& out) const
    {
        out.clear();
        for (ClassId cls : mClasses)
            out.emplace_back(mLedger.releasesClass(from, cls), mLedger.releasesClass(to, cls));
    }

    /**
     * Aggregate s's part of the entropy after the applied move: without the moved regions (the one left,
     * `taking` false) or with them; members keep their released records but for the classes whose
     * release the move changed.
     */
    double termAfter(SiteIndex s, const std::vector<RegionIndex>& moved, bool taking)
    {
        Count released = mSiteReleased[s];
        double sum = mSiteSum[s];
        mChanged.clear();
        for (std::size_t i = 0; i < mClasses.size(); ++i)
        {
            const bool before = taking ? mBefore[i].second : mBefore[i].first;
            const bool after = taking ? mAfter[i].second : mAfter[i].first;
            if (before != after)
                mChanged.emplace_back(mClasses[i], after);
        }
        if (!taking)
            for (RegionIndex a : moved)
            {
                released -= mReleased[a];
                sum -= nLogN(mReleased[a]);
            }
        // Few changed classes: look each up in a member's entries; many: read the entries once against a
        // per-class sign.
        const bool scan = mChanged.size() > kLookUpLimit;
        if (scan)
            for (const auto& [cls, releasedNow] : mChanged)
                mChangeSign[cls] = releasedNow ? 1 : -1;
        if (!mChanged.empty())
            for (RegionIndex r : mMembers[s])
            {
                if (!taking && std::find(moved.begin(), moved.end(), r) != moved.end())
                    continue;
                std::int64_t delta = 0;
                if (scan)
                    for (const ClassCount& entry : mRegions.histograms().entries(r))
                        delta += mChangeSign[entry.cls] * std::int64_t(entry.count);
                else
                    for (const auto& [cls, releasedNow] : mChanged)
                    {
                        const Count count = classCountIn(mRegions, r, cls);
                        delta += releasedNow ? std::int64_t(count) : -std::int64_t(count);
                    }
                if (delta == 0)
                    continue;
                const Count now = Count(std::int64_t(mReleased[r]) + delta);
                released = Count(std::int64_t(released) + delta);
                sum += nLogN(now) - nLogN(mReleased[r]);
            }
        if (scan)
            for (const auto& [cls, releasedNow] : mChanged)
                mChangeSign[cls] = 0;
        if (taking)
            for (RegionIndex a : moved)
            {
                const Count kept = mRegions.records(a) - mLedger.withheldOf(a, s);
                released += kept;
                sum += nLogN(kept);
            }
        return nLogN(released) - sum;
    }

    const BoundaryInput& mInput;
    const RegionSet& mRegions;
    const RegionAdjacency& mAdjacency;
    Count mK;
    /** The least border with the aggregate joined, as a share of the border with the aggregate left. */
    double mBorderShare;
    /**
     * Whether the moved records' counts decide what k withholds: under k-map the people of every class moved
     * do, which countChange() does not see (its deficit is then 0, and the ledger alone decides).
     */
    bool mCountsDecide;
    /** Whether countChange() may skip moves (it knows nothing of l-diversity or k-map). */
    bool mScreen;
    std::vector<SiteIndex>& mRegionSite;
    SuppressionLedger mLedger;
    std::vector<std::vector<RegionIndex>> mMembers;
    /** Records each region keeps released in its aggregate; per aggregate their sum and sum of n log2 n. */
    std::vector<Count> mReleased;
    std::vector<Count> mSiteReleased;
    std::vector<double> mSiteSum;
    double mEntropy = 0.0;
    double mEntropyCap = 0.0;
    std::size_t mFormed = 0;
    std::size_t mReleasing = 0;
    Pieces mPieces;
    /** Per class: the stamp of the last collectClasses() that met it, and its index there. */
    std::vector<std::uint32_t> mClassMark;
    std::vector<std::uint32_t> mClassIndex;
    std::uint32_t mClassStamp = 0;
    std::vector<ClassId> mClasses;
    std::vector<Count> mMovedCounts;
    std::vector<std::pair<bool, bool>> mBefore, mAfter;
    std::vector<std::pair<ClassId, bool>> mChanged;
    /** Per class: +1 or -1 while termAfter() scans entries for a changed class, else 0. */
    std::vector<std::int8_t> mChangeSign;
    std::vector<SiteIndex> mTargets;
    std::vector<IncrementalPartition::Change> mChanges;
};
} // namespace

AreaMoveRefiner::AreaMoveRefiner(double entropySlack, double borderShare, double maxSeconds)
    : mEntropySlack(entropySlack)
    , mBorderShare(borderShare)
    , mMaxSeconds(maxSeconds)
{
    if (!(entropySlack >= 0.0) || !(borderShare >= 0.0) || !(maxSeconds >= 0.0))
        throw Error(
            Subject::Partition,
            "the boundary moves' entropy slack, border share and time limit must be zero or positive");
}

std::vector<OptionSpec> AreaMoveRefiner::options()
{
    return {entropySlackOption(), borderShareOption(), maxSecondsOption()};
}

std::unique_ptr<BoundaryRefiner> AreaMoveRefiner::create(const StrategyOptions& options)
{
    return std::make_unique<AreaMoveRefiner>(options.number(entropySlackOption()) / 100.0,
                                             options.number(borderShareOption()) / 100.0,
                                             options.number(maxSecondsOption()));
}

void AreaMoveRefiner::refine(const BoundaryInput& input, const ReleaseRule& rule,
                             std::vector<SiteIndex>& regionSite, std::size_t sites, RefinementReport& report,
                             Feedback& feedback) const
{
    const Clock::time_point start = Clock::now();
    const RegionSet& regions = input.regions;
    const RegionAdjacency& adjacency = input.adjacency;
    if (adjacency.regionCount() != regions.size() || regionSite.size() != regions.size())
        throw Error(Subject::Partition, "the boundary moves need the adjacency and the site of every region");
    report = RefinementReport{};
    MoveSearch search(input, rule, regionSite, sites, mEntropySlack, mBorderShare);
    report.objectiveBefore = double(search.ledger().withheld());
    report.anonymityBefore = search.ledger().globalAnonymity();
    std::vector<RegionIndex> moved;
    // Passes of single moves until one keeps nothing, then a pass of pairs (a region and a neighbour of its
    // aggregate: a step no single move takes), and single moves again after a pair was kept.
    bool pairs = false;
    for (std::size_t pass = 0;; ++pass)
    {
        std::size_t kept = 0;
        bool limited = false;
        for (RegionIndex a = 0; a < regions.size() && !limited; ++a)
        {
            if (a % 256 == 0)
            {
                feedback.checkCanceled();
                feedback.setProgress(passProgress(pass, double(a) / double(regions.size())));
                limited = mMaxSeconds > 0 &&
                          std::chrono::duration<double>(Clock::now() - start).count() >= mMaxSeconds;
            }
            if (regionSite[a] == kNoSite || regions.records(a) == 0)
                continue;
            if (!pairs)
            {
                moved.assign(1, a);
                kept += search.tryMove(moved, report.movesTried);
                continue;
            }
            for (const auto* n = adjacency.neighboursBegin(a); n != adjacency.neighboursEnd(a); ++n)
            {
                if (n->region < a || regionSite[n->region] != regionSite[a] ||
                    regions.records(n->region) == 0)
                    continue;
                moved.assign({a, n->region});
                if (search.tryMove(moved, report.movesTried))
                {
                    ++kept;
                    break;
                }
            }
        }
        report.movesAccepted += kept;
        if (limited)
        {
            report.stopReason = "time limit";
            break;
        }
        if (search.ledger().withheld() == 0)
        {
            report.stopReason = "no records withheld";
            break;
        }
        if (kept == 0 && pairs)
        {
            report.stopReason = "a pass of pairs kept no move";
            break;
        }
        pairs = kept == 0;
    }
    report.objectiveAfter = double(search.ledger().withheld());
    report.anonymityAfter = search.ledger().globalAnonymity();
    report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace vbas

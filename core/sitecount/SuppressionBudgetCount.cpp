#include "SuppressionBudgetCount.h"

#include "StrategyOptions.h"
#include "base/NumberText.h"
#include "sitecount/SuppressionBudget.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>

namespace vbas
{
namespace
{
/** Counts above the boundary confirmed with a refined release, as withholding is not strictly monotone. */
constexpr std::uint64_t kConfirmations = 2;
/**
 * Counts per count of tolerance: the search stops narrowing once the counts within and over the budget are
 * at most a 400th of the count apart (exact below 800 counts). Near the boundary the refined releases
 * withhold up and down by about that much from one count to the next, so narrowing further costs rounds of
 * refined releases and finds noise.
 */
constexpr std::uint64_t kCountsPerTolerance = 400;
/** The first two guesses at the share (kGuessedShare) when the search has a tolerance. */
constexpr double kLowGuessedShare = 1.45, kHighGuessedShare = 1.6;
/**
 * A first guess at how many times what the refined release withholds the located one withholds near the
 * boundary (1.53 on the Eastern benchmark with the region moves), for a speculative first bracket.
 */
constexpr double kGuessedShare = 1.5;

/** How far apart the counts within and over the budget may end, at count `lo`: 1 is exact. */
std::uint64_t tolerance(std::uint64_t lo)
{
    return std::max<std::uint64_t>(1, lo / kCountsPerTolerance);
}

/** The withheld records of every count tried, each released once. */
class Trials
{
public:
    Trials(ReleaseProbe& probe, Feedback& feedback)
        : mProbe(probe)
        , mFeedback(feedback)
    {
    }

    Count withheld(std::uint64_t sites, bool refined) { return withheldOfEach({sites}, refined).front(); }

    /** withheld() of each count; those not tried yet are released in one call of the probe. */
    std::vector<Count> withheldOfEach(const std::vector<std::uint64_t>& counts, bool refined)
    {
        auto& memo = refined ? mRefined : mLocated;
        std::vector<std::uint64_t> untried;
        for (const std::uint64_t sites : counts)
            if (memo.count(sites) == 0 && std::find(untried.begin(), untried.end(), sites) == untried.end())
                untried.push_back(sites);
        std::sort(untried.begin(), untried.end());
        if (!untried.empty())
        {
            // The releases of this call fill the progress from what the ones before reached, a refined
            // release counting as eight without refinement: the total is not known, so each gives a share of
            // what is left.
            const double before = progress();
            const double after = progress(refined ? untried.size() : 0, refined ? 0 : untried.size());
            std::vector<Count> values;
            {
                Feedback::Stage stage(mFeedback, before, after);
                values = mProbe.withheldOfEach(untried, refined, mFeedback, mRefinedFrom);
            }
            for (std::size_t i = 0; i < untried.size(); ++i)
                memo.emplace(untried[i], values[i]);
        }
        std::vector<Count> values;
        for (const std::uint64_t sites : counts)
            values.push_back(memo.at(sites));
        return values;
    }

    /**
     * Refined releases from here on continue from the nearest count tried refined (large data, where the
     * search stops at a tolerance anyway): rounds after the first cost a fraction of a refinement.
     */
    void continueRefinements() { mRefinedFrom = ReleaseProbe::RefinedFrom::NearestTried; }

    bool tried(std::uint64_t sites, bool refined) const
    {
        return (refined ? mRefined : mLocated).count(sites) > 0;
    }

    /** Releases made so far, refined or not. */
    std::size_t count() const { return mRefined.size() + mLocated.size(); }

    /** The least count above `from` tried refined that withholds more than `budget`, if any. */
    std::optional<std::uint64_t> leastOver(std::uint64_t from, Count budget) const
    {
        for (auto tried = mRefined.upper_bound(from); tried != mRefined.end(); ++tried)
            if (tried->second > budget)
                return tried->first;
        return std::nullopt;
    }

    /** What a release at `sites` withholds, refined when it was tried so, else located, when tried. */
    std::optional<Count> withheldAt(std::uint64_t sites) const
    {
        if (const std::optional<Count> refined = refinedWithheld(sites))
            return refined;
        const auto found = mLocated.find(sites);
        return found == mLocated.end() ? std::nullopt : std::optional<Count>(found->second);
    }

    /** What a refined release at `sites` withholds, when it was tried. */
    std::optional<Count> refinedWithheld(std::uint64_t sites) const
    {
        const auto found = mRefined.find(sites);
        return found == mRefined.end() ? std::nullopt : std::optional<Count>(found->second);
    }

private:
    /** Progress of the search after the releases made so far and `refined` and `located` more. */
    double progress(std::size_t refined = 0, std::size_t located = 0) const
    {
        const double releases = double(mRefined.size() + refined) + double(mLocated.size() + located) / 8.0;
        return 1.0 - std::exp(-releases / 6.0);
    }

    ReleaseProbe& mProbe;
    Feedback& mFeedback;
    std::map<std::uint64_t, Count> mLocated;
    std::map<std::uint64_t, Count> mRefined;
    ReleaseProbe::RefinedFrom mRefinedFrom = ReleaseProbe::RefinedFrom::Located;
};

/**
 * The largest s in (lo, hi) with withheld(s) <= budget, given withheld(lo) <= budget < withheld(hi):
 * interpolation, and bisection when it stalls at an end or moved the same end twice running
 * (withholding is convex in s, so interpolation alone creeps up from below). Each step releases a
 * second count with the one it aims at, which the probe may release alongside: a third of the way from
 * it to hi, at least the next count (interpolation lands at or below the boundary), when that lies inside
 * the bracket, else (refined releases) the first untried count above hi, which confirming a boundary just
 * below hi needs. Refined releases of large data stop at their tolerance(): each step releases two counts
 * a tolerance apart around the aim, which end the search when they straddle the boundary.
 */
std::uint64_t boundary(std::uint64_t lo, Count atLo, std::uint64_t hi, Count atHi, Count budget,
                       std::uint64_t most, Trials& trials, bool refined)
{
    int sameEnd = 0;
    bool lastLow = false;
    while (hi - lo > (refined ? tolerance(lo) : 1))
    {
        const double share = double(budget - atLo) / double(atHi - atLo);
        std::uint64_t mid = lo + std::uint64_t(share * double(hi - lo));
        const std::uint64_t width = refined ? tolerance(lo) : 1;
        if (mid <= lo || mid >= hi || sameEnd >= (width > 1 ? 3 : 2))
            mid = lo + (hi - lo) / 2;
        if (width > 1)
        {
            // Two counts a tolerance apart at the aim, which end the search when they straddle the boundary:
            // centred on it, or above it after the low end moved (convexity keeps interpolation low), below
            // it after the high end moved.
            const std::uint64_t offset = sameEnd == 0 ? width / 2 : lastLow ? 0 : width;
            const std::uint64_t first = std::max(lo + 1, mid - std::min(mid, offset));
            const std::uint64_t second = std::min(hi - 1, first + width);
            std::vector<std::uint64_t> counts{first};
            if (second > first)
                counts.push_back(second);
            const std::vector<Count> values = trials.withheldOfEach(counts, refined);
            const std::uint64_t oldLo = lo, oldHi = hi;
            for (std::size_t i = 0; i < counts.size(); ++i)
                if (hi == oldHi && values[i] <= budget)
                    lo = counts[i], atLo = values[i];
                else if (hi == oldHi)
                    hi = counts[i], atHi = values[i];
            const bool movedLo = lo != oldLo, movedHi = hi != oldHi;
            sameEnd = movedLo == movedHi ? 0 : movedLo == lastLow ? sameEnd + 1 : 1;
            lastLow = movedLo;
            continue;
        }
        std::vector<std::uint64_t> counts{mid};
        if (const std::uint64_t further = mid + std::max<std::uint64_t>(1, (hi - mid) / 3); further < hi)
            counts.push_back(further);
        else if (refined)
            for (std::uint64_t above = hi + 1; above <= std::min(most, hi + kConfirmations); ++above)
                if (!trials.tried(above, refined))
                {
                    counts.push_back(above);
                    break;
                }
        const std::vector<Count> values = trials.withheldOfEach(counts, refined);
        bool movedLo = false, movedHi = false;
        for (std::size_t i = 0; i < counts.size(); ++i)
        {
            if (counts[i] <= lo || counts[i] >= hi)
                continue;
            if (values[i] <= budget)
                lo = counts[i], atLo = values[i], movedLo = true;
            else
                hi = counts[i], atHi = values[i], movedHi = true;
        }
        if (movedLo != movedHi) // one end moved in this step
        {
            sameEnd = movedLo == lastLow ? sameEnd + 1 : 1;
            lastLow = movedLo;
        }
        else
            sameEnd = 0;
    }
    return lo;
}

/**
 * The most sites whose refined release withholds at most `budget` (`percent` of the records), found with
 * the fewest costly releases (SuppressionBudgetCount); 1 with a warning when even one region exceeds it.
 */
std::uint64_t mostSitesWithin(const RegionSet& regions, Count budget, double percent, Trials& trials,
                              const ReleaseProbe& probe, Feedback& feedback)
{
    const std::uint64_t most = std::max<std::uint64_t>(1, regions.nonEmptyCount());
    const auto located = [&](std::uint64_t s)
    {
        return trials.withheld(s, false);
    };
    const auto refined = [&](std::uint64_t s)
    {
        return trials.withheld(s, true);
    };

    if ((probe.refines() ? refined(1) : located(1)) > budget)
    {
        feedback.warning("even one region withholds more than the suppression budget of " +
                         percentText(percent) +
                         " %: global suppression or the criteria on the sensitive values withhold too much; "
                         "generalize the "
                         "quasi-identifiers or raise the budget");
        return 1;
    }
    // The boundary without refinement, when the releases the probe was given bracket it (the generalization
    // search's of these records): the search of it would end there.
    const std::optional<std::uint64_t> known = probe.knownLocatedBoundary(budget);
    if (!known && located(most) <= budget)
        return most;
    // The largest count from `from` on whose release without refinement withholds at most `limit`:
    // double until over (withholding is strongly convex in s), then narrow. Such releases are cheap; two
    // doublings are released side by side, of which at most one is beyond the first count over.
    const auto locatedBoundary = [&](std::uint64_t from, Count limit)
    {
        std::uint64_t low = from, high = std::min(most, std::max<std::uint64_t>(from + 1, 2 * from));
        if (located(low) > limit)
            return low;
        const auto doubled = [&](std::uint64_t count)
        {
            return std::min(most, 2 * count);
        };
        while (high < most)
        {
            std::vector<std::uint64_t> ahead;
            for (std::uint64_t count = high; ahead.size() < 2; count = doubled(count))
            {
                if (!trials.tried(count, false))
                    ahead.push_back(count);
                if (count == most)
                    break;
            }
            trials.withheldOfEach(ahead, false);
            if (located(high) > limit)
                break;
            low = high, high = doubled(high);
        }
        return located(high) <= limit
                   ? high
                   : boundary(low, located(low), high, located(high), limit, most, trials, false);
    };
    // The boundary without refinement is a lower bound of the refined one. Its refined release goes with a
    // guess at the bracketing below (kGuessedShare for the share), released alongside: a guess within the
    // budget is a better start, one over it may bracket below where the bracketing would aim.
    std::uint64_t lo = known ? *known : located(1) <= budget ? locatedBoundary(1, budget) : 1;
    if (!probe.refines() && tolerance(lo) > 1)
        return lo; // refined releases are the located ones: their boundary is found
    const auto guessAt = [&](double share)
    {
        return std::min(most, std::max(lo + 1, locatedBoundary(lo, Count(double(budget) * share)) + 1));
    };
    Count atLo = 0;
    if (tolerance(lo) > 1)
    {
        trials.continueRefinements();
        // Large data: two guesses around the usual share bracket the boundary more often than not.
        const std::uint64_t low = guessAt(kLowGuessedShare),
                            high = std::max(low + 1, guessAt(kHighGuessedShare));
        const std::vector<Count> first = trials.withheldOfEach({low, std::min(most, high)}, true);
        if (first[1] <= budget)
            lo = std::min(most, high), atLo = first[1];
        else if (first[0] <= budget)
            lo = low, atLo = first[0];
        else
        {
            // Both over: the boundary lies between the located one, whose refined release withholds at most
            // what it withholds without refinement, and the lower guess. Aim as if the refinement saved at
            // the located boundary the share it saved at the guess.
            const double share = double(located(low)) / double(std::max<Count>(1, first[0]));
            const Count estimate = Count(double(located(lo)) / std::max(1.0, share));
            const std::uint64_t found = boundary(lo, estimate, low, first[0], budget, most, trials, true);
            if (found != lo || refined(lo) <= budget)
                return found;
            lo = 1, atLo = refined(1); // the refinement raised withholding; the built-in one never does
        }
    }
    else
    {
        const std::uint64_t guess = guessAt(kGuessedShare);
        const std::vector<Count> first = trials.withheldOfEach({lo, guess}, true);
        atLo = first[0];
        if (atLo > budget)
            lo = 1, atLo = refined(1); // the refinement raised withholding; the built-in one never does
        else if (first[1] <= budget)
            lo = guess, atLo = first[1];
    }
    while (true)
    {
        // Bracket upward. Near the boundary the refinement withholds about the same share of what the
        // located sites withhold, so aim just past where the located releases reach the budget
        // scaled by that share: refined releases, the costly ones, are then few.
        std::uint64_t hi = lo;
        Count atHi = atLo;
        while (atHi <= budget && hi < most)
        {
            lo = hi, atLo = atHi;
            const std::optional<std::uint64_t> over = trials.leastOver(lo, budget);
            if (tolerance(lo) > 1 && over) // bracketed already: interpolation aims better than the share
            {
                hi = *over, atHi = *trials.refinedWithheld(hi);
                break;
            }
            const double share = atLo > 0 ? std::min(4.0, double(located(lo)) / double(atLo)) : 4.0;
            hi = std::min(most, std::max(lo + 1, locatedBoundary(lo, Count(double(budget) * share)) + 1));
            if (over && *over < hi) // a count tried on the way that brackets already
                hi = *over;
            if (const std::uint64_t below = hi - std::min(hi, tolerance(lo)); tolerance(lo) > 1 && below > lo)
            {
                // With the count a tolerance below it, released alongside: when hi is over and that one
                // within, the search ends here.
                const std::vector<Count> values = trials.withheldOfEach({below, hi}, true);
                if (values[0] > budget)
                    hi = below, atHi = values[0];
                else if ((atHi = values[1]) > budget)
                    lo = below, atLo = values[0];
            }
            else
                atHi = refined(hi);
        }
        if (atHi <= budget)
            return hi;
        lo = boundary(lo, atLo, hi, atHi, budget, most, trials, true);
        if (tolerance(lo) > 1)
            return lo;
        std::vector<std::uint64_t> above;
        for (std::uint64_t s = lo + 2; s <= lo + 1 + kConfirmations && s <= most; ++s)
            above.push_back(s);
        const std::vector<Count> values = trials.withheldOfEach(above, true);
        const auto next =
            std::find_if(values.begin(), values.end(), [&](Count value) { return value <= budget; });
        if (next == values.end())
            return lo;
        lo = above[std::size_t(next - values.begin())], atLo = *next;
    }
}
} // namespace

std::unique_ptr<SiteCounter> SuppressionBudgetCount::create(const StrategyOptions&)
{
    return std::make_unique<SuppressionBudgetCount>();
}

std::uint64_t SuppressionBudgetCount::estimate(const RegionSet& regions, Count, ReleaseProbe& probe,
                                               Feedback& feedback) const
{
    const double percent = probe.budgetPercent();
    const Count budget = suppressionBudget(probe.records(), percent);
    Trials trials(probe, feedback);
    const std::uint64_t sites = mostSitesWithin(regions, budget, percent, trials, probe, feedback);
    const std::optional<Count> withheld =
        probe.refines() ? trials.refinedWithheld(sites) : trials.withheldAt(sites);
    const std::optional<std::uint64_t> over = trials.leastOver(sites, budget);
    // The search stops within a tolerance of a count over the budget: say how far it may be from the most.
    const std::string margin = over && *over - sites > 1
                                   ? " to within " + std::to_string(*over - sites - 1) + " sites (" +
                                         std::to_string(*over) + " withhold more; the search narrows to a " +
                                         std::to_string(kCountsPerTolerance) + "th of the count)"
                                   : std::string();
    if (!withheld || *withheld <= budget) // else the search has warned
        feedback.info("suppression budget: at most " + std::to_string(budget) + " of " +
                      std::to_string(probe.records()) + " records (" + percentText(percent) +
                      " %) withheld; " + std::to_string(sites) + " sites are the most within it" + margin +
                      " (" + (withheld ? std::to_string(*withheld) + " withheld; " : std::string()) +
                      std::to_string(trials.count()) + " releases tried)");
    return sites;
}

} // namespace vbas

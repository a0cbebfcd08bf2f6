#pragma once

#include "StrategyOptions.h"
#include "base/Feedback.h"
#include "data/RegionSet.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace vbas
{

/**
 * The whole release at a chosen site count, for counters that search it (SPEC section 11: the
 * suppression budget). The pipeline provides it: located, refined, partitioned and suppressed
 * exactly as the release would be.
 */
class ReleaseProbe
{
public:
    virtual ~ReleaseProbe() = default;
    /** Records of the data set, withheld ones included (the N of a budget's share). */
    virtual Count records() const = 0;
    /** The suppression budget, percent of records() (PipelineConfig::suppressionBudget). */
    virtual double budgetPercent() const = 0;
    /**
     * Records the release with `sites` sites withholds: global, local and l-diversity suppression;
     * `refined`: after the configured refinement (false: the located sites as they are; the
     * refinement never withholds more).
     */
    virtual Count withheld(std::uint64_t sites, bool refined, Feedback& feedback) = 0;
    /** Whether a refined release can differ from the located one (false: the pipeline refines nothing). */
    virtual bool refines() const { return true; }
    /**
     * The largest count whose release without refinement withholds at most `budget` when the releases the
     * probe was given already (another search's, of the same records) bracket it consistently: every count
     * given up to it within `budget`, every count above it over, the next count among them; else none.
     */
    virtual std::optional<std::uint64_t> knownLocatedBoundary(Count budget) const
    {
        (void)budget;
        return std::nullopt;
    }
    /** Where a refined release starts. */
    enum class RefinedFrom
    {
        Located,      //!< the located sites of its count: the release depends on its count alone
        NearestTried, //!< the refined sites of the nearest count tried refined, resized (a warm start): far
                      //!< quicker, the release depending on the counts tried before; located ones where none
                      //!< is near
    };
    /**
     * withheld() of each count, in their order; `from`: where refined releases start (a probe may ignore it).
     * A search asks for two counts at once where it can use both, so a probe may release them side by side
     * (the pipeline's does on a machine with two cores); this one releases them one after the other.
     */
    virtual std::vector<Count> withheldOfEach(const std::vector<std::uint64_t>& counts, bool refined,
                                              Feedback& feedback, RefinedFrom)
    {
        std::vector<Count> values;
        for (const std::uint64_t sites : counts)
            values.push_back(withheld(sites, refined, feedback));
        return values;
    }
};

/**
 * Estimates how many Voronoi sites (aggregates) a release needs (thesis section 3.2.1, SPEC
 * section 3).
 *
 * Contract, checked for every registered counter by one parameterised test:
 *  - returns the raw estimate, which may be 0 or exceed the regions; the pipeline clamps it to
 *    [1, non-empty regions] with clampSiteCount() and says so;
 *  - deterministic; throws Error(SiteCount) on unusable parameters.
 */
class SiteCounter
{
public:
    virtual ~SiteCounter() = default;
    /** `release`: the whole release at any site count, for counters that search it; the others ignore it. */
    virtual std::uint64_t estimate(const RegionSet& regions, Count k, ReleaseProbe& release,
                                   Feedback& feedback) const = 0;
};

/** Clamps an estimate to [1, regions that hold records] (at least 1 even with none). */
std::uint64_t clampSiteCount(std::uint64_t estimate, const RegionSet& regions);

/** The option "site_count_offset" every estimator with a distribution offset d declares (0: its default). */
OptionSpec siteCountOffsetOption();

/**
 * The distribution offset d: `configured` when set (it must lie in (0, 1]), else `fallback`; 0 and
 * NaN mean not set. Throws Error(Option) naming site_count_offset.
 */
double distributionOffset(double configured, double fallback);

/**
 * floor() of a product with a decimal offset such as 0.2 or 0.9, which binary floating point
 * holds only approximately: 4425 * 0.2 must give 885, not 884.
 */
std::uint64_t floorDecimal(long double value);

} // namespace vbas

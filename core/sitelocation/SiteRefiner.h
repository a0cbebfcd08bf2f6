#pragma once

#include "base/Feedback.h"
#include "data/RegionSet.h"
#include "partition/Partitioner.h"
#include "privacy/Criteria.h"
#include "privacy/KMap.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace vbas
{

/** What a refinement run did (ADC: SPEC section 6). */
struct RefinementReport
{
    std::uint64_t movesTried = 0;
    std::uint64_t movesAccepted = 0;
    /** Of the accepted moves, those that kept the objective and won on the tie-break (entropy). */
    std::uint64_t movesAcceptedOnTie = 0;
    double objectiveBefore = 0.0;
    double objectiveAfter = 0.0;
    Count anonymityBefore = 0;
    Count anonymityAfter = 0;
    /** Seed sites dropped because another seed site had the same location. */
    std::size_t duplicateSitesDropped = 0;
    std::string stopReason;
    double seconds = 0.0;
    /** The count of the refined sites this run continued from (resume()); 0 when it started from located
     * ones. */
    std::size_t continuedFrom = 0;
    /**
     * The release's non-uniform entropy after the run over that of the located sites the refinement started
     * from (through resume(), estimated from the run continued), which the entropy slack bounds.
     */
    double entropyRise = 1.0;
};

/**
 * What every released group must hold: k records (or, under k-map, k people of its region's population), and
 * the criteria on its sensitive values when any is on.
 */
struct ReleaseRule
{
    // Implicit: k alone is the rule without other criteria.
    ReleaseRule(Count k_, const Criteria* criteria_ = nullptr, // NOLINT(google-explicit-constructor)
                const ClassPopulation* population_ = nullptr)
        : k(k_)
        , criteria(criteria_)
        , population(population_)
    {
    }
    Count k;
    /** The criteria besides k (must outlive the rule); null: none. */
    const Criteria* criteria;
    /** Under k-map, the people k counts (must outlive the rule); null: k counts records. */
    const ClassPopulation* population;
};

/**
 * Improves the sites of any site locator (the seed) for a given partitioner and release rule.
 *
 * Contract: returns at most as many sites as it was given, at distinct locations inside the
 * bounding box of the region points, with power weights only when the partitioner supports them;
 * deterministic; stops promptly on cancel; fills `report`.
 */
class SiteRefiner
{
public:
    virtual ~SiteRefiner() = default;
    virtual Sites refine(const RegionSet& regions, const PartitionInput& input, const ReleaseRule& rule,
                         const Partitioner& partitioner, std::vector<Point> seeds, RefinementReport& report,
                         Feedback& feedback) const = 0;
    /**
     * Continues a refinement at `count` sites from `refined`, what it gave at another count
     * (`refinedReport`), made into `count` sites by resizedSites(): a warm start, far quicker than refine()
     * when most sites stay. nullopt when this refinement cannot continue one (the default), or the counts are
     * too far apart: then refine() located sites. Same contract as refine().
     */
    virtual std::optional<Sites> resume(const RegionSet& regions, const PartitionInput& input,
                                        const ReleaseRule& rule, const Partitioner& partitioner,
                                        const Sites& refined, const RefinementReport& refinedReport,
                                        std::size_t count, RefinementReport& report,
                                        Feedback& feedback) const;
};

/** Sites made into another count, with the regions whose site changed. */
struct ResizedSites
{
    Sites sites;
    std::vector<RegionIndex> changedRegions;
};

/**
 * Whether resizedSites() makes `from` sites into `to`: at most a tenth apart. Farther, most aggregates
 * change, and refining located sites is as quick and depends on the count alone.
 */
inline bool resizable(std::size_t from, std::size_t to)
{
    return from > 0 && to > 0 && std::max(from, to) - std::min(from, to) <= from / 10;
}

/**
 * `sites` made into `count` for `partitioner`: the aggregates with the fewest records (never empty ones,
 * whose removal changes nothing) lose their site, their regions going to the neighbours; the aggregates with
 * the most records are split by a new site at their member region farthest from their site, skipping those
 * whose new site would take every region of another aggregate. Ties go to the lower site index; weights are
 * kept (zeros where `sites` has none). nullopt unless resizable(), or when too few aggregates can be removed
 * or split.
 */
std::optional<ResizedSites> resizedSites(const RegionSet& regions, const PartitionInput& input,
                                         const Partitioner& partitioner, const Sites& sites,
                                         std::size_t count, Feedback& feedback);

/** The seeds without repeated locations, first occurrence kept: a site hidden under a twin owns nothing. */
std::vector<Point> distinctSites(const std::vector<Point>& seeds);

/** Returns the records of class `cls` in region `region`. */
Count classCountIn(const RegionSet& regions, RegionIndex region, ClassId cls);

} // namespace vbas

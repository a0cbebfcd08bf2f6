#pragma once

#include "Feedback.h"
#include "data/RegionSet.h"
#include "partition/Partitioner.h"
#include "suppression/Diversity.h"

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
};

/** What every released group must hold: k records, and l-diversity of its sensitive values when on. */
struct ReleaseRule
{
    // Implicit: k alone is the rule without l-diversity.
    ReleaseRule(Count k_, DiversityRule diversity_ = {}) // NOLINT(google-explicit-constructor)
        : k(k_)
        , diversity(diversity_)
    {
    }
    Count k;
    DiversityRule diversity;
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
};

/** The seeds without repeated locations, first occurrence kept: a site hidden under a twin owns nothing. */
std::vector<Point> distinctSites(const std::vector<Point>& seeds);

/** Returns the records of class `cls` in region `region`. */
Count classCountIn(const RegionSet& regions, RegionIndex region, ClassId cls);

} // namespace vbas

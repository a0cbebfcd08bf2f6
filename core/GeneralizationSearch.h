#pragma once

#include "Pipeline.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace vbas
{

/** The chosen node: its report and the records at its levels, ready for the release. */
struct GeneralizationChoice
{
    GeneralizationReport report;
    Dataset dataset;
    /** The region adjacency the search built, when the configuration needs one, for the release to reuse. */
    std::shared_ptr<const RegionAdjacency> adjacency;
    /**
     * The releases without refinement the search made of the chosen node's records, which are those the
     * release's own site-count search would make: it takes them instead (Pipeline::run()).
     */
    std::vector<SiteCountTrial> locatedTrials;

    /** `job` on the chosen records, with the search's adjacency: what the release or a sweep is made of. */
    Job jobOf(const Job& job) const;
};

/**
 * Searches the lattice of `hierarchies` (the job's quasi-identifiers', as Pipeline::prepareHierarchies()
 * builds them: one level per quasi-identifier, within each one's highest allowed level) with `pipeline`'s
 * configuration without refinement (SPEC section 12), each node held to its suppression budget: the coarsest
 * node first, which reaches the most aggregates; then the nodes in order of increasing attribute loss until
 * one reaches as many aggregates within the suppression budget. A node that misses rules out every finer node
 * (generalizing only merges groups), except under entropy l-diversity, which is not monotone. Ties and
 * every other choice are deterministic. Throws Error when `hierarchies` has none.
 */
GeneralizationChoice searchGeneralization(const Pipeline& pipeline, const Job& job,
                                          const Hierarchies& hierarchies, Feedback& feedback);
} // namespace vbas

#pragma once

#include "Hierarchy.h"
#include "base/Types.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace vbas
{

/** One evaluated node of the lattice: its levels and the release the search made of it. */
struct NodeEvaluation
{
    /** The level of every quasi-identifier (0 for those without a hierarchy). */
    std::vector<std::size_t> levels;
    /** Sites of its release (the configured site count on its generalized values, without refinement). */
    std::uint64_t sites = 0;
    /** Aggregates (regions) released. */
    std::size_t aggregates = 0;
    /** Records withheld (global, local and l-diversity suppression). */
    Count withheld = 0;
    Count records = 0;
    /** Attribute loss: the mean over released records and quasi-identifiers (0 as is, 1 all "*"). */
    double loss = 0.0;
    /** Non-uniform entropy of its release. */
    double nue = 0.0;
    bool withinBudget = false;
    /** Not dominated in (more aggregates, less loss, fewer withheld, lower NUE) by another evaluated one. */
    bool frontier = false;
};

/** A quasi-identifier whose removal alone would meet a suppression budget the release misses. */
struct RemovalOption
{
    /** Its index among the quasi-identifiers and its name. */
    std::size_t quasiIdentifier = 0;
    std::string name;
    /**
     * The node with it removed (every value one group) and the others at their highest allowed levels; its
     * level of a quasi-identifier without a hierarchy is 1, "*".
     */
    NodeEvaluation node;
};

/**
 * What a release with hierarchies used and what the search over generalization levels did (SPEC section
 * 12): the labels and the ledger read the first, the report the second.
 */
struct GeneralizationReport
{
    /** The hierarchies the release was labelled with (every published label and the values it stands for). */
    std::shared_ptr<const Hierarchies> hierarchies;
    /** What they were built as: the ledger's record, from which a later release builds them again. */
    Generalization builtAs;
    /** The chosen level of every quasi-identifier. */
    std::vector<std::size_t> levels;
    /** The evaluated nodes in evaluation order; `chosen` indexes the released one. */
    std::vector<NodeEvaluation> evaluated;
    std::size_t chosen = 0;
    /** Nodes within the level limits, and how many of them monotony ruled out unevaluated. */
    std::size_t latticeNodes = 0;
    std::size_t prunedNodes = 0;
    /** The suppression budget the nodes were held to, percent of the records. */
    double budgetPercent = 0.0;
    /** Attribute loss of the final release (with its refinement, when configured). */
    double releasedLoss = 0.0;
    /**
     * When no node within the level limits meets the suppression budget: each quasi-identifier whose
     * removal alone would (a removal its limit does not allow, or one without a hierarchy left out), most
     * regions first. Empty when the release meets the budget or no single removal would.
     */
    std::vector<RemovalOption> removalOptions;
    /**
     * The warning the log gave when the release misses the budget: the withheld records, which removal
     * would meet the budget and why, and the alternatives. Empty when it meets the budget.
     */
    std::string budgetWarning;
    /** The quasi-identifiers the release removes (their level puts every value in one group: "max *"). */
    std::vector<std::string> removed;

    /** The name of every quasi-identifier's level ("0": as it is; "10", "month", "*"). */
    std::vector<std::string> levelNames() const;
};

} // namespace vbas

#pragma once

#include "Pipeline.h"

#include <memory>
#include <string>
#include <vector>

namespace vbas
{

/** Site counts s0 + j * ceil(fraction * s0) for j = -steps..steps (thesis L1199-1207). */
struct SweepOptions
{
    int steps = 2;
    double fraction = 0.1;
    /**
     * With hierarchies, a comparison also sweeps every other node on the frontier of each configuration's
     * generalization search (GeneralizationReport::evaluated), not only the levels its release chooses.
     */
    bool generalizationLevels = false;
};

struct SweepRow
{
    std::uint64_t siteCount;
    PipelineResult result;
    bool paretoOptimal = false;
    /** The generalization level of every quasi-identifier of the row's records (empty: as they are). */
    std::vector<std::size_t> levels;
    /** Attribute loss of the released records (0 as they are, 1 all "*"); also a Pareto objective. */
    double attributeLoss = 0.0;
};

/**
 * The sweep's site counts around s0, ascending, without duplicates, each within [1, upper]
 * (upper: the regions that hold records).
 */
std::vector<std::uint64_t> sweepSiteCounts(std::uint64_t s0, const SweepOptions& options,
                                           std::uint64_t upper);

/**
 * Runs `pipeline` for every site count of the sweep around its estimate and marks the
 * Pareto-optimal rows. Only one of the rows may ever be released: two aggregations of the same
 * records can be intersected.
 */
std::vector<SweepRow> sweep(const Pipeline& pipeline, const PreparedData& data, const SweepOptions& options,
                            Feedback& feedback);

/** Marks the Pareto-optimal rows among `rows` by the registry's objectives and the attribute loss. */
void markParetoOptimal(std::vector<SweepRow>& rows, const Registry& registry);

/** The strategies a comparison crosses: each combination is one configuration. */
struct ComparisonChoices
{
    std::vector<std::string> siteCounters;
    std::vector<std::string> siteLocators;
    /** Refinements tried besides none (each combination is also run unrefined). */
    std::vector<std::string> siteRefiners;
};

/** The rows of a comparison: every configuration's sweep, Pareto-marked over all rows together. */
struct ComparisonResult
{
    std::vector<SweepRow> rows;
    /** Per row: its configuration, an index into Comparison::configs(). */
    std::vector<std::size_t> rowConfig;
    std::size_t paretoRows = 0;
    /** The hierarchies the rows' levels are of (empty: none), which label them. */
    Hierarchies hierarchies;
};

/**
 * Several approaches on one job (thesis section 4.3): every combination of the chosen site counters,
 * site locators and refinements (and none) on a base configuration, each swept over site counts around
 * its own estimate. With hierarchies, each combination first searches its generalization levels as its
 * release would (SPEC section 12) and sweeps the records at them, and with SweepOptions::generalizationLevels
 * at every other node of the search's frontier too. Only one row may ever be released: two aggregations of
 * the same records can be intersected.
 */
class Comparison
{
public:
    /**
     * The combinations of `choices` on `base` (whose strategies of those components are replaced);
     * throws Error for an empty choice or a bad combination, before any data is read.
     */
    Comparison(const PipelineConfig& base, const ComparisonChoices& choices, SweepOptions sweep,
               const Registry& registry = Registry::builtIn());
    ~Comparison();

    const std::vector<PipelineConfig>& configs() const { return mConfigs; }
    /** The pipeline of configs()[configuration]. */
    const Pipeline& pipeline(std::size_t configuration) const { return *mPipelines.at(configuration); }
    /**
     * The rows on `job`; `hierarchies` as Pipeline::prepareHierarchies() built them (or one's own), null:
     * the base configuration's built here.
     */
    ComparisonResult run(const Job& job, Feedback& feedback, const Hierarchies* hierarchies = nullptr) const;

private:
    std::vector<PipelineConfig> mConfigs;
    std::vector<std::unique_ptr<Pipeline>> mPipelines;
    SweepOptions mSweep;
    const Registry& mRegistry;
};

} // namespace vbas

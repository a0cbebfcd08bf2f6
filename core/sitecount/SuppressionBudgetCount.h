#pragma once

#include "SiteCounter.h"

#include <memory>

namespace vbas
{

class StrategyOptions;

/**
 * sitecount.suppression_budget (SPEC section 11): the most sites whose release withholds at most
 * the budget, a share of all records (PipelineConfig::suppressionBudget, which the probe gives).
 *
 * Withheld records grow with the site count, though not strictly. The search first doubles the
 * count from one until the release without refinement exceeds the budget and narrows that boundary
 * (cheap; the refinement only lowers withholding, so the refined boundary lies at or above it),
 * then searches the refined releases upward from there, aiming where the releases without
 * refinement reach the budget scaled by the share the refinement saved at the last count tried,
 * narrowing by interpolation with bisection as a safeguard, and finally confirms the next two counts above
 * the boundary, continuing when one of them is within the budget. Each narrowing step and the
 * confirmation ask the probe for two counts at once (the step's count with the next one, or with a count
 * the confirmation will need), which the pipeline's probe releases side by side on two cores; the
 * counts tried do not depend on the machine.
 *
 * Past 800 counts the refined releases stop narrowing at a tolerance of a 400th of the count, where
 * their withholding goes up and down from one count to the next by about as much: the first two
 * guesses take the usual shares (1.45 and 1.6), each step releases two counts a tolerance apart at the
 * aim, and the search ends when a count within the budget and one over it are at most that far apart,
 * without confirmations. The log says how far the count chosen may lie below the one over the budget.
 * The log gets one line on the search; the pipeline keeps every
 * count tried with its withheld records (PipelineResult::siteCountSearch) for the report.
 */
class SuppressionBudgetCount : public SiteCounter
{
public:
    static std::unique_ptr<SiteCounter> create(const StrategyOptions& options);
    std::uint64_t estimate(const RegionSet& regions, Count k, ReleaseProbe& release,
                           Feedback& feedback) const override;
};

} // namespace vbas

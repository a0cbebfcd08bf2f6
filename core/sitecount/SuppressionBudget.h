#pragma once

#include "StrategyOptions.h"
#include "base/Types.h"

namespace vbas
{

/**
 * The suppression budget (PipelineConfig::suppressionBudget, SPEC section 11): the most records a release may
 * withhold, a percentage of all records, in (0, 100]. Declared as an option (key "suppression_budget") so
 * that a front end shows it as it shows the strategies' options; sitecount.suppression_budget finds the most
 * regions within it and the generalization search holds every node to it.
 */
const OptionSpec& suppressionBudgetOption();

/** Throws Error(Option) naming "suppression_budget" unless `percent` is above 0 and at most 100. */
void checkSuppressionBudget(double percent);

/** The most records a release of `records` records may withhold under a budget of `percent` %. */
Count suppressionBudget(Count records, double percent);

} // namespace vbas

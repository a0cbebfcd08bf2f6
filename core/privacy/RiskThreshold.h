#pragma once

#include "base/Types.h"

namespace vbas
{

/**
 * The k that keeps every released record's re-identification probability at or below the risk
 * threshold `threshold` (SPEC section 1): k = ceil(1 / T). A threshold written as a decimal is
 * stored a hair off its exact value, so a quotient within rounding of a whole number counts as
 * that number (T = 0.2 gives 5, not 6). Throws Error(Subject::K) unless 0 < T <= 0.5 (k >= 2).
 */
Count kForRiskThreshold(double threshold);

} // namespace vbas

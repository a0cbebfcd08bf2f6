#pragma once

#include <vector>

namespace vbas
{

/**
 * Marks the non-dominated vectors (all objectives "lower is better", thesis L1199-1207): a
 * vector is dominated when another is no worse in every objective and better in one.
 */
std::vector<bool> paretoOptimal(const std::vector<std::vector<double>>& objectives);

} // namespace vbas

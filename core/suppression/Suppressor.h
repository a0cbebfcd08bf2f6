#pragma once

#include "base/Feedback.h"
#include "data/HistogramTable.h"

#include <vector>

namespace vbas
{

/**
 * Decides which records to withhold so that every released (group, class) holds at least k
 * records (thesis section 3.2.4). The pipeline applies it twice: globally, with the whole data set
 * as one group (optional), and locally, with the aggregates as groups (always).
 *
 * Contract, checked for every registered suppressor by one test:
 *  - returns one flag per entry of `groups` (true = suppressed);
 *  - every entry left unsuppressed has count >= k;
 *  - deterministic; polls feedback in long loops.
 */
class Suppressor
{
public:
    virtual ~Suppressor() = default;
    virtual std::vector<bool> suppress(const HistogramTable& groups, Count k, Feedback& feedback) const = 0;
};

} // namespace vbas

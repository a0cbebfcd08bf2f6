#pragma once

#include "base/Feedback.h"
#include "data/RegionSet.h"
#include "model/Aggregation.h"

#include <vector>

namespace vbas
{

/**
 * A criterion the released groups must meet together with what was published before (SPEC section 13's
 * difference rule): given the groups the others leave released, the ones it withholds too.
 */
class ReleaseCriterion
{
public:
    virtual ~ReleaseCriterion() = default;
    /**
     * The entries of `aggregation.histograms` (over the regions of `regions`) that `withheld` leaves released
     * and that this criterion withholds, at `k`; `published` is the count each entry publishes (people when
     * counted by person, records less those of small published rows otherwise).
     */
    virtual std::vector<bool> withhold(const RegionSet& regions, const Aggregation& aggregation,
                                       const std::vector<bool>& withheld, const std::vector<Count>& published,
                                       Count k, Feedback& feedback) const = 0;
};

} // namespace vbas

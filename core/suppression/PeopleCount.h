#pragma once

#include "base/Feedback.h"
#include "model/Aggregation.h"

#include <vector>

namespace vbas
{

/**
 * The distinct people of every entry of aggregation.histograms that `withheld` leaves released (0 for the
 * others), when the dataset counts people (SPEC section 14): the histograms count a person once per small
 * area and class, so a group of an aggregate counts twice a person with rows in two of its small areas; this
 * counts them exactly. Empty unless the dataset counts people. O(N log N) in the input rows.
 */
std::vector<Count> peopleOfEntries(const RegionSet& regions, const Aggregation& aggregation,
                                   const std::vector<bool>& withheld, Feedback& feedback);

/**
 * k over people: flags every entry `withheld` leaves released whose rows belong to fewer than `k` distinct
 * people (one patient's five visits are a group of one); all false unless the dataset counts people.
 */
std::vector<bool> fewerPeopleThan(const RegionSet& regions, const Aggregation& aggregation,
                                  const std::vector<bool>& withheld, Count k, Feedback& feedback);

} // namespace vbas

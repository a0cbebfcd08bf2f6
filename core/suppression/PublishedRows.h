#pragma once

#include "model/Aggregation.h"

#include <cstddef>
#include <vector>

namespace vbas
{

/**
 * The rows of a count table as it is published (a pre-aggregated input, Dataset::publishesCountRows()): the
 * released records of one (aggregate, class) that share their other published values are one published row
 * with their summed count, and a row below k would publish a count below k (SPEC section 10). Returns, per
 * input row, whether it is in a released entry (`withheld` leaves it released) and in a published row of
 * fewer than `k` records, which must be withheld too; empty when the dataset publishes no count rows.
 */
std::vector<bool> rowsInSmallPublishedRows(const Dataset& dataset, const Aggregation& aggregation,
                                           const std::vector<bool>& withheld, Count k);

} // namespace vbas

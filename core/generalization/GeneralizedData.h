#pragma once

#include "Hierarchy.h"
#include "data/Dataset.h"

#include <vector>

namespace vbas
{

/** The records holding each category code of every quasi-identifier of `dataset` (its known regions). */
std::vector<std::vector<Count>> categoryRecords(const Dataset& dataset);

/**
 * `dataset` at `levels` (one per quasi-identifier): each generalized quasi-identifier's values are its
 * groups' labels (NULL for the NULL group).
 */
Dataset generalizedDataset(const Dataset& dataset, const Hierarchies& hierarchies,
                           const std::vector<std::size_t>& levels);

/**
 * Attribute loss of every class of a dataset generalized at `levels`: the mean over quasi-identifiers
 * of the loss of its group (0 for quasi-identifiers without a hierarchy).
 */
std::vector<double> classLoss(const Dataset& generalized, const Hierarchies& hierarchies,
                              const std::vector<std::size_t>& levels);

} // namespace vbas

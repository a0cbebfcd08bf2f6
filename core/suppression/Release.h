#pragma once

#include "Feedback.h"
#include "Suppressor.h"
#include "partition/Aggregation.h"

#include <vector>

namespace vbas
{

/**
 * What is released after local suppression: which (aggregate, class) groups are withheld and the
 * record counts that follow, per aggregate, per initial region and overall.
 */
struct Release
{
    /** Local suppression flag of every entry of Aggregation::histograms. */
    std::vector<bool> aggregateEntrySuppressed;
    std::vector<Count> aggregateReleased;
    std::vector<Count> aggregateSuppressed;
    /** Smallest released class of each aggregate; 0 when nothing of it is released. */
    std::vector<Count> aggregateAnonymityAfter;
    std::vector<std::uint32_t> aggregateReleasedClasses;
    /** Released records of each initial region. */
    std::vector<Count> regionReleased;

    Count inputRecords = 0;
    Count globallySuppressed = 0;
    Count locallySuppressed = 0;
    Count released = 0;

    /** Applies `suppressor` to the aggregates and counts what remains. */
    static Release apply(const RegionSet& regions, const Aggregation& aggregation,
                         const Suppressor& suppressor, Count k, Count globallySuppressed, Feedback& feedback);
};

} // namespace vbas

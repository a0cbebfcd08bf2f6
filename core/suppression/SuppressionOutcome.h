#pragma once

#include "ReleaseCriterion.h"
#include "Suppressor.h"
#include "base/Feedback.h"
#include "model/Aggregation.h"
#include "privacy/Criteria.h"
#include "privacy/KMap.h"

#include <vector>

namespace vbas
{

/**
 * What is released after local suppression, the published rows of a count table held to k, the l-diversity
 * check and the difference rule against earlier releases (SPEC section 13): which (aggregate, class) groups
 * are withheld (and which rows of released ones) and the record counts that follow, per aggregate, per
 * initial region and overall. released + suppressed() = inputRecords.
 */
struct SuppressionOutcome
{
    /** Withheld flag of every entry of Aggregation::histograms: below k, failing a criterion, or too close to
     * an earlier release's count. */
    std::vector<bool> aggregateEntrySuppressed;
    /** Entries withheld for a criterion on the sensitive values alone (they hold k or more records). */
    std::vector<bool> aggregateEntryDiversityFailed;
    /** Entries withheld because their count with earlier releases' would pin a group of 1 to k - 1. */
    std::vector<bool> aggregateEntryTooCloseToEarlier;
    /** Records released of each entry: its count, less its rows withheld in small published rows; 0 when
     * withheld. */
    std::vector<Count> aggregateEntryReleased;
    /**
     * Per input row: withheld because the row it would be published in (a count table's, COUNT_FIELD) holds
     * fewer than k records, in a group released otherwise (rowsInSmallPublishedRows()); empty when the
     * dataset publishes no count rows.
     */
    std::vector<bool> rowInSmallPublishedRow;
    std::vector<Count> aggregateReleased;
    /** Withheld records of each aggregate, for either reason. */
    std::vector<Count> aggregateSuppressed;
    /** Of aggregateSuppressed, the records withheld for a criterion on the sensitive values. */
    std::vector<Count> aggregateDiversitySuppressed;
    /** Of aggregateSuppressed, the records withheld against earlier releases. */
    std::vector<Count> aggregateDifferenceSuppressed;
    /** Of aggregateSuppressed, the records withheld in published rows below k. */
    std::vector<Count> aggregateSmallRowSuppressed;
    /** Smallest released class of each aggregate; 0 when nothing of it is released. */
    std::vector<Count> aggregateAnonymityAfter;
    std::vector<std::uint32_t> aggregateReleasedClasses;
    /** Released records of each initial region. */
    std::vector<Count> regionReleased;

    Count inputRecords = 0;
    Count globallySuppressed = 0;
    /**
     * Records in groups below k in their aggregate (groups of fewer than k people, when counting people;
     * under k-map, groups whose aggregate holds fewer than k people of their class in the population).
     */
    Count locallySuppressed = 0;
    /** Records in groups of k or more that fail a criterion on the sensitive values (l-diversity...). */
    Count diversitySuppressed = 0;
    /** Records in groups that pass k and l but whose count with earlier releases' would pin a group below k.
     */
    Count differenceSuppressed = 0;
    /** Records of released groups in published rows of fewer than k records (a count table's). */
    Count smallRowSuppressed = 0;
    Count released = 0;

    /** Every withheld record: global, local, small published rows, criteria and difference suppression. */
    Count suppressed() const
    {
        return globallySuppressed + locallySuppressed + smallRowSuppressed + diversitySuppressed +
               differenceSuppressed;
    }

    /**
     * Applies `suppressor` to the aggregates and withholds the groups of fewer than k people (when the
     * dataset counts people), or under k-map (`population` given) withholds the groups whose aggregate holds
     * fewer than k people of their class in the population; then the rows of a count table whose published
     * row falls below k, then the remaining groups that fail one of `criteria` (l-diversity...), then those
     * that `differences` withholds (the difference rule against earlier releases; null: none), and counts
     * what is released.
     */
    static SuppressionOutcome apply(const RegionSet& regions, const Aggregation& aggregation,
                                    const Suppressor& suppressor, Count k, const Criteria& criteria,
                                    Count globallySuppressed, Feedback& feedback,
                                    const ReleaseCriterion* differences = nullptr,
                                    const ClassPopulation* population = nullptr);
};

} // namespace vbas

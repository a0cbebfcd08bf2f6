#include "SuppressionOutcome.h"

#include "PeopleCount.h"
#include "PublishedRows.h"

namespace vbas
{

SuppressionOutcome SuppressionOutcome::apply(const RegionSet& regions, const Aggregation& aggregation,
                                             const Suppressor& suppressor, Count k, const Criteria& criteria,
                                             Count globallySuppressed, Feedback& feedback,
                                             const ReleaseCriterion* differences,
                                             const ClassPopulation* population)
{
    SuppressionOutcome outcome;
    const HistogramTable& histograms = aggregation.histograms;
    const Dataset& dataset = regions.dataset();
    if (population != nullptr)
        // k-map: the people who share the group in the population hide its records, however few they are.
        outcome.aggregateEntrySuppressed = population->fewerThan(aggregation, k);
    else
    {
        outcome.aggregateEntrySuppressed = suppressor.suppress(histograms, k, feedback);
        // Groups of k rows but fewer people are below k too.
        const std::vector<bool> fewerPeople =
            fewerPeopleThan(regions, aggregation, outcome.aggregateEntrySuppressed, k, feedback);
        for (std::size_t e = 0; e < fewerPeople.size(); ++e)
            if (fewerPeople[e])
                outcome.aggregateEntrySuppressed[e] = true;
    }
    // A count table publishes finer rows than its groups: each must hold k too.
    outcome.rowInSmallPublishedRow =
        rowsInSmallPublishedRows(dataset, aggregation, outcome.aggregateEntrySuppressed, k);
    const std::vector<bool>* smallRows =
        outcome.rowInSmallPublishedRow.empty() ? nullptr : &outcome.rowInSmallPublishedRow;
    std::vector<Count> smallRowRecords(outcome.aggregateEntrySuppressed.size(), 0);
    if (smallRows != nullptr)
    {
        const std::vector<std::size_t> rowEntry =
            aggregation.releasedEntryOfRows(dataset, outcome.aggregateEntrySuppressed);
        for (std::size_t row = 0; row < dataset.rows(); ++row)
            if ((*smallRows)[row])
                smallRowRecords[rowEntry[row]] += dataset.rowCount(row);
    }
    outcome.aggregateEntryDiversityFailed =
        criteria.failing(regions, aggregation, outcome.aggregateEntrySuppressed, feedback, smallRows);
    for (std::size_t e = 0; e < outcome.aggregateEntrySuppressed.size(); ++e)
        if (outcome.aggregateEntryDiversityFailed[e])
            outcome.aggregateEntrySuppressed[e] = true;
    // The sums and differences of releases of overlapping records are published too.
    outcome.aggregateEntryTooCloseToEarlier.assign(outcome.aggregateEntrySuppressed.size(), false);
    if (differences != nullptr)
    {
        // What each released cell publishes: its people, or its records less those of small published rows.
        std::vector<Count> published =
            peopleOfEntries(regions, aggregation, outcome.aggregateEntrySuppressed, feedback);
        if (published.empty())
            for (const ClassCount& entry : histograms.allEntries())
                published.push_back(entry.count - smallRowRecords[published.size()]);
        outcome.aggregateEntryTooCloseToEarlier = differences->withhold(
            regions, aggregation, outcome.aggregateEntrySuppressed, published, k, feedback);
        for (std::size_t e = 0; e < outcome.aggregateEntrySuppressed.size(); ++e)
            if (outcome.aggregateEntryTooCloseToEarlier[e])
                outcome.aggregateEntrySuppressed[e] = true;
    }
    const std::size_t aggregates = aggregation.size();
    outcome.aggregateEntryReleased.assign(outcome.aggregateEntrySuppressed.size(), 0);
    outcome.aggregateReleased.assign(aggregates, 0);
    outcome.aggregateSuppressed.assign(aggregates, 0);
    outcome.aggregateDiversitySuppressed.assign(aggregates, 0);
    outcome.aggregateDifferenceSuppressed.assign(aggregates, 0);
    outcome.aggregateSmallRowSuppressed.assign(aggregates, 0);
    outcome.aggregateAnonymityAfter.assign(aggregates, 0);
    outcome.aggregateReleasedClasses.assign(aggregates, 0);
    for (std::size_t a = 0; a < aggregates; ++a)
    {
        for (std::size_t e = histograms.firstEntry(a); e < histograms.firstEntry(a + 1); ++e)
        {
            const Count count = histograms.allEntries()[e].count;
            if (outcome.aggregateEntrySuppressed[e])
            {
                outcome.aggregateSuppressed[a] += count;
                if (outcome.aggregateEntryDiversityFailed[e])
                    outcome.aggregateDiversitySuppressed[a] += count;
                else if (outcome.aggregateEntryTooCloseToEarlier[e])
                    outcome.aggregateDifferenceSuppressed[a] += count;
                continue;
            }
            outcome.aggregateSuppressed[a] += smallRowRecords[e];
            outcome.aggregateSmallRowSuppressed[a] += smallRowRecords[e];
            const Count released = count - smallRowRecords[e];
            outcome.aggregateEntryReleased[e] = released;
            if (released == 0)
                continue;
            outcome.aggregateReleased[a] += released;
            ++outcome.aggregateReleasedClasses[a];
            Count& smallest = outcome.aggregateAnonymityAfter[a];
            if (smallest == 0 || released < smallest)
                smallest = released;
        }
        outcome.diversitySuppressed += outcome.aggregateDiversitySuppressed[a];
        outcome.differenceSuppressed += outcome.aggregateDifferenceSuppressed[a];
        outcome.smallRowSuppressed += outcome.aggregateSmallRowSuppressed[a];
        outcome.locallySuppressed +=
            outcome.aggregateSuppressed[a] - outcome.aggregateDiversitySuppressed[a] -
            outcome.aggregateDifferenceSuppressed[a] - outcome.aggregateSmallRowSuppressed[a];
        outcome.released += outcome.aggregateReleased[a];
    }

    const HistogramTable& regionHistograms = regions.histograms();
    outcome.regionReleased.assign(regions.size(), 0);
    for (RegionIndex r = 0; r < regions.size(); ++r)
        for (std::size_t e = regionHistograms.firstEntry(r); e < regionHistograms.firstEntry(r + 1); ++e)
            if (!outcome.aggregateEntrySuppressed[aggregation.regionEntryTarget[e]])
                outcome.regionReleased[r] += regionHistograms.allEntries()[e].count;
    if (smallRows != nullptr)
    {
        // The rows withheld from released groups, which the region histograms count in.
        const std::vector<std::size_t> rowEntry =
            aggregation.releasedEntryOfRows(dataset, outcome.aggregateEntrySuppressed);
        for (std::size_t row = 0; row < dataset.rows(); ++row)
            if ((*smallRows)[row] && rowEntry[row] != HistogramTable::kNoEntry)
                outcome.regionReleased[dataset.rowRegion(row)] -= dataset.rowCount(row);
    }

    outcome.globallySuppressed = globallySuppressed;
    outcome.inputRecords = regions.dataset().totalRecords();
    return outcome;
}

} // namespace vbas

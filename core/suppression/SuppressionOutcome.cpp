#include "SuppressionOutcome.h"

#include "PeopleCount.h"

namespace vbas
{

SuppressionOutcome SuppressionOutcome::apply(const RegionSet& regions, const Aggregation& aggregation,
                                             const Suppressor& suppressor, Count k, const Criteria& criteria,
                                             Count globallySuppressed,
                                             Feedback& feedback, const ReleaseCriterion* differences)
{
    SuppressionOutcome outcome;
    const HistogramTable& histograms = aggregation.histograms;
    outcome.aggregateEntrySuppressed = suppressor.suppress(histograms, k, feedback);
    // Groups of k rows but fewer people are below k too.
    const std::vector<bool> fewerPeople =
        fewerPeopleThan(regions, aggregation, outcome.aggregateEntrySuppressed, k, feedback);
    for (std::size_t e = 0; e < fewerPeople.size(); ++e)
        if (fewerPeople[e])
            outcome.aggregateEntrySuppressed[e] = true;
    outcome.aggregateEntryDiversityFailed =
        criteria.failing(regions, aggregation, outcome.aggregateEntrySuppressed, feedback);
    for (std::size_t e = 0; e < outcome.aggregateEntrySuppressed.size(); ++e)
        if (outcome.aggregateEntryDiversityFailed[e])
            outcome.aggregateEntrySuppressed[e] = true;
    // The sums and differences of releases of overlapping records are published too.
    outcome.aggregateEntryTooCloseToEarlier.assign(outcome.aggregateEntrySuppressed.size(), false);
    if (differences != nullptr)
    {
        outcome.aggregateEntryTooCloseToEarlier =
            differences->withhold(regions, aggregation, outcome.aggregateEntrySuppressed, k, feedback);
        for (std::size_t e = 0; e < outcome.aggregateEntrySuppressed.size(); ++e)
            if (outcome.aggregateEntryTooCloseToEarlier[e])
                outcome.aggregateEntrySuppressed[e] = true;
    }
    const std::size_t aggregates = aggregation.size();
    outcome.aggregateReleased.assign(aggregates, 0);
    outcome.aggregateSuppressed.assign(aggregates, 0);
    outcome.aggregateDiversitySuppressed.assign(aggregates, 0);
    outcome.aggregateDifferenceSuppressed.assign(aggregates, 0);
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
            outcome.aggregateReleased[a] += count;
            ++outcome.aggregateReleasedClasses[a];
            Count& smallest = outcome.aggregateAnonymityAfter[a];
            if (smallest == 0 || count < smallest)
                smallest = count;
        }
        outcome.diversitySuppressed += outcome.aggregateDiversitySuppressed[a];
        outcome.differenceSuppressed += outcome.aggregateDifferenceSuppressed[a];
        outcome.locallySuppressed += outcome.aggregateSuppressed[a] -
                                     outcome.aggregateDiversitySuppressed[a] -
                                     outcome.aggregateDifferenceSuppressed[a];
        outcome.released += outcome.aggregateReleased[a];
    }

    const HistogramTable& regionHistograms = regions.histograms();
    outcome.regionReleased.assign(regions.size(), 0);
    for (RegionIndex r = 0; r < regions.size(); ++r)
        for (std::size_t e = regionHistograms.firstEntry(r); e < regionHistograms.firstEntry(r + 1); ++e)
            if (!outcome.aggregateEntrySuppressed[aggregation.regionEntryTarget[e]])
                outcome.regionReleased[r] += regionHistograms.allEntries()[e].count;

    outcome.globallySuppressed = globallySuppressed;
    outcome.inputRecords = regions.dataset().totalRecords();
    return outcome;
}

} // namespace vbas

#include "Release.h"

namespace vbas
{

Release Release::apply(const RegionSet& regions, const Aggregation& aggregation, const Suppressor& suppressor,
                       Count k, const DiversityRule& diversity, Count globallySuppressed, Feedback& feedback,
                       const std::vector<std::vector<Count>>* earlierCounts)
{
    Release release;
    const HistogramTable& histograms = aggregation.histograms;
    release.aggregateEntrySuppressed = suppressor.suppress(histograms, k, feedback);
    release.aggregateEntryDiversityFailed =
        failingDiversity(regions, aggregation, release.aggregateEntrySuppressed, diversity, feedback);
    for (std::size_t e = 0; e < release.aggregateEntrySuppressed.size(); ++e)
        if (release.aggregateEntryDiversityFailed[e])
            release.aggregateEntrySuppressed[e] = true;
    // The difference of two releases of overlapping records is published too: no cell may change by fewer
    // than k records (a withheld cell shows no count to take a difference with).
    release.aggregateEntryTooCloseToEarlier.assign(release.aggregateEntrySuppressed.size(), false);
    if (earlierCounts != nullptr)
        for (std::size_t e = 0; e < release.aggregateEntrySuppressed.size(); ++e)
        {
            if (release.aggregateEntrySuppressed[e])
                continue;
            const Count count = histograms.allEntries()[e].count;
            for (const Count earlier : (*earlierCounts)[e])
            {
                const Count difference = count > earlier ? count - earlier : earlier - count;
                if (difference >= 1 && difference < k)
                {
                    release.aggregateEntryTooCloseToEarlier[e] = true;
                    release.aggregateEntrySuppressed[e] = true;
                }
            }
        }
    const std::size_t aggregates = aggregation.size();
    release.aggregateReleased.assign(aggregates, 0);
    release.aggregateSuppressed.assign(aggregates, 0);
    release.aggregateDiversitySuppressed.assign(aggregates, 0);
    release.aggregateDifferenceSuppressed.assign(aggregates, 0);
    release.aggregateAnonymityAfter.assign(aggregates, 0);
    release.aggregateReleasedClasses.assign(aggregates, 0);
    for (std::size_t a = 0; a < aggregates; ++a)
    {
        for (std::size_t e = histograms.firstEntry(a); e < histograms.firstEntry(a + 1); ++e)
        {
            const Count count = histograms.allEntries()[e].count;
            if (release.aggregateEntrySuppressed[e])
            {
                release.aggregateSuppressed[a] += count;
                if (release.aggregateEntryDiversityFailed[e])
                    release.aggregateDiversitySuppressed[a] += count;
                else if (release.aggregateEntryTooCloseToEarlier[e])
                    release.aggregateDifferenceSuppressed[a] += count;
                continue;
            }
            release.aggregateReleased[a] += count;
            ++release.aggregateReleasedClasses[a];
            Count& smallest = release.aggregateAnonymityAfter[a];
            if (smallest == 0 || count < smallest)
                smallest = count;
        }
        release.diversitySuppressed += release.aggregateDiversitySuppressed[a];
        release.differenceSuppressed += release.aggregateDifferenceSuppressed[a];
        release.locallySuppressed += release.aggregateSuppressed[a] -
                                     release.aggregateDiversitySuppressed[a] -
                                     release.aggregateDifferenceSuppressed[a];
        release.released += release.aggregateReleased[a];
    }

    const HistogramTable& regionHistograms = regions.histograms();
    release.regionReleased.assign(regions.size(), 0);
    for (RegionIndex r = 0; r < regions.size(); ++r)
        for (std::size_t e = regionHistograms.firstEntry(r); e < regionHistograms.firstEntry(r + 1); ++e)
            if (!release.aggregateEntrySuppressed[aggregation.regionEntryTarget[e]])
                release.regionReleased[r] += regionHistograms.allEntries()[e].count;

    release.globallySuppressed = globallySuppressed;
    release.inputRecords = regions.dataset().totalRecords();
    return release;
}

} // namespace vbas

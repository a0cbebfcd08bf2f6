#include "AggregateFigures.h"

#include <cmath>

namespace vbas
{

std::vector<AggregateFigures> aggregateFigures(const RatingInput& input)
{
    const Aggregation& aggregation = input.aggregation;
    const SuppressionOutcome& suppression = input.suppression;
    std::vector<AggregateFigures> figures;
    figures.reserve(aggregation.size());
    for (std::size_t a = 0; a < aggregation.size(); ++a)
    {
        const SiteIndex site = aggregation.aggregateSite[a];
        const Point sitePoint = input.partition.sites[site];
        double distance = 0.0;
        Count loaded = 0; // records of the members before any suppression
        for (std::size_t m = aggregation.memberOffsets[a]; m < aggregation.memberOffsets[a + 1]; ++m)
        {
            const RegionIndex member = aggregation.members[m];
            distance += std::sqrt(squaredDistance(input.regions.point(member), sitePoint));
            loaded += input.regions.dataset().regionHistograms().total(member);
        }
        const Count before = aggregation.histograms.total(a);
        figures.push_back({site, sitePoint, aggregation.memberCount(a), before,
                           suppression.aggregateReleased[a], suppression.aggregateSuppressed[a],
                           loaded - before, suppression.aggregateReleasedClasses[a],
                           aggregation.histograms.anonymity(a), suppression.aggregateAnonymityAfter[a],
                           distance / double(aggregation.memberCount(a))});
    }
    return figures;
}

} // namespace vbas

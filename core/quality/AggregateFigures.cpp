#include "AggregateFigures.h"

#include <cmath>

namespace vbas
{

std::vector<AggregateFigures> aggregateFigures(const RatingInput& input)
{
    const Aggregation& aggregation = input.aggregation;
    const Release& release = input.release;
    std::vector<AggregateFigures> figures;
    figures.reserve(aggregation.size());
    for (std::size_t a = 0; a < aggregation.size(); ++a)
    {
        const SiteIndex site = aggregation.aggregateSite[a];
        const Point sitePoint = input.partition.sites[site];
        double distance = 0.0;
        for (std::size_t m = aggregation.memberOffsets[a]; m < aggregation.memberOffsets[a + 1]; ++m)
            distance += std::sqrt(squaredDistance(input.regions.point(aggregation.members[m]), sitePoint));
        figures.push_back({site, sitePoint, aggregation.memberCount(a), aggregation.histograms.total(a),
                           release.aggregateReleased[a], release.aggregateSuppressed[a],
                           release.aggregateReleasedClasses[a], aggregation.histograms.anonymity(a),
                           release.aggregateAnonymityAfter[a],
                           distance / double(aggregation.memberCount(a))});
    }
    return figures;
}

} // namespace vbas

#include "Metrics.h"

namespace vbas
{

Point memberMean(const RegionSet& regions, const Aggregation& aggregation, std::size_t a)
{
    double x = 0.0, y = 0.0;
    for (std::size_t m = aggregation.memberOffsets[a]; m < aggregation.memberOffsets[a + 1]; ++m)
    {
        x += regions.point(aggregation.members[m]).x;
        y += regions.point(aggregation.members[m]).y;
    }
    const double n = double(aggregation.memberCount(a));
    return {x / n, y / n};
}

double AverageDistance::compute(const RatingInput& input) const
{
    return meanMemberDistance(input, [&](std::size_t a)
                              { return input.partition.sites[input.aggregation.aggregateSite[a]]; });
}

double AlternativeAverageDistance::compute(const RatingInput& input) const
{
    return meanMemberDistance(input,
                              [&](std::size_t a) { return memberMean(input.regions, input.aggregation, a); });
}

} // namespace vbas

#pragma once

#include "model/Aggregation.h"
#include "suppression/SuppressionOutcome.h"

#include <cmath>

namespace vbas
{

/** Everything a quality metric may read about one finished aggregation. */
struct RatingInput
{
    const RegionSet& regions;
    const Partition& partition;
    const Aggregation& aggregation;
    const SuppressionOutcome& suppression;
    Count k;
};

/**
 * One quality figure of a release (thesis section 3.2.5 and Table 3, SPEC section 7); lower is
 * better for every metric that takes part in the Pareto comparison.
 *
 * Contract: pure function of its input; finite value (0 where the figure is undefined, e.g. an
 * average over nothing).
 */
class Metric
{
public:
    virtual ~Metric() = default;
    virtual double compute(const RatingInput& input) const = 0;
};

/** Mean over the aggregates' members of the distance from each member point to `centre(a)`. */
template <typename CentreOf> double meanMemberDistance(const RatingInput& input, CentreOf centre)
{
    const Aggregation& aggregation = input.aggregation;
    if (aggregation.members.empty())
        return 0.0;
    double sum = 0.0;
    for (std::size_t a = 0; a < aggregation.size(); ++a)
    {
        const Point c = centre(a);
        for (std::size_t m = aggregation.memberOffsets[a]; m < aggregation.memberOffsets[a + 1]; ++m)
            sum += std::sqrt(squaredDistance(input.regions.point(aggregation.members[m]), c));
    }
    return sum / double(aggregation.members.size());
}

/** Mean of the member points of aggregate a. */
Point memberMean(const RegionSet& regions, const Aggregation& aggregation, std::size_t a);

} // namespace vbas

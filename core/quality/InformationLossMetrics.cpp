#include "Metrics.h"

#include <cmath>

namespace vbas
{
namespace
{
double discernibility(const RatingInput& input)
{
    double sum = 0.0;
    for (const Count released : input.suppression.aggregateEntryReleased)
        sum += double(released) * double(released);
    return sum;
}
} // namespace

double PrecisionLoss::compute(const RatingInput& input) const
{
    const std::size_t regionCount = input.regions.size();
    const std::size_t aggregates = input.aggregation.size();
    if (regionCount <= 1 || aggregates == 0)
        return 0.0;
    const double height = std::log2(double(regionCount));
    double sum = 0.0;
    for (std::size_t a = 0; a < aggregates; ++a)
        sum += std::log2(double(input.aggregation.memberCount(a))) / height;
    return sum / double(aggregates);
}

double Discernibility::compute(const RatingInput& input) const
{
    return discernibility(input);
}

double DiscernibilityPenalized::compute(const RatingInput& input) const
{
    const SuppressionOutcome& suppression = input.suppression;
    return discernibility(input) + double(suppression.inputRecords) * double(suppression.suppressed());
}

double NonUniformEntropy::compute(const RatingInput& input) const
{
    const Aggregation& aggregation = input.aggregation;
    double sum = 0.0;
    for (RegionIndex r = 0; r < input.regions.size(); ++r)
    {
        const Count inRegion = input.suppression.regionReleased[r];
        if (inRegion == 0)
            continue;
        const Count inAggregate = input.suppression.aggregateReleased[aggregation.regionAggregate[r]];
        sum -= double(inRegion) * std::log2(double(inRegion) / double(inAggregate));
    }
    return sum;
}

} // namespace vbas

#include "Metrics.h"

namespace vbas
{

double GlobalAnonymityBefore::compute(const RatingInput& input) const
{
    const HistogramTable& histograms = input.aggregation.histograms;
    Count alpha = 0;
    for (std::size_t a = 0; a < histograms.size(); ++a)
        if (histograms.anonymity(a) > 0 && (alpha == 0 || histograms.anonymity(a) < alpha))
            alpha = histograms.anonymity(a);
    return double(alpha);
}

double GlobalAnonymityAfter::compute(const RatingInput& input) const
{
    Count alpha = 0;
    for (Count anonymity : input.suppression.aggregateAnonymityAfter)
        if (anonymity > 0 && (alpha == 0 || anonymity < alpha))
            alpha = anonymity;
    return double(alpha);
}

double AnonymityDeviation::compute(const RatingInput& input) const
{
    double sum = 0.0;
    std::size_t counted = 0;
    for (Count anonymity : input.suppression.aggregateAnonymityAfter)
        if (anonymity > 0)
        {
            sum += double(anonymity) - double(input.k);
            ++counted;
        }
    return counted == 0 ? 0.0 : sum / double(counted);
}

} // namespace vbas

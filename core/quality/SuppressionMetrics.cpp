#include "Metrics.h"

namespace vbas
{

double SuppressedGlobal::compute(const RatingInput& input) const
{
    return double(input.suppression.globallySuppressed);
}

double SuppressedLocal::compute(const RatingInput& input) const
{
    return double(input.suppression.locallySuppressed);
}

double SuppressedTotal::compute(const RatingInput& input) const
{
    return double(input.suppression.suppressed());
}

double SuppressedDiversity::compute(const RatingInput& input) const
{
    return double(input.suppression.diversitySuppressed);
}

} // namespace vbas

#include "Metrics.h"

namespace vbas
{

double SuppressedGlobal::compute(const RatingInput& input) const
{
    return double(input.release.globallySuppressed);
}

double SuppressedLocal::compute(const RatingInput& input) const
{
    return double(input.release.locallySuppressed);
}

double SuppressedTotal::compute(const RatingInput& input) const
{
    return double(input.release.suppressed());
}

double SuppressedDiversity::compute(const RatingInput& input) const
{
    return double(input.release.diversitySuppressed);
}

} // namespace vbas

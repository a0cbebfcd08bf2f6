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
    return double(input.release.globallySuppressed + input.release.locallySuppressed);
}

} // namespace vbas

#include "CountLogCountSum.h"

#include <cmath>

namespace vbas
{

CountLogCountSum::Scaled CountLogCountSum::scaled(Count count)
{
    return count > 1 ? Scaled(double(count) * std::log(double(count)) * 0x1p52) : 0;
}

double CountLogCountSum::value() const
{
    return double(mScaled) * 0x1p-52;
}

} // namespace vbas

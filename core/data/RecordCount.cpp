#include "data/RecordCount.h"

#include <cmath>

namespace vbas
{

std::optional<Count> wholeRecordCount(double count)
{
    constexpr double largestExact = 9007199254740992.0; // 2^53
    if (!(count >= 0.0) || count > largestExact || std::floor(count) != count)
        return std::nullopt;
    return static_cast<Count>(count);
}

} // namespace vbas

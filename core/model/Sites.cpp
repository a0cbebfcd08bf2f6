#include "Sites.h"

#include <algorithm>

namespace vbas
{

bool Sites::weighted() const
{
    return std::any_of(weights.begin(), weights.end(), [](double w) { return w != 0.0; });
}

} // namespace vbas

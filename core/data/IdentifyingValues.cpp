#include "IdentifyingValues.h"

#include <algorithm>

namespace vbas
{

IdentifyingValues identifyingValues(const std::vector<Count>& recordsPerValue, Count k)
{
    IdentifyingValues found;
    // Pairs link records even where k is 2: a set of two is small whatever the release's k.
    found.smallSet = std::max<Count>(k, 3);
    for (const Count held : recordsPerValue)
    {
        if (held == 0)
            continue;
        found.records += held;
        found.mostCommon = std::max(found.mostCommon, held);
        if (held < found.smallSet)
        {
            found.inSmallSets += held;
            ++found.valuesInSmallSets;
            found.valuesHeldByOne += held == 1 ? 1 : 0;
        }
    }
    return found;
}

} // namespace vbas

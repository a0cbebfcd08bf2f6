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

std::size_t mostCommonValue(const std::vector<Count>& recordsPerValue, const std::vector<std::uint32_t>& rank)
{
    std::size_t mostCommon = recordsPerValue.size();
    for (std::size_t value = 0; value < recordsPerValue.size(); ++value)
    {
        const Count held = recordsPerValue[value];
        if (held == 0)
            continue;
        if (mostCommon == recordsPerValue.size() || held > recordsPerValue[mostCommon] ||
            (held == recordsPerValue[mostCommon] && rank[value] < rank[mostCommon]))
            mostCommon = value;
    }
    return mostCommon;
}

std::optional<IdentifyingField> firstIdentifyingField(const std::vector<std::vector<Count>>& recordsPerValue,
                                                      const std::vector<std::vector<std::uint32_t>>& ranks,
                                                      Count k)
{
    for (std::size_t field = 0; field < recordsPerValue.size(); ++field)
    {
        const IdentifyingValues values = identifyingValues(recordsPerValue[field], k);
        if (values.identifies())
            return IdentifyingField{field, values, mostCommonValue(recordsPerValue[field], ranks[field])};
    }
    return std::nullopt;
}

} // namespace vbas

#include "RepeatedPersons.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>

namespace vbas
{

RepeatedRows repeatedRows(const Dataset& dataset, const std::vector<std::uint32_t>& publishedCodes,
                          std::size_t fieldCount, Feedback& feedback)
{
    RepeatedRows repeated;
    // Each row's combination of class and published values, numbered.
    std::map<std::vector<std::uint32_t>, std::uint32_t> combinations;
    std::vector<std::uint32_t> combination(dataset.rows(), 0);
    std::vector<std::uint32_t> key(fieldCount + 1);
    for (std::size_t row = 0; row < dataset.rows(); ++row)
    {
        if (dataset.rowRegion(row) == kNoRegion)
            continue;
        key[0] = dataset.rowClass(row);
        std::copy_n(publishedCodes.begin() + std::ptrdiff_t(row * fieldCount), fieldCount, key.begin() + 1);
        combination[row] = combinations.emplace(key, std::uint32_t(combinations.size())).first->second;
    }
    feedback.checkCanceled();
    std::vector<std::pair<RegionIndex, std::uint32_t>> cells;
    std::vector<Count> ofCombination(combinations.size(), 0);
    std::vector<Count> ofArea(dataset.regionCount(), 0);
    for (std::size_t row = 0; row < dataset.rows(); ++row)
        if (dataset.rowRegion(row) != kNoRegion)
        {
            cells.emplace_back(dataset.rowRegion(row), combination[row]);
            ++ofCombination[combination[row]];
            ++ofArea[dataset.rowRegion(row)];
        }
    repeated.rows = cells.size();
    std::sort(cells.begin(), cells.end());
    repeated.repeats =
        Count(cells.size() - std::size_t(std::unique(cells.begin(), cells.end()) - cells.begin()));
    // Expected distinct cells of an area of n rows drawing combinations with probabilities p_v:
    // sum_v 1 - (1 - p_v)^n; areas of equal size share it.
    std::map<Count, Count> areasOfSize;
    for (const Count n : ofArea)
        if (n > 0)
            ++areasOfSize[n];
    double distinct = 0.0;
    for (const auto& [n, areas] : areasOfSize)
    {
        feedback.checkCanceled();
        double perArea = 0.0;
        for (const Count count : ofCombination)
            perArea += 1.0 - std::pow(1.0 - double(count) / double(repeated.rows), double(n));
        distinct += double(areas) * perArea;
    }
    repeated.expected = double(repeated.rows) - distinct;
    return repeated;
}

} // namespace vbas

#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace vbas
{

/**
 * The codes of the values a reader numbered (TextIds, one number per distinct value of a column), by column
 * and number: each distinct value is coded once, not once per row, when a table of many rows holds few
 * distinct values. Codes are whatever the caller computes (category codes, region keys), below kUnknown.
 */
class CodesByValueId
{
public:
    /** No code yet; no code may take this value. */
    static constexpr std::uint32_t kUnknown = std::numeric_limits<std::uint32_t>::max() - 1;

    /** For rows of `columns` values. */
    explicit CodesByValueId(std::size_t columns)
        : mCodes(columns)
    {
    }

    /**
     * Returns the code of column `column`'s value: `compute()`'s, called once per value number when `ids`
     * (the row's value numbers, one per column) is given, else every time.
     */
    template <typename Compute>
    std::uint32_t code(const std::uint32_t* ids, std::size_t column, Compute compute)
    {
        if (ids == nullptr)
            return compute();
        std::vector<std::uint32_t>& codes = mCodes[column];
        const std::uint32_t valueId = ids[column];
        if (valueId >= codes.size())
            codes.resize(std::size_t(valueId) + 1, kUnknown);
        if (codes[valueId] == kUnknown)
            codes[valueId] = compute();
        return codes[valueId];
    }

private:
    std::vector<std::vector<std::uint32_t>> mCodes;
};

} // namespace vbas

#include "data/CategoryCoding.h"

#include <algorithm>
#include <utility>

namespace vbas
{

std::uint32_t CategoryCoding::code(std::u16string_view key)
{
    mLookup.assign(key);
    const auto found = mCodes.find(mLookup);
    if (found != mCodes.end())
        return found->second;
    mCodes.emplace(mLookup, mSize);
    return mSize++;
}

std::uint32_t CategoryCoding::nullCode()
{
    ++mNullCount;
    if (!mNull)
        mNull = mSize++;
    return *mNull;
}

std::vector<std::uint32_t> CategoryCoding::ranks() const
{
    std::vector<std::pair<const std::u16string*, std::uint32_t>> sorted;
    sorted.reserve(mCodes.size());
    for (const auto& entry : mCodes)
        sorted.emplace_back(&entry.first, entry.second);
    // Keys are distinct: the order of the texts alone decides.
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return *a.first < *b.first; });
    std::vector<std::uint32_t> rank(mSize);
    std::uint32_t next = 0;
    if (mNull)
        rank[*mNull] = next++;
    for (const auto& entry : sorted)
        rank[entry.second] = next++;
    return rank;
}

void rankCodes(const std::vector<std::uint32_t>& rank, std::vector<std::uint32_t>& codes, std::size_t first,
               std::size_t stride)
{
    for (std::size_t i = first; i < codes.size(); i += stride)
        codes[i] = rank[codes[i]];
}

} // namespace vbas

#include "data/TextIds.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace vbas
{

namespace
{
constexpr std::uint64_t kIdBits = 0xffffffffULL;
}

std::uint32_t TextIds::idOf(std::string_view text)
{
    if (2 * (mPlaces.size() + 1) > mSlots.size())
        grow();
    const std::uint64_t hash = std::hash<std::string_view>{}(text);
    const std::size_t mask = mSlots.size() - 1;
    for (std::size_t slot = std::size_t(hash) & mask;; slot = (slot + 1) & mask)
    {
        const std::uint64_t entry = mSlots[slot];
        if (entry == 0)
        {
            if (mPlaces.size() >= kIdBits)
                throw std::length_error("more distinct values in a column than 32-bit ids number");
            mPlaces.emplace_back(mTexts.size(), text.size());
            mTexts.append(text);
            mSlots[slot] = (hash & ~kIdBits) | mPlaces.size();
            return std::uint32_t(mPlaces.size() - 1);
        }
        const auto id = std::uint32_t((entry & kIdBits) - 1);
        if ((entry & ~kIdBits) == (hash & ~kIdBits) && this->text(id) == text)
            return id;
    }
}

std::string_view TextIds::text(std::uint32_t id) const
{
    return std::string_view(mTexts).substr(mPlaces[id].first, mPlaces[id].second);
}

void TextIds::grow()
{
    std::vector<std::uint64_t> slots(std::max<std::size_t>(mSlots.size() * 2, 64), 0);
    const std::size_t mask = slots.size() - 1;
    for (std::uint32_t id = 0; id < mPlaces.size(); ++id)
    {
        const std::uint64_t hash = std::hash<std::string_view>{}(text(id));
        std::size_t slot = std::size_t(hash) & mask;
        while (slots[slot] != 0)
            slot = (slot + 1) & mask;
        slots[slot] = (hash & ~kIdBits) | (std::uint64_t(id) + 1);
    }
    mSlots.swap(slots);
}

} // namespace vbas

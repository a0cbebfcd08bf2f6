#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vbas
{

/**
 * The distinct texts of one column, each numbered in the order it first came (0, 1, 2...): how a fast reader
 * turns a column's values into the ids DistinctRows counts. Texts are compared byte by byte.
 */
class TextIds
{
public:
    /** Returns the id of `text`, a new one (the next number) when it is the first time. */
    std::uint32_t idOf(std::string_view text);
    /** Returns the text numbered `id`. */
    std::string_view text(std::uint32_t id) const;
    /** Returns the number of distinct texts. */
    std::size_t size() const { return mPlaces.size(); }

private:
    void grow();

    std::string mTexts;
    /** Where each text starts in mTexts and its length. */
    std::vector<std::pair<std::size_t, std::size_t>> mPlaces;
    /** 0 when empty, else the text's id + 1 in the low 32 bits and its hash's high 32 bits above. */
    std::vector<std::uint64_t> mSlots;
};

} // namespace vbas

#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace vbas
{

/**
 * Dense codes for the values of one field, the one rule by which values become categories
 * (quasi-identifiers, sensitive fields, parents, given aggregates):
 *  - a value is matched by its key, its text in UTF-16 code units as the front end reads it (no
 *    normalisation: texts that differ in one unit are two categories);
 *  - NULL is a category of its own, apart from empty text;
 *  - codes come in the order values first appear (0, 1, 2...), and ranks() puts them in text order, NULL
 *    first, so that results do not depend on the order of the rows.
 * Text order compares code unit by code unit (the order QString and QGIS sort in; UTF-8 bytes order the
 * characters beyond U+FFFF after U+E000-U+FFFF instead).
 */
class CategoryCoding
{
public:
    /** Returns the code of the value whose key is `key`, a new one (the next number) for a key not seen. */
    std::uint32_t code(std::u16string_view key);
    /** Returns the code of NULL, a new one (the next number) the first time. */
    std::uint32_t nullCode();
    /** Returns the code of NULL, or nothing when no NULL was coded. */
    std::optional<std::uint32_t> nullCodeIfCoded() const { return mNull; }
    /** Returns the number of codes (categories), NULL included. */
    std::uint32_t size() const { return mSize; }
    /** Returns how many times NULL was coded (the rows or regions that hold it). */
    std::size_t nullCount() const { return mNullCount; }
    /** Returns each code's rank in text order, NULL first: the codes the engine sees. */
    std::vector<std::uint32_t> ranks() const;

private:
    std::unordered_map<std::u16string, std::uint32_t> mCodes;
    /** The key being looked up, kept so that a lookup does not allocate. */
    std::u16string mLookup;
    std::optional<std::uint32_t> mNull;
    std::uint32_t mSize = 0;
    std::size_t mNullCount = 0;
};

/**
 * Replaces codes by their ranks (`rank`, from CategoryCoding::ranks()) in one column of `codes`: the entries
 * first, first + stride, first + 2 stride... (rows of `stride` codes, the column at `first`).
 */
void rankCodes(const std::vector<std::uint32_t>& rank, std::vector<std::uint32_t>& codes,
               std::size_t first = 0, std::size_t stride = 1);

} // namespace vbas

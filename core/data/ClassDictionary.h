#pragma once

#include "base/Feedback.h"
#include "base/Types.h"

#include <cstdint>
#include <vector>

namespace vbas
{

inline constexpr ClassId kNoClass = static_cast<ClassId>(-1);

/**
 * Interns quasi-identifier code tuples into dense equivalence-class ids.
 *
 * Ids run 0..size()-1 in "EC-key order": the lexicographic order of the code tuples, first
 * quasi-identifier most significant, so every stage that walks classes "in key order" (ADC,
 * reports) is deterministic. Ids are compact (one 32-bit integer per record) whatever MaxCombs is:
 * small MaxCombs use a direct lookup table, large ones hash bit-packed keys of as many 64-bit words
 * as the schema needs, so MaxCombs far beyond 2^64 works.
 */
class ClassDictionary
{
public:
    /**
     * Builds the dictionary from `rows` code tuples (row-major, `categories.size()` codes each;
     * code j of a row is below categories[j]). Rows whose `rowRegion` is kNoRegion are skipped
     * and get kNoClass. Writes the class of every row to `rowClass`.
     */
    static ClassDictionary build(const std::vector<std::uint64_t>& categories, const std::uint32_t* codes,
                                 std::size_t rows, const RegionIndex* rowRegion,
                                 std::vector<ClassId>& rowClass, Feedback& feedback);

    /** Number of distinct classes. */
    std::size_t size() const
    {
        return mQuasiIdentifierCount == 0 ? mClassCount : mCodes.size() / mQuasiIdentifierCount;
    }
    std::size_t quasiIdentifierCount() const { return mQuasiIdentifierCount; }
    /** The quasi-identifier codes of class `id` (quasiIdentifierCount() values). */
    const std::uint32_t* codes(ClassId id) const
    {
        return mCodes.data() + std::size_t(id) * mQuasiIdentifierCount;
    }

private:
    std::size_t mQuasiIdentifierCount = 0;
    std::size_t mClassCount = 0; // only used when there are no quasi-identifiers
    std::vector<std::uint32_t> mCodes;
};

} // namespace vbas

#include "ClassDictionary.h"

#include <algorithm>
#include <numeric>

namespace vbas
{
namespace
{

// Direct tables are used while MaxCombs stays near the record count: one pass, no hashing.
constexpr std::uint64_t kDirectTableMinimum = std::uint64_t(1) << 20;
constexpr std::uint64_t kDirectTableMaximum = std::uint64_t(1) << 28;
constexpr std::uint32_t kUnset = static_cast<std::uint32_t>(-1);
constexpr std::size_t kCancelCheckRows = std::size_t(1) << 20;

/** Mixed-radix size of the code space, or 0 when it exceeds `limit`. */
std::uint64_t codeSpaceSize(const std::vector<std::uint64_t>& categories, std::uint64_t limit)
{
    std::uint64_t size = 1;
    for (std::uint64_t c : categories)
    {
        if (c == 0)
            c = 1;
        if (size > limit / c)
            return 0;
        size *= c;
    }
    return size;
}

unsigned bitWidth(std::uint64_t categories)
{
    unsigned width = 0;
    for (std::uint64_t v = categories > 0 ? categories - 1 : 0; v != 0; v >>= 1)
        ++width;
    return std::min(width, 32u); // codes are 32-bit
}

std::uint64_t splitMix(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/** Open-addressing set of fixed-width packed keys; returns provisional ids in first-seen order. */
class PackedKeyInterner
{
public:
    explicit PackedKeyInterner(std::size_t words)
        : mWords(words)
        , mSlots(1024, kUnset)
    {
    }

    std::uint32_t intern(const std::uint64_t* key)
    {
        if ((mKeys.size() / mWords + 1) * 2 > mSlots.size())
            grow();
        std::size_t slot = hash(key) & (mSlots.size() - 1);
        while (mSlots[slot] != kUnset)
        {
            if (std::equal(key, key + mWords, mKeys.data() + std::size_t(mSlots[slot]) * mWords))
                return mSlots[slot];
            slot = (slot + 1) & (mSlots.size() - 1);
        }
        const auto id = static_cast<std::uint32_t>(mKeys.size() / mWords);
        mKeys.insert(mKeys.end(), key, key + mWords);
        mSlots[slot] = id;
        return id;
    }

private:
    std::uint64_t hash(const std::uint64_t* key) const
    {
        std::uint64_t h = 0;
        for (std::size_t w = 0; w < mWords; ++w)
            h = splitMix(h ^ key[w]);
        return h;
    }

    void grow()
    {
        std::vector<std::uint32_t> slots(mSlots.size() * 2, kUnset);
        const std::size_t count = mKeys.size() / mWords;
        for (std::uint32_t id = 0; id < count; ++id)
        {
            std::size_t slot = hash(mKeys.data() + std::size_t(id) * mWords) & (slots.size() - 1);
            while (slots[slot] != kUnset)
                slot = (slot + 1) & (slots.size() - 1);
            slots[slot] = id;
        }
        mSlots.swap(slots);
    }

    std::size_t mWords;
    std::vector<std::uint32_t> mSlots;
    std::vector<std::uint64_t> mKeys;
};

} // namespace

ClassDictionary ClassDictionary::build(const std::vector<std::uint64_t>& categories,
                                       const std::uint32_t* codes, std::size_t rows,
                                       const RegionIndex* rowRegion, std::vector<ClassId>& rowClass,
                                       Feedback& feedback)
{
    ClassDictionary dictionary;
    const std::size_t q = categories.size();
    dictionary.mQuasiIdentifierCount = q;
    rowClass.assign(rows, kNoClass);

    if (q == 0)
    {
        // No quasi-identifiers: every record is in the one class (aggregation to a population floor).
        for (std::size_t row = 0; row < rows; ++row)
            if (rowRegion[row] != kNoRegion)
            {
                rowClass[row] = 0;
                dictionary.mClassCount = 1;
            }
        return dictionary;
    }

    const std::uint64_t directLimit =
        std::min(kDirectTableMaximum, std::max<std::uint64_t>(kDirectTableMinimum, 4 * std::uint64_t(rows)));
    const std::uint64_t spaceSize = codeSpaceSize(categories, directLimit);

    if (spaceSize != 0)
    {
        // Mixed-radix index with the first quasi-identifier most significant: index order is key order.
        std::vector<std::uint32_t> table(spaceSize, kUnset);
        for (std::size_t row = 0; row < rows; ++row)
        {
            if (rowRegion[row] == kNoRegion)
                continue;
            if (row % kCancelCheckRows == 0)
                feedback.checkCanceled();
            const std::uint32_t* c = codes + row * q;
            std::uint64_t index = 0;
            for (std::size_t j = 0; j < q; ++j)
                index = index * std::max<std::uint64_t>(categories[j], 1) + c[j];
            table[index] = 0;
            rowClass[row] = static_cast<ClassId>(index);
        }
        std::uint32_t next = 0;
        for (std::uint64_t index = 0; index < spaceSize; ++index)
        {
            if (table[index] == kUnset)
                continue;
            table[index] = next++;
            std::uint64_t rest = index;
            const std::size_t at = dictionary.mCodes.size();
            dictionary.mCodes.resize(at + q);
            for (std::size_t j = q; j-- > 0;)
            {
                const std::uint64_t radix = std::max<std::uint64_t>(categories[j], 1);
                dictionary.mCodes[at + j] = static_cast<std::uint32_t>(rest % radix);
                rest /= radix;
            }
        }
        for (std::size_t row = 0; row < rows; ++row)
            if (rowClass[row] != kNoClass)
                rowClass[row] = table[rowClass[row]];
        return dictionary;
    }

    // Bit-packed keys, as many 64-bit words as the schema needs.
    std::vector<unsigned> widths(q);
    std::size_t totalBits = 0;
    for (std::size_t j = 0; j < q; ++j)
    {
        widths[j] = bitWidth(categories[j]);
        totalBits += widths[j];
    }
    const std::size_t words = std::max<std::size_t>(1, (totalBits + 63) / 64);
    PackedKeyInterner interner(words);
    std::vector<std::uint64_t> key(words);
    std::vector<std::size_t> firstRow;
    for (std::size_t row = 0; row < rows; ++row)
    {
        if (rowRegion[row] == kNoRegion)
            continue;
        if (row % kCancelCheckRows == 0)
            feedback.checkCanceled();
        std::fill(key.begin(), key.end(), 0);
        const std::uint32_t* c = codes + row * q;
        std::size_t bit = 0;
        for (std::size_t j = 0; j < q; ++j)
        {
            if (widths[j] == 0)
                continue; // a single category: nothing to store, and `bit` may sit past the last word
            const std::uint64_t value = c[j];
            const std::size_t word = bit / 64;

            const std::size_t offset = bit % 64;
            key[word] |= value << offset;
            if (offset + widths[j] > 64)
                key[word + 1] |= value >> (64 - offset);
            bit += widths[j];
        }
        const std::uint32_t provisional = interner.intern(key.data());
        if (provisional == firstRow.size())
            firstRow.push_back(row);
        rowClass[row] = provisional;
    }

    // Renumber in key order: lexicographic on the code tuples.
    std::vector<std::uint32_t> order(firstRow.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t a, std::uint32_t b)
              {
                  const std::uint32_t* ca = codes + firstRow[a] * q;
                  const std::uint32_t* cb = codes + firstRow[b] * q;
                  return std::lexicographical_compare(ca, ca + q, cb, cb + q);
              });
    std::vector<std::uint32_t> rank(order.size());
    dictionary.mCodes.resize(order.size() * q);
    for (std::uint32_t finalId = 0; finalId < order.size(); ++finalId)
    {
        rank[order[finalId]] = finalId;
        const std::uint32_t* c = codes + firstRow[order[finalId]] * q;
        std::copy(c, c + q, dictionary.mCodes.begin() + std::ptrdiff_t(finalId) * std::ptrdiff_t(q));
    }
    for (std::size_t row = 0; row < rows; ++row)
        if (rowClass[row] != kNoClass)
            rowClass[row] = rank[rowClass[row]];
    return dictionary;
}

} // namespace vbas

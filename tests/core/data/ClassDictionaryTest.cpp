#include "data/ClassDictionary.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace vbas;

namespace
{
/** Interns rows and checks ids against an independent std::map of tuples (key order). */
void expectDenseKeyOrderedIds(const std::vector<std::uint64_t>& categories,
                              const std::vector<std::uint32_t>& codes)
{
    const std::size_t q = categories.size();
    const std::size_t rows = codes.size() / q;
    std::vector<RegionIndex> region(rows, 0);
    std::vector<ClassId> rowClass;
    Feedback feedback;
    const ClassDictionary dictionary =
        ClassDictionary::build(categories, codes.data(), rows, region.data(), rowClass, feedback);

    std::map<std::vector<std::uint32_t>, ClassId> expected; // std::map orders tuples lexicographically
    for (std::size_t row = 0; row < rows; ++row)
        expected.emplace(std::vector<std::uint32_t>(codes.begin() + std::ptrdiff_t(row * q),
                                                    codes.begin() + std::ptrdiff_t((row + 1) * q)),
                         0);
    ClassId next = 0;
    for (auto& entry : expected)
        entry.second = next++;

    ASSERT_EQ(dictionary.size(), expected.size());
    for (std::size_t row = 0; row < rows; ++row)
    {
        const std::vector<std::uint32_t> tuple(codes.begin() + std::ptrdiff_t(row * q),
                                               codes.begin() + std::ptrdiff_t((row + 1) * q));
        ASSERT_EQ(rowClass[row], expected.at(tuple));
        ASSERT_TRUE(std::equal(tuple.begin(), tuple.end(), dictionary.codes(rowClass[row])));
    }
}

std::vector<std::uint32_t> randomCodes(const std::vector<std::uint64_t>& categories, std::size_t rows,
                                       std::uint32_t observedLimit, unsigned seed)
{
    std::mt19937 generator(seed);
    std::vector<std::uint32_t> codes;
    for (std::size_t row = 0; row < rows; ++row)
        for (std::uint64_t c : categories)
            codes.push_back(std::uint32_t(generator() % std::min<std::uint64_t>(c, observedLimit)));
    return codes;
}
} // namespace

TEST(ClassDictionary, SmallSchemaUsesDenseIdsInKeyOrder)
{
    const std::vector<std::uint64_t> categories{22, 2};
    expectDenseKeyOrderedIds(categories, randomCodes(categories, 5000, 1000, 1));
}

TEST(ClassDictionary, FirstQuasiIdentifierIsMostSignificant)
{
    // (1,0) < (0,1)? No: first QI most significant, so (0,1) < (1,0).
    const std::vector<std::uint64_t> categories{2, 2};
    const std::vector<std::uint32_t> codes{1, 0, 0, 1};
    std::vector<RegionIndex> region(2, 0);
    std::vector<ClassId> rowClass;
    Feedback feedback;
    ClassDictionary::build(categories, codes.data(), 2, region.data(), rowClass, feedback);
    EXPECT_EQ(rowClass[0], 1u);
    EXPECT_EQ(rowClass[1], 0u);
}

TEST(ClassDictionary, LargeCodeSpaceHashesPackedKeys)
{
    // 2^20 * 2^20 categories: beyond the direct table, within one 64-bit word.
    const std::vector<std::uint64_t> categories{1u << 20, 1u << 20};
    expectDenseKeyOrderedIds(categories, randomCodes(categories, 3000, 50, 2));
}

TEST(ClassDictionary, MaxCombsBeyond2To64UsesSeveralWords)
{
    // Five QIs of 2^30 categories: MaxCombs = 2^150, 150 bits of key.
    const std::vector<std::uint64_t> categories(5, std::uint64_t(1) << 30);
    auto codes = randomCodes(categories, 4000, 3, 3);
    // Codes near the top of the range exercise words boundaries.
    codes[0] = (1u << 30) - 1;
    codes[3] = (1u << 30) - 2;
    expectDenseKeyOrderedIds(categories, codes);
}

TEST(ClassDictionary, ThousandsOfCategoriesPerQuasiIdentifier)
{
    const std::vector<std::uint64_t> categories{5000, 7000, 9000, 3000, 11000, 4000};
    expectDenseKeyOrderedIds(categories, randomCodes(categories, 6000, 5000, 4));
}

TEST(ClassDictionary, SingleCategoryAfterAFullWordOfKey)
{
    // Found by the fuzzer: two QIs of 2^32 categories fill one 64-bit word; a third QI with one
    // category has no bits, and must not be written past the key's end.
    const std::vector<std::uint64_t> categories{std::uint64_t(1) << 32, std::uint64_t(1) << 32, 1};
    expectDenseKeyOrderedIds(categories, {5, 7, 0, 5, 8, 0, 5, 7, 0, 4000000000u, 1, 0});
}

TEST(ClassDictionary, SkipsDroppedRows)

{
    const std::vector<std::uint64_t> categories{3};
    const std::vector<std::uint32_t> codes{2, 0, 1};
    std::vector<RegionIndex> region{0, kNoRegion, 0};
    std::vector<ClassId> rowClass;
    Feedback feedback;
    const ClassDictionary dictionary =
        ClassDictionary::build(categories, codes.data(), 3, region.data(), rowClass, feedback);
    EXPECT_EQ(dictionary.size(), 2u);
    EXPECT_EQ(rowClass[0], 1u);
    EXPECT_EQ(rowClass[1], kNoClass);
    EXPECT_EQ(rowClass[2], 0u);
}

TEST(ClassDictionary, NoQuasiIdentifiersMeansOneClass)
{
    std::vector<RegionIndex> region{0, 1, 1};
    std::vector<ClassId> rowClass;
    Feedback feedback;
    const ClassDictionary dictionary =
        ClassDictionary::build({}, nullptr, 3, region.data(), rowClass, feedback);
    EXPECT_EQ(dictionary.size(), 1u);
    EXPECT_EQ(rowClass, (std::vector<ClassId>{0, 0, 0}));
}

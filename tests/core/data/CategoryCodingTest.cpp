// The rule by which values become categories (CategoryCoding): codes in order of first appearance, NULL a
// category of its own apart from empty text, ranks in text order (UTF-16 code units, NULL first) that do not
// depend on the order of the rows. Hand-computed cases, then random keys against a sort written here.

#include "data/CategoryCoding.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace vbas;

namespace
{
/** Each key's rank by brute force: its place among the distinct keys sorted unit by unit as unsigned numbers.
 */
std::map<std::u16string, std::uint32_t> rankByHand(const std::vector<std::u16string>& keys)
{
    std::vector<std::vector<unsigned>> units;
    for (const std::u16string& key : keys)
        units.emplace_back(key.begin(), key.end());
    std::sort(units.begin(), units.end());
    units.erase(std::unique(units.begin(), units.end()), units.end());
    std::map<std::u16string, std::uint32_t> rank;
    for (std::size_t i = 0; i < units.size(); ++i)
    {
        std::u16string key;
        for (const unsigned unit : units[i])
            key.push_back(char16_t(unit));
        rank[key] = std::uint32_t(i);
    }
    return rank;
}
} // namespace

TEST(CategoryCoding, CodesValuesInTheOrderTheyFirstCome)
{
    CategoryCoding coding;
    EXPECT_EQ(coding.code(u"b"), 0u);
    EXPECT_EQ(coding.code(u"a"), 1u);
    EXPECT_EQ(coding.code(u"b"), 0u);
    EXPECT_EQ(coding.code(u"c"), 2u);
    EXPECT_EQ(coding.code(u"a"), 1u);
    EXPECT_EQ(coding.size(), 3u);
    EXPECT_FALSE(coding.nullCodeIfCoded().has_value());
    EXPECT_EQ(coding.nullCount(), 0u);
}

TEST(CategoryCoding, NullIsACategoryOfItsOwnApartFromEmptyText)
{
    CategoryCoding coding;
    EXPECT_EQ(coding.code(u"x"), 0u);
    EXPECT_EQ(coding.nullCode(), 1u);
    EXPECT_EQ(coding.code(u""), 2u);
    EXPECT_EQ(coding.nullCode(), 1u);
    EXPECT_EQ(coding.code(u""), 2u);
    EXPECT_EQ(coding.nullCode(), 1u);
    EXPECT_EQ(coding.size(), 3u);
    EXPECT_EQ(coding.nullCodeIfCoded(), 1u);
    EXPECT_EQ(coding.nullCount(), 3u) << "every NULL coded counts";
}

TEST(CategoryCoding, TextsThatDifferInOneUnitOrInLengthAreTwoCategories)
{
    CategoryCoding coding;
    EXPECT_EQ(coding.code(u"a"), 0u);
    EXPECT_EQ(coding.code(std::u16string_view(u"a\0", 2)), 1u);
    EXPECT_EQ(coding.code(u"A"), 2u);
    EXPECT_EQ(coding.code(u"\u00e9"), 3u);  // é, one unit
    EXPECT_EQ(coding.code(u"e\u0301"), 4u); // e and a combining accent: not normalised
    EXPECT_EQ(coding.code(u"a "), 5u);
    EXPECT_EQ(coding.size(), 6u);
}

TEST(CategoryCoding, RanksAreTextOrderWithNullFirst)
{
    CategoryCoding coding;
    // Codes: "b" 0, "a" 1, NULL 2, "c" 3, "" 4. Text order: NULL, "", "a", "b", "c".
    coding.code(u"b");
    coding.code(u"a");
    coding.nullCode();
    coding.code(u"c");
    coding.code(u"");
    EXPECT_EQ(coding.ranks(), (std::vector<std::uint32_t>{3, 2, 0, 4, 1}));
}

TEST(CategoryCoding, TextOrderComparesUnitByUnit)
{
    CategoryCoding coding;
    // Codes 0..6. By UTF-16 units: "10" < "9" (text, not numbers), "Z" < "a" (upper case first), "a" < "ab"
    // (a prefix first), U+1F600 (units D83D DE00) < U+FF21 (a unit above the surrogates); UTF-8 bytes would
    // put U+1F600 (F0 ...) after U+FF21 (EF ...).
    coding.code(u"9");          // 0
    coding.code(u"10");         // 1
    coding.code(u"a");          // 2
    coding.code(u"Z");          // 3
    coding.code(u"ab");         // 4
    coding.code(u"\uff21");     // 5
    coding.code(u"\U0001F600"); // 6
    // Order: "10" "9" "Z" "a" "ab" U+1F600 U+FF21.
    EXPECT_EQ(coding.ranks(), (std::vector<std::uint32_t>{1, 0, 3, 2, 4, 6, 5}));
}

TEST(CategoryCoding, RanksDoNotDependOnTheOrderOfTheRows)
{
    // Short keys from a few units (ASCII, accented, the two halves of a surrogate pair, one unit above the
    // surrogates), drawn with repeats; NULL among them.
    const std::u16string units{
        u'a', u'A', u'b', u'0', char16_t(0xe9), char16_t(0xd83d), char16_t(0xde00), char16_t(0xff21)};
    std::mt19937 random(3);
    std::vector<std::u16string> keys;
    for (int i = 0; i < 3000; ++i)
    {
        std::u16string key;
        const std::size_t length = random() % 4;
        for (std::size_t c = 0; c < length; ++c)
            key.push_back(units[random() % units.size()]);
        keys.push_back(key);
    }
    const std::map<std::u16string, std::uint32_t> expected = rankByHand(keys);
    for (int round = 0; round < 4; ++round)
    {
        std::shuffle(keys.begin(), keys.end(), random);
        CategoryCoding coding;
        std::vector<std::uint32_t> codes, nullCodes;
        for (std::size_t i = 0; i < keys.size(); ++i)
        {
            codes.push_back(coding.code(keys[i]));
            if (i % 7 == 3)
                nullCodes.push_back(coding.nullCode());
        }
        ASSERT_EQ(coding.size(), expected.size() + 1);
        const std::vector<std::uint32_t> rank = coding.ranks();
        for (std::size_t i = 0; i < keys.size(); ++i)
            EXPECT_EQ(rank[codes[i]], expected.at(keys[i]) + 1) << "round " << round;
        for (const std::uint32_t code : nullCodes)
            EXPECT_EQ(rank[code], 0u);
    }
}

TEST(CategoryCoding, NoValuesHaveNoRanks)
{
    EXPECT_TRUE(CategoryCoding().ranks().empty());
    CategoryCoding onlyNull;
    onlyNull.nullCode();
    EXPECT_EQ(onlyNull.ranks(), (std::vector<std::uint32_t>{0}));
}

TEST(CategoryCoding, RankCodesReplacesTheCodesOfOneColumn)
{
    // Rows of three codes; the middle column (first 1, stride 3) becomes ranks, the others stay.
    std::vector<std::uint32_t> rows{0, 0, 9, 1, 1, 9, 2, 2, 9, 3, 0, 9};
    rankCodes({2, 0, 1}, rows, 1, 3);
    EXPECT_EQ(rows, (std::vector<std::uint32_t>{0, 2, 9, 1, 0, 9, 2, 1, 9, 3, 2, 9}));
    std::vector<std::uint32_t> column{1, 1, 0};
    rankCodes({1, 0}, column);
    EXPECT_EQ(column, (std::vector<std::uint32_t>{0, 0, 1}));
    std::vector<std::uint32_t> none;
    rankCodes({}, none, 0, 2);
    EXPECT_TRUE(none.empty());
}

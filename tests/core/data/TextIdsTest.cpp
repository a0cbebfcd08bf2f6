// The texts of a column numbered in the order they first came (TextIds), against std::map numbering the
// same texts: texts that differ in one byte or in length only, empty text, bytes beyond ASCII and NUL.

#include "data/TextIds.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

using namespace vbas;

TEST(TextIds, NumbersEachDistinctTextInTheOrderItFirstCame)
{
    TextIds ids;
    std::map<std::string, std::uint32_t> expected;
    std::mt19937 random(7);
    // Past several table growths.
    for (int i = 0; i < 20000; ++i)
    {
        const int n = int(random() % 3000);
        const std::string text = i % 5 == 0 ? std::string(std::size_t(n % 7), 'a') : "A" + std::to_string(n);
        const std::uint32_t next = std::uint32_t(expected.size());
        const std::uint32_t id = expected.emplace(text, next).first->second;
        EXPECT_EQ(ids.idOf(text), id) << text;
    }
    ASSERT_EQ(ids.size(), expected.size());
    for (const auto& entry : expected)
        EXPECT_EQ(ids.text(entry.second), entry.first);
}

TEST(TextIds, TellsApartTextsThatDifferInOneByteOrInLength)
{
    TextIds ids;
    using namespace std::string_literals;
    EXPECT_EQ(ids.idOf(""), 0u);
    EXPECT_EQ(ids.idOf("a"), 1u);
    EXPECT_EQ(ids.idOf("a\0"s), 2u); // a NUL byte is part of the text
    EXPECT_EQ(ids.idOf("b"), 3u);
    EXPECT_EQ(ids.idOf("\xc3\xa9"), 4u); // é in UTF-8
    EXPECT_EQ(ids.idOf("e"), 5u);
    EXPECT_EQ(ids.idOf("a"), 1u);
    EXPECT_EQ(ids.idOf(""), 0u);
    EXPECT_EQ(ids.idOf("\xc3\xa9"), 4u);
    ASSERT_EQ(ids.size(), 6u);
    EXPECT_EQ(ids.text(2), "a\0"s);
    EXPECT_EQ(ids.text(0), "");
}

TEST(TextIds, StartsEmpty)
{
    const TextIds ids;
    EXPECT_EQ(ids.size(), 0u);
}

// Identical rows counted as they stream (VbasDistinctRows, VbasTextIds), against std::map counting the
// same rows: every distinct row once with its count, whatever the partitions and tables did.

#include "vbasdistinctrows.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

TEST(TextIds, NumbersEachDistinctTextInTheOrderItFirstCame)
{
    VbasTextIds ids;
    std::map<std::string, std::uint32_t> expected;
    std::mt19937 random(7);
    // Texts that differ in one byte, in length only, empty, and past several table growths.
    for (int i = 0; i < 20000; ++i)
    {
        const int n = int(random() % 3000);
        const std::string text = i % 5 == 0 ? std::string(std::size_t(n % 7), 'a') : "A" + std::to_string(n);
        const auto [place, added] = expected.emplace(text, std::uint32_t(expected.size()));
        EXPECT_EQ(ids.idOf(text), place->second) << text;
        (void)added;
    }
    ASSERT_EQ(ids.size(), expected.size());
    for (const auto& [text, id] : expected)
        EXPECT_EQ(ids.text(id), text);
}

TEST(DistinctRows, CountsEveryDistinctRowOnceWithItsCount)
{
    for (const std::uint64_t expectedRows : {std::uint64_t(0), std::uint64_t(300000)})
    {
        VbasDistinctRows rows(3, expectedRows);
        std::map<std::vector<std::uint32_t>, std::uint32_t> expected;
        std::mt19937 random(11);
        // Skewed: a few rows very often (counts in the thousands), most once or twice.
        for (int i = 0; i < 300000; ++i)
        {
            const std::uint32_t a = random() % 8 == 0 ? 0 : std::uint32_t(random() % 5000);
            const std::vector<std::uint32_t> row{a, std::uint32_t(random() % 45),
                                                 std::uint32_t(random() % 2)};
            rows.add(row.data());
            ++expected[row];
        }
        rows.finish();
        EXPECT_EQ(rows.rowsAdded(), 300000u);
        ASSERT_EQ(rows.size(), expected.size());
        std::map<std::vector<std::uint32_t>, std::uint32_t> counted;
        VbasDistinctRows::Position position;
        const std::uint32_t* ids = nullptr;
        std::uint32_t count = 0;
        while (rows.nextRow(position, ids, count))
            EXPECT_TRUE(counted.emplace(std::vector<std::uint32_t>(ids, ids + 3), count).second);
        EXPECT_EQ(counted, expected);
    }
}

TEST(DistinctRows, NoRowsGiveNoDistinctRow)
{
    VbasDistinctRows rows(2, 0);
    rows.finish();
    VbasDistinctRows::Position position;
    const std::uint32_t* ids = nullptr;
    std::uint32_t count = 0;
    EXPECT_EQ(rows.size(), 0u);
    EXPECT_FALSE(rows.nextRow(position, ids, count));
}

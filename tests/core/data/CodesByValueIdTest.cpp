// The codes of numbered values (CodesByValueId): each value number of a column computed once, columns apart,
// every time for rows a reader did not number.

#include "data/CodesByValueId.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <utility>
#include <vector>

using namespace vbas;

TEST(CodesByValueId, ComputesEachNumberOfAColumnOnce)
{
    CodesByValueId codes(2);
    int computed = 0;
    const auto counting = [&](std::uint32_t code)
    {
        return [&computed, code]
        {
            ++computed;
            return code;
        };
    };
    const std::uint32_t row1[] = {5, 5};
    const std::uint32_t row2[] = {5, 0};
    EXPECT_EQ(codes.code(row1, 0, counting(40)), 40u);
    EXPECT_EQ(codes.code(row1, 1, counting(41)), 41u) << "the same number in another column is another value";
    EXPECT_EQ(codes.code(row2, 0, counting(99)), 40u) << "found by its number, not computed again";
    EXPECT_EQ(codes.code(row2, 1, counting(42)), 42u);
    EXPECT_EQ(codes.code(row1, 1, counting(99)), 41u);
    EXPECT_EQ(computed, 3);
}

TEST(CodesByValueId, ComputesEveryTimeWithoutNumbers)
{
    CodesByValueId codes(1);
    int computed = 0;
    for (std::uint32_t i = 0; i < 3; ++i)
        EXPECT_EQ(codes.code(nullptr, 0,
                             [&]
                             {
                                 ++computed;
                                 return i;
                             }),
                  i);
    EXPECT_EQ(computed, 3);
}

TEST(CodesByValueId, GivesWhatAMapOfComputedCodesGives)
{
    // Numbers in a random order with gaps, a code 0 among them: a code is kept whatever its value.
    std::mt19937 random(9);
    CodesByValueId codes(3);
    std::map<std::pair<std::size_t, std::uint32_t>, std::uint32_t> expected;
    int computed = 0;
    for (int i = 0; i < 5000; ++i)
    {
        const std::uint32_t row[] = {std::uint32_t(random() % 300), std::uint32_t(random() % 3000),
                                     std::uint32_t(random() % 2)};
        for (std::size_t column = 0; column < 3; ++column)
        {
            const std::uint32_t fresh = std::uint32_t(random() % 1000);
            const auto key = std::make_pair(column, row[column]);
            const std::uint32_t want = expected.emplace(key, fresh).first->second;
            EXPECT_EQ(codes.code(row, column,
                                 [&]
                                 {
                                     ++computed;
                                     return fresh;
                                 }),
                      want);
        }
    }
    EXPECT_EQ(std::size_t(computed), expected.size());
}

// Identical rows counted as they stream (DistinctRows), against std::map counting the same rows: every
// distinct row once with its count, the counts summing to the rows added, whatever the partitions and the
// tables did.

#include "data/DistinctRows.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <random>
#include <vector>

using namespace vbas;

namespace
{
using Row = std::vector<std::uint32_t>;
using Counts = std::map<Row, std::uint32_t>;

/** Adds `rows` (each `width` ids) to a DistinctRows, finishes it and returns what nextRow() gives. */
Counts counted(const std::vector<Row>& rows, std::size_t width, std::uint64_t expectedRows)
{
    DistinctRows distinct(width, expectedRows);
    for (const Row& row : rows)
        distinct.add(row.data());
    distinct.finish();
    EXPECT_EQ(distinct.rowsAdded(), rows.size());
    Counts found;
    DistinctRows::Position position;
    const std::uint32_t* ids = nullptr;
    std::uint32_t count = 0;
    while (distinct.nextRow(position, ids, count))
    {
        EXPECT_GT(count, 0u);
        EXPECT_TRUE(found.emplace(Row(ids, ids + width), count).second) << "a distinct row given twice";
    }
    EXPECT_EQ(distinct.size(), found.size());
    return found;
}

/** The reference: each row's count, by brute force. */
Counts expected(const std::vector<Row>& rows)
{
    Counts counts;
    for (const Row& row : rows)
        ++counts[row];
    return counts;
}

std::uint64_t sum(const Counts& counts)
{
    std::uint64_t total = 0;
    for (const auto& entry : counts)
        total += entry.second;
    return total;
}
} // namespace

TEST(DistinctRows, CountsEveryDistinctRowOnceWithItsCount)
{
    // Skewed: a few rows very often (counts in the thousands), most once or twice.
    std::mt19937 random(11);
    std::vector<Row> rows;
    for (int i = 0; i < 300000; ++i)
    {
        const std::uint32_t a = random() % 8 == 0 ? 0 : std::uint32_t(random() % 5000);
        rows.push_back({a, std::uint32_t(random() % 45), std::uint32_t(random() % 2)});
    }
    for (const std::uint64_t expectedRows : {std::uint64_t(0), std::uint64_t(300000), std::uint64_t(10)})
    {
        const Counts found = counted(rows, 3, expectedRows);
        EXPECT_EQ(found, expected(rows));
        EXPECT_EQ(sum(found), rows.size());
    }
}

TEST(DistinctRows, TellsApartRowsOfTheSameIdsInAnotherOrder)
{
    // Permutations, ids repeated across columns, 0 and the largest id: rows a weak hash would mix up.
    const std::uint32_t top = std::numeric_limits<std::uint32_t>::max();
    const std::vector<Row> rows{{1, 2, 3},       {3, 2, 1},       {2, 1, 3}, {1, 2, 3},   {0, 0, 0},
                                {0, 0, 0},       {0, 0, 1},       {1, 0, 0}, {top, 0, 0}, {0, 0, top},
                                {top, top, top}, {top, top, top}, {3, 2, 1}};
    const Counts found = counted(rows, 3, 0);
    const Counts byHand{{{0, 0, 0}, 2}, {{0, 0, 1}, 1}, {{0, 0, top}, 1}, {{1, 0, 0}, 1},      {{1, 2, 3}, 2},
                        {{2, 1, 3}, 1}, {{3, 2, 1}, 2}, {{top, 0, 0}, 1}, {{top, top, top}, 2}};
    EXPECT_EQ(found, byHand);
    EXPECT_EQ(sum(found), rows.size());
}

TEST(DistinctRows, CountsRowsThatShareTheirSlotsInADenseTable)
{
    // Many distinct rows per partition, most of them a few times: the tables fill up to half, so rows meet
    // others in their slots and probe on; one column (the slot from one id) up to five.
    std::mt19937 random(5);
    for (const std::size_t width : {std::size_t(1), std::size_t(2), std::size_t(5)})
    {
        std::vector<Row> rows;
        for (std::uint32_t i = 0; i < 40000; ++i)
        {
            Row row(width);
            for (std::size_t c = 0; c < width; ++c)
                row[c] = std::uint32_t(random() % (c == 0 ? 20000 : 3));
            rows.push_back(row);
        }
        const Counts found = counted(rows, width, rows.size());
        EXPECT_EQ(found, expected(rows)) << "width " << width;
        EXPECT_EQ(sum(found), rows.size());
    }
}

TEST(DistinctRows, OneRowManyTimesIsOneDistinctRow)
{
    const std::vector<Row> rows(100000, Row{7, 7});
    const Counts found = counted(rows, 2, 0);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found.begin()->first, (Row{7, 7}));
    EXPECT_EQ(found.begin()->second, 100000u);
}

TEST(DistinctRows, NoRowsGiveNoDistinctRow)
{
    const Counts found = counted({}, 2, 0);
    EXPECT_TRUE(found.empty());
    DistinctRows rows(4, 1000);
    rows.finish();
    DistinctRows::Position position;
    const std::uint32_t* ids = nullptr;
    std::uint32_t count = 0;
    EXPECT_EQ(rows.size(), 0u);
    EXPECT_EQ(rows.rowsAdded(), 0u);
    EXPECT_FALSE(rows.nextRow(position, ids, count));
}

TEST(DistinctRows, ClearLeavesNoRow)
{
    DistinctRows rows(1, 0);
    const std::uint32_t id = 3;
    rows.add(&id);
    rows.finish();
    EXPECT_EQ(rows.size(), 1u);
    rows.clear();
    EXPECT_EQ(rows.size(), 0u);
    DistinctRows::Position position;
    const std::uint32_t* ids = nullptr;
    std::uint32_t count = 0;
    EXPECT_FALSE(rows.nextRow(position, ids, count));
}

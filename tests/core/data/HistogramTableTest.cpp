#include "data/HistogramTable.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace vbas;

namespace
{
using Reference = std::vector<std::map<ClassId, Count>>;

Reference referenceOf(const HistogramTable& table)
{
    Reference reference(table.size());
    for (std::size_t h = 0; h < table.size(); ++h)
        for (const ClassCount& entry : table.entries(h))
            reference[h][entry.cls] += entry.count;
    return reference;
}
} // namespace

TEST(HistogramTable, MergeGroupsEqualsBruteForceSums)
{
    std::mt19937 generator(7);
    const std::size_t regions = 200, classes = 30, groups = 17;
    std::vector<RegionIndex> rowRegion;
    std::vector<ClassId> rowClass;
    std::vector<Count> rowCount;
    for (int i = 0; i < 3000; ++i)
    {
        rowRegion.push_back(RegionIndex(generator() % regions));
        rowClass.push_back(ClassId(generator() % classes));
        rowCount.push_back(1 + generator() % 4);
    }
    Feedback feedback;
    const HistogramTable table =
        HistogramTable::fromRows(rowRegion, rowClass, rowCount.data(), regions, classes, feedback);

    // Independent sums straight from the rows.
    Reference perRegion(regions);
    for (std::size_t i = 0; i < rowRegion.size(); ++i)
        perRegion[rowRegion[i]][rowClass[i]] += rowCount[i];
    EXPECT_EQ(referenceOf(table), perRegion);

    std::vector<std::uint32_t> groupOf(regions);
    for (auto& g : groupOf)
        g = std::uint32_t(generator() % groups);
    std::vector<std::size_t> target;
    const HistogramTable merged = table.mergeGroups(groupOf, groups, classes, &target);
    Reference perGroup(groups);
    for (std::size_t i = 0; i < rowRegion.size(); ++i)
        perGroup[groupOf[rowRegion[i]]][rowClass[i]] += rowCount[i];
    EXPECT_EQ(referenceOf(merged), perGroup);

    for (std::size_t g = 0; g < groups; ++g)
    {
        Count smallest = 0;
        std::uint32_t atSmallest = 0;
        for (const auto& [cls, count] : perGroup[g])
        {
            (void)cls;
            if (smallest == 0 || count < smallest)
            {
                smallest = count;
                atSmallest = 0;
            }
            if (count == smallest)
                ++atSmallest;
        }
        EXPECT_EQ(merged.anonymity(g), smallest);
        EXPECT_EQ(merged.classesAtAnonymity(g), atSmallest);
    }
    // Every region entry points at the merged entry of its group and class.
    for (std::size_t r = 0; r < regions; ++r)
        for (std::size_t e = table.firstEntry(r); e < table.firstEntry(r + 1); ++e)
        {
            const ClassCount& into = merged.allEntries()[target[e]];
            EXPECT_EQ(into.cls, table.allEntries()[e].cls);
            EXPECT_GE(target[e], merged.firstEntry(groupOf[r]));
            EXPECT_LT(target[e], merged.firstEntry(groupOf[r] + 1));
        }
}

TEST(HistogramTable, FilterEntriesDropsAndReindexes)
{
    Feedback feedback;
    const HistogramTable table = HistogramTable::fromRows({0, 0, 0, 1}, {0, 1, 1, 1}, nullptr, 2, 2,
                                                          feedback); // r0: c0 x1, c1 x2; r1: c1 x1
    const HistogramTable filtered = table.filterEntries({false, true, true});
    EXPECT_EQ(filtered.total(0), 2u);
    EXPECT_EQ(filtered.anonymity(0), 2u);
    EXPECT_EQ(filtered.total(1), 1u);
    EXPECT_EQ(filtered.grandTotal(), 3u);
}

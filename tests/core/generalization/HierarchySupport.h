#pragma once

// Hierarchies for tests, built from group numbers rather than parsed, and the records read at a level
// straight from them: the independent recount of a generalized release.

#include "data/RecordTable.h"
#include "generalization/Hierarchy.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

namespace vbas::test
{

/** A hierarchy from the group of every code at each level (labels "g<group>", loss m-1 / M-1). */
inline Hierarchy tableHierarchy(const std::string& name,
                                const std::vector<std::vector<std::uint32_t>>& groups, std::size_t categories)
{
    std::vector<CategoryValue> values(categories);
    for (std::size_t c = 0; c < categories; ++c)
        values[c].text = "v" + std::to_string(c);
    std::vector<Hierarchy::Level> levels;
    for (std::size_t l = 0; l < groups.size(); ++l)
    {
        Hierarchy::Level level;
        level.name = std::to_string(l + 1);
        level.groupOf = groups[l];
        const std::uint32_t count = *std::max_element(groups[l].begin(), groups[l].end()) + 1;
        std::vector<double> members(count, 0.0);
        for (const std::uint32_t g : groups[l])
            members[g] += 1.0;
        for (std::uint32_t g = 0; g < count; ++g)
        {
            level.labels.push_back("g" + std::to_string(g));
            level.loss.push_back(categories > 1 ? (members[g] - 1.0) / double(categories - 1) : 0.0);
        }
        levels.push_back(std::move(level));
    }
    return Hierarchy(name, values, std::move(levels));
}

/**
 * Up to `count` random nested levels over `categories` codes: each merges random neighbouring groups of the
 * one below (a level that would merge everything is left to the "*" the hierarchy adds).
 */
template <typename Generator>
std::vector<std::vector<std::uint32_t>> randomNestedLevels(Generator& random, std::size_t categories,
                                                           int count)
{
    std::vector<std::vector<std::uint32_t>> levels;
    std::vector<std::uint32_t> groupOf(categories);
    std::iota(groupOf.begin(), groupOf.end(), 0u);
    for (int l = 0; l < count && categories > 0; ++l)
    {
        const std::uint32_t groups = *std::max_element(groupOf.begin(), groupOf.end()) + 1;
        std::vector<std::uint32_t> merge(groups);
        std::uint32_t next = 0;
        for (std::uint32_t g = 0; g < groups; ++g)
        {
            merge[g] = next;
            if (random() % 2 == 0 || g + 1 == groups)
                ++next;
        }
        for (std::uint32_t& g : groupOf)
            g = merge[g];
        if (next > 1)
            levels.push_back(groupOf);
    }
    return levels;
}

/** The codes of `table` with each generalized quasi-identifier read at its level, straight from the
 * hierarchy. */
inline RecordTable generalizedTable(RecordTable table, const Hierarchies& hierarchies,
                                    const std::vector<std::size_t>& levels)
{
    const std::size_t q = table.quasiIdentifierCount;
    for (std::size_t i = 0; i < table.codes.size(); ++i)
    {
        const std::size_t j = i % q;
        if (hierarchies[j])
            table.codes[i] = hierarchies[j]->hierarchy.group(levels[j], table.codes[i]);
    }
    return table;
}

} // namespace vbas::test

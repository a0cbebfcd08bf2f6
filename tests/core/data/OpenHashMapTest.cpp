#include "data/OpenHashMap.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>

using namespace vbas;

TEST(OpenHashMap, FollowsRandomInsertsAndErasesLikeAMap)
{
    std::mt19937_64 generator(7);
    OpenHashMap<std::uint64_t, std::uint64_t> table;
    std::map<std::uint64_t, std::uint64_t> reference;
    std::size_t mostEntries = 0;
    for (int step = 0; step < 50000; ++step)
    {
        // Keys spread wide, and keys a multiple of a large stride apart (as site * values + value are).
        const std::uint64_t key =
            step % 2 == 0 ? generator() % 2000 * 1000003ULL : generator() % (std::uint64_t(1) << 62);
        if (generator() % 3 != 0)
        {
            const std::uint64_t amount = 1 + generator() % 5;
            table.insert(key) += amount;
            reference[key] += amount;
        }
        else if (table.find(key) != nullptr)
        {
            ASSERT_EQ(reference.count(key), 1u);
            table.erase(key);
            reference.erase(key);
        }
        else
            ASSERT_EQ(reference.count(key), 0u);
        mostEntries = std::max(mostEntries, reference.size());
        if (step % 1000 == 0)
        {
            ASSERT_EQ(table.size(), reference.size());
            for (const auto& [k, v] : reference)
            {
                const std::uint64_t* found = table.find(k);
                ASSERT_NE(found, nullptr) << "key " << k;
                ASSERT_EQ(*found, v) << "key " << k;
            }
            std::map<std::uint64_t, std::uint64_t> visited;
            table.forEach([&](std::uint64_t k, std::uint64_t v) { visited.emplace(k, v); });
            ASSERT_EQ(visited, reference);
        }
    }
    // At most half full, growing by doubling: fewer than four slots per entry it ever held.
    EXPECT_LT(table.capacity(), 4 * mostEntries);
}

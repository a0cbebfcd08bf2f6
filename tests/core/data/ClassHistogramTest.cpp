#include "data/ClassHistogram.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace vbas;

TEST(ClassHistogram, FollowsRandomAddsAndRemovesLikeAMap)
{
    std::mt19937 generator(5);
    ClassHistogram histogram;
    std::map<ClassId, Count> reference;
    for (int step = 0; step < 20000; ++step)
    {
        const ClassId cls = ClassId(generator() % 300);
        const Count amount = 1 + generator() % 3;
        ClassCount entry{cls, amount};
        if (generator() % 2 == 0 || reference[cls] < amount)
        {
            histogram.add({&entry, &entry + 1});
            reference[cls] += amount;
        }
        else
        {
            histogram.remove({&entry, &entry + 1});
            reference[cls] -= amount;
        }
        if (reference[cls] == 0)
            reference.erase(cls);
        if (step % 997 == 0)
        {
            Count smallest = 0, records = 0;
            for (const auto& [c, n] : reference)
            {
                ASSERT_EQ(histogram.count(c), n);
                smallest = smallest == 0 ? n : std::min(smallest, n);
                records += n;
            }
            ASSERT_EQ(histogram.anonymity(), smallest);
            ASSERT_EQ(histogram.records(), records);
            ASSERT_EQ(histogram.classes(), reference.size());
            std::vector<ClassId> atSmallest;
            for (const auto& [c, n] : reference)
                if (n == smallest)
                    atSmallest.push_back(c);
            ASSERT_EQ(histogram.classesAt(smallest), atSmallest);
        }
    }
}

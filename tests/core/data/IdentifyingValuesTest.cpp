// The identifier guard's rule (SPEC section 10): a published field is refused when the records its values
// single out or link in small sets (held by fewer than max(k, 3) records) outnumber those it leaves in larger
// groups, its most common value left out. Both sides of the edge, and the fields the rule is for.

#include "data/IdentifyingValues.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace vbas;

namespace
{
/** `values` values held by `records` records each. */
std::vector<Count> repeated(std::size_t values, Count records)
{
    return std::vector<Count>(values, records);
}

std::vector<Count> joined(std::vector<Count> a, const std::vector<Count>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

/**
 * A diagnosis-like code: `records` records drawn from `categories` codes with Zipf weights 1/r (roughly how
 * diagnosis codes are spread: a few common ones, a long tail of rare ones). The draw is mt19937's
 * bits turned into a uniform by hand, so the counts are the same with every standard library.
 */
std::vector<Count> zipfCounts(std::size_t categories, Count records, std::uint32_t seed)
{
    std::vector<double> cumulative(categories);
    double total = 0;
    for (std::size_t r = 0; r < categories; ++r)
        cumulative[r] = total += 1.0 / double(r + 1);
    std::mt19937 generator(seed);
    std::vector<Count> counts(categories, 0);
    for (Count i = 0; i < records; ++i)
    {
        const double u = (double(generator()) + 0.5) / 4294967296.0 * total;
        const auto code =
            std::size_t(std::lower_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
        ++counts[std::min(code, categories - 1)];
    }
    return counts;
}
} // namespace

TEST(IdentifyingValues, AnIdentifierSinglesOutEveryRecord)
{
    const IdentifyingValues found = identifyingValues(repeated(1000, 1), 5);
    EXPECT_EQ(found.records, 1000u);
    EXPECT_EQ(found.smallSet, 5u);
    EXPECT_EQ(found.inSmallSets, 1000u);
    EXPECT_EQ(found.valuesHeldByOne, 1000u);
    EXPECT_EQ(found.valuesInSmallSets, 1000u);
    EXPECT_EQ(found.mostCommon, 1u);
    EXPECT_EQ(found.inLargerGroups(), 0u);
    EXPECT_TRUE(found.identifies());
}

TEST(IdentifyingValues, IdsOnJustUnderHalfTheRecordsBesideOneSharedValueIdentify)
{
    // The loophole of "more distinct values than half the records": N / 2 - 1 ids and one value (NULL, say)
    // on the rest make N / 2 distinct values, yet every id is published.
    const Count n = 114000;
    const IdentifyingValues found = identifyingValues(joined(repeated(n / 2 - 1, 1), {n / 2 + 1}), 5);
    EXPECT_EQ(found.records, n);
    EXPECT_EQ(found.inSmallSets, n / 2 - 1);
    EXPECT_EQ(found.mostCommon, n / 2 + 1);
    EXPECT_EQ(found.inLargerGroups(), 0u);
    EXPECT_TRUE(found.identifies());
}

TEST(IdentifyingValues, ValuesSharedByPairsLinkThemEvenWhereKIsTwo)
{
    for (const Count k : {Count(2), Count(5)})
    {
        const IdentifyingValues found = identifyingValues(repeated(500, 2), k);
        EXPECT_EQ(found.smallSet, std::max<Count>(k, 3)) << k;
        EXPECT_EQ(found.inSmallSets, 1000u) << k;
        EXPECT_EQ(found.valuesHeldByOne, 0u) << k;
        EXPECT_EQ(found.valuesInSmallSets, 500u) << k;
        EXPECT_EQ(found.inLargerGroups(), 0u) << "the most common value is a pair too";
        EXPECT_TRUE(found.identifies()) << k;
    }
    // Triples at k = 2 are groups of the size k-anonymity would accept: not small sets.
    EXPECT_FALSE(identifyingValues(repeated(500, 3), 2).identifies());
    EXPECT_TRUE(identifyingValues(repeated(500, 3), 4).identifies());
}

TEST(IdentifyingValues, TheEdgePassesAndOneMoreRecordInASmallSetIsRefused)
{
    // k = 5: 10 records alone, 10 in two values of 5, 10 in the most common value: S = N - S - L1 = 10.
    const std::vector<Count> edge = joined(joined(repeated(10, 1), repeated(2, 5)), {10});
    const IdentifyingValues atEdge = identifyingValues(edge, 5);
    EXPECT_EQ(atEdge.records, 30u);
    EXPECT_EQ(atEdge.inSmallSets, 10u);
    EXPECT_EQ(atEdge.mostCommon, 10u);
    EXPECT_EQ(atEdge.inLargerGroups(), 10u);
    EXPECT_FALSE(atEdge.identifies());

    const IdentifyingValues beyond = identifyingValues(joined(edge, {1}), 5);
    EXPECT_EQ(beyond.inSmallSets, 11u);
    EXPECT_EQ(beyond.inLargerGroups(), 10u);
    EXPECT_TRUE(beyond.identifies());

    // A value held by smallSet records is a larger group, one held by smallSet - 1 a small set.
    EXPECT_FALSE(identifyingValues({4, 5, 9}, 5).identifies());    // S = 4, larger groups 5
    EXPECT_TRUE(identifyingValues({4, 4, 5, 9}, 5).identifies());  // S = 8, larger groups 5
    EXPECT_FALSE(identifyingValues({5, 5, 5, 9}, 5).identifies()); // S = 0
}

TEST(IdentifyingValues, TheMostCommonValueDoesNotCountAsALargerGroup)
{
    // 40 records alone and 60 in one value: were the catch-all counted, 40 < 60 would pass.
    const IdentifyingValues found = identifyingValues(joined(repeated(40, 1), {60}), 5);
    EXPECT_EQ(found.inLargerGroups(), 0u);
    EXPECT_TRUE(found.identifies());
    // The same 40 beside 50 records in other shared values pass.
    EXPECT_FALSE(identifyingValues(joined(joined(repeated(40, 1), {60}), repeated(10, 5)), 5).identifies());
}

TEST(IdentifyingValues, ADiagnosisCodeWithALongTailOfRareCodesPasses)
{
    // 10,000 records over 1,800 codes, Zipf-distributed: most codes are rare, most records are not.
    const std::vector<Count> counts = zipfCounts(1800, 10000, 11);
    const IdentifyingValues found = identifyingValues(counts, 5);
    EXPECT_EQ(found.records, 10000u);
    const auto used = std::size_t(std::count_if(counts.begin(), counts.end(), [](Count c) { return c > 0; }));
    EXPECT_EQ(used, 1386u) << "a long tail of codes in use";
    EXPECT_EQ(found.valuesHeldByOne, 482u) << "hundreds of codes held by one record";
    EXPECT_EQ(found.valuesInSmallSets, 1086u);
    EXPECT_EQ(found.inSmallSets, 2080u);
    EXPECT_EQ(found.mostCommon, 1211u);
    EXPECT_EQ(found.inLargerGroups(), 6709u);
    EXPECT_FALSE(found.identifies());
    // Sets below k grow with k: the same codes pass up to k = 20 (S = 3978 against 4811 in larger groups),
    // not at k = 25 (4403 against 4386).
    EXPECT_FALSE(identifyingValues(counts, 20).identifies());
    EXPECT_TRUE(identifyingValues(counts, 25).identifies());
}

TEST(IdentifyingValues, AYesNoFieldAndAConstantPass)
{
    EXPECT_FALSE(identifyingValues({7000, 3000}, 5).identifies());
    EXPECT_FALSE(identifyingValues({10000}, 5).identifies());
    // A rare "maybe" in four records among thousands is no identifier.
    const IdentifyingValues found = identifyingValues({7000, 2996, 4}, 5);
    EXPECT_EQ(found.inSmallSets, 4u);
    EXPECT_FALSE(found.identifies());
}

TEST(IdentifyingValues, ValuesHeldByNoRecordAndAnEmptyFieldCountForNothing)
{
    const IdentifyingValues found = identifyingValues({0, 1, 0, 1}, 5);
    EXPECT_EQ(found.records, 2u);
    EXPECT_EQ(found.valuesHeldByOne, 2u);
    EXPECT_EQ(found.valuesInSmallSets, 2u);
    EXPECT_FALSE(identifyingValues({}, 5).identifies());
}

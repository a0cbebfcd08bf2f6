// The identifier guard's rule (SPEC section 10): a published field is refused when the records its values
// single out or link in small sets (held by fewer than max(k, 3) records) outnumber those it leaves in larger
// groups, its most common value left out. Both sides of the edge, and the fields the rule is for.

#include "data/IdentifyingValues.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <vector>

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

TEST(IdentifyingValues, TheMostCommonValueIsTheFirstInTextOrderOfThoseTied)
{
    // Values 1 and 3 tie at 6 records; value 3 comes first in text order (rank 0), value 1 after (rank 2).
    EXPECT_EQ(mostCommonValue({2, 6, 0, 6}, {1, 2, 3, 0}), 3u);
    // Ranked the other way, value 1 wins.
    EXPECT_EQ(mostCommonValue({2, 6, 0, 6}, {1, 0, 3, 2}), 1u);
    // No tie: the value most records hold, whatever its rank.
    EXPECT_EQ(mostCommonValue({9, 6, 0, 6}, {3, 0, 1, 2}), 0u);
    // A value held by no record is never the most common, even ranked first.
    EXPECT_EQ(mostCommonValue({0, 1}, {0, 1}), 1u);
    EXPECT_EQ(mostCommonValue({0, 0}, {0, 1}), 2u) << "no value held: the size";
    EXPECT_EQ(mostCommonValue({}, {}), 0u);
}

TEST(IdentifyingValues, TheMostCommonValueDoesNotDependOnTheOrderOfTheCodes)
{
    // The same values coded in every order of first appearance: the value chosen (by its text order) is the
    // same. Text order here is the value's own number t; code c holds the value t = order[c].
    const std::vector<Count> byText{3, 8, 1, 8, 8, 2}; // records per value in text order: 1, 3 and 4 tie
    std::vector<std::size_t> order{0, 1, 2, 3, 4, 5};
    do
    {
        std::vector<Count> held(order.size());
        std::vector<std::uint32_t> rank(order.size());
        for (std::size_t code = 0; code < order.size(); ++code)
        {
            held[code] = byText[order[code]];
            rank[code] = std::uint32_t(order[code]);
        }
        EXPECT_EQ(order[mostCommonValue(held, rank)], 1u);
    } while (std::next_permutation(order.begin(), order.end()));
}

TEST(IdentifyingValues, TheFirstFieldThatSinglesRecordsOutIsRefused)
{
    // Field 0: a yes/no field (passes). Field 1: an id on 10 of 16 records beside a value on 6 (identifies).
    // Field 2: an id on every record (identifies too, but comes later).
    const std::vector<Count> yesNo{10, 6};
    const std::vector<Count> idBesideShared = joined({6}, repeated(10, 1));
    const std::vector<Count> id = repeated(16, 1);
    std::vector<std::uint32_t> idRanks(11);
    for (std::uint32_t code = 0; code < 11; ++code)
        idRanks[code] = 10 - code; // the shared value (code 0) last in text order
    const std::optional<IdentifyingField> found = firstIdentifyingField(
        {yesNo, idBesideShared, id}, {{0, 1}, idRanks, std::vector<std::uint32_t>(16)}, 5);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->field, 1u);
    EXPECT_EQ(found->values.records, 16u);
    EXPECT_EQ(found->values.inSmallSets, 10u);
    EXPECT_EQ(found->values.mostCommon, 6u);
    EXPECT_EQ(found->values.inLargerGroups(), 0u);
    EXPECT_EQ(found->mostCommonValue, 0u) << "the shared value, whatever its rank";

    // Every record alone: the most common value is a tie of all, the first in text order.
    std::vector<std::uint32_t> reversed(16);
    for (std::uint32_t code = 0; code < 16; ++code)
        reversed[code] = 15 - code;
    const std::optional<IdentifyingField> ids = firstIdentifyingField({yesNo, id}, {{0, 1}, reversed}, 5);
    ASSERT_TRUE(ids.has_value());
    EXPECT_EQ(ids->field, 1u);
    EXPECT_EQ(ids->mostCommonValue, 15u);
    EXPECT_LT(ids->values.mostCommon, ids->values.smallSet) << "a message names no most common value";
}

TEST(IdentifyingValues, NoFieldIsRefusedWhenNoneSinglesRecordsOut)
{
    EXPECT_FALSE(firstIdentifyingField({}, {}, 5).has_value());
    EXPECT_FALSE(firstIdentifyingField({{10, 6}, {16}, {}}, {{0, 1}, {0}, {}}, 5).has_value());
    // Pairs identify whatever k; at k = 2 too.
    const std::optional<IdentifyingField> pairs =
        firstIdentifyingField({{10, 6}, repeated(8, 2)}, {{0, 1}, {7, 6, 5, 4, 3, 2, 1, 0}}, 2);
    ASSERT_TRUE(pairs.has_value());
    EXPECT_EQ(pairs->field, 1u);
    EXPECT_EQ(pairs->mostCommonValue, 7u);
}

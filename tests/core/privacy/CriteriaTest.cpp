// The privacy criteria besides k (SPEC section 14, issue 40): t-closeness and recursive (c, l)-diversity
// worked by hand, and a release held to them recounted by brute force from its rows.
#include "privacy/Criteria.h"
#include "Pipeline.h"
#include "TestSupport.h"
#include "privacy/LDiversity.h"
#include "privacy/TCloseness.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::qi;

namespace
{
/** A table of one field whose values 0.. hold `counts`; `ordered`: numbers in that order. */
TableValues tableOf(const std::vector<Count>& counts, bool ordered)
{
    TableValues table;
    table.counts = {counts};
    for (const Count count : counts)
        table.records += count;
    if (ordered)
    {
        table.order.emplace_back();
        for (std::uint32_t v = 0; v < counts.size(); ++v)
            table.order.back().push_back(v);
    }
    else
        table.order.emplace_back();
    return table;
}

GroupValues groupOf(const std::vector<std::pair<std::uint32_t, Count>>& values)
{
    GroupValues group;
    group.fields = {values};
    for (const auto& [value, count] : values)
        group.records += count;
    return group;
}
} // namespace

// Categories a, b, c hold 5, 3, 2 of the table's 10 records; the group holds a twice and c twice: p = (.5, 0,
// .5), q = (.5, .3, .2), half the L1 distance = (0 + .3 + .3) / 2 = 0.3. In order (numbers 1, 2, 3), the
// cumulated differences are 0, -.3, 0: (0 + .3 + 0) / (3 - 1) = 0.15.
TEST(TCloseness, DistancesWorkedByHand)
{
    const GroupValues group = groupOf({{0, 2}, {2, 2}});
    EXPECT_NEAR(TCloseness::distance(group, tableOf({5, 3, 2}, false), 0), 0.3, 1e-12);
    EXPECT_NEAR(TCloseness::distance(group, tableOf({5, 3, 2}, true), 0), 0.15, 1e-12);
    // Everyone at the largest of five equally common numbers: cumulated -.2, -.4, -.6, -.8, 0: 2 / 4.
    EXPECT_NEAR(TCloseness::distance(groupOf({{4, 3}}), tableOf({2, 2, 2, 2, 2}, true), 0), 0.5, 1e-12);
    EXPECT_FALSE(TCloseness(0.25).passes(group, tableOf({5, 3, 2}, false)));
    EXPECT_TRUE(TCloseness(0.3).passes(group, tableOf({5, 3, 2}, false)));
    EXPECT_TRUE(TCloseness(0.15).passes(group, tableOf({5, 3, 2}, true)));
    EXPECT_FALSE(TCloseness(0.14).passes(group, tableOf({5, 3, 2}, true)));
}

// Counts 6, 3, 2, 1 in descending order. (3, 2): 6 < 3 (3 + 2 + 1) = 18. (3, 3): 6 < 3 (2 + 1) = 9. (1.5, 3):
// 6 < 4.5 fails. l = 5 needs five values: fails.
TEST(LDiversity, RecursiveWorkedByHand)
{
    const GroupValues group = groupOf({{0, 1}, {1, 6}, {2, 2}, {3, 3}});
    const TableValues table = tableOf({1, 6, 2, 3}, false);
    const auto recursive = [&](double c, Count l)
    {
        return LDiversity({l, DiversityRule::Measure::Recursive, c}).passes(group, table);
    };
    EXPECT_TRUE(recursive(3, 2));
    EXPECT_TRUE(recursive(3, 3));
    EXPECT_FALSE(recursive(1.5, 3));
    EXPECT_FALSE(recursive(3, 5));
}

// The registry makes the criteria the options turn on, and nothing else.
TEST(Criteria, TheOptionsTurnThemOn)
{
    StrategyOptions options;
    EXPECT_TRUE(Criteria::fromOptions(Registry::builtIn(), options).empty());
    options.set("l", 2).set("t", 0.2);
    const Criteria both = Criteria::fromOptions(Registry::builtIn(), options);
    EXPECT_EQ(both.describe(), "distinct 2-diversity and 0.2-closeness");
    EXPECT_FALSE(both.monotone());
    EXPECT_THROW(Criteria::fromOptions(Registry::builtIn(), StrategyOptions().set("t", 1.5)), Error);
}

// A release held to 0.2-closeness on a 3-valued sensitive field, one region: class 0 holds values like the
// table's, class 1 holds only value 2. Every released group is recounted from the rows: its distance from the
// released table's distribution is at most 0.2.
TEST(TCloseness, AReleaseWithholdsTheGroupsTooFarFromTheTable)
{
    DatasetBuilder builder({qi("age")});
    builder.sensitiveFields(1).region("A", 0, 0);
    builder.records("A", {0}, 5, {0}).records("A", {0}, 3, {1}).records("A", {0}, 2, {2});
    builder.records("A", {1}, 5, {0}).records("A", {1}, 3, {1}).records("A", {1}, 2, {2});
    builder.records("A", {2}, 5, {2});
    const Dataset dataset = builder.build();
    PipelineConfig config;
    config.k = 2;
    config.globalSuppression = false;
    config.options.set("t", 0.2);
    const Pipeline pipeline(config);
    Feedback feedback;
    const PipelineResult result = pipeline.rateGroups(pipeline.prepare(dataset, feedback), {0}, 1, feedback);
    // All released: table (10, 6, 9) / 25; class 2 (0, 0, 5) / 5: distance (.4 + .24 + .64) / 2 = 0.64 > 0.2.
    // Withheld, the table is (10, 6, 4) / 20 and classes 0 and 1 match it exactly.
    EXPECT_EQ(result.suppression.diversitySuppressed, 5u);
    EXPECT_EQ(result.suppression.released, 20u);
    EXPECT_EQ(result.criteria, "0.2-closeness");
    const std::vector<RecordFate> fates = recordFates(dataset, result);
    std::map<std::uint32_t, std::map<std::uint32_t, Count>> released; // class -> value -> records
    std::map<std::uint32_t, Count> table;
    Count total = 0;
    for (std::size_t row = 0; row < dataset.rows(); ++row)
        if (fates[row] == RecordFate::Released)
        {
            ++released[builder.table().codes[row]][dataset.rowSensitive(row, 0)];
            ++table[dataset.rowSensitive(row, 0)];
            ++total;
        }
    for (const auto& [cls, values] : released)
    {
        Count records = 0;
        for (const auto& [value, count] : values)
            records += count;
        double l1 = 0;
        for (std::uint32_t value = 0; value < 3; ++value)
        {
            const double p = values.count(value) ? double(values.at(value)) / double(records) : 0.0;
            const double q = table.count(value) ? double(table.at(value)) / double(total) : 0.0;
            l1 += std::abs(p - q);
        }
        EXPECT_LE(l1 / 2, 0.2 + 1e-12) << "class " << cls;
    }
}

// l-diversity of the released groups (SPEC section 10) on hand-worked cases.
#include "Pipeline.h"
#include "PropertyCheck.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::qi;

namespace
{
constexpr std::uint32_t a = 0, b = 1, c = 2;
constexpr DiversityRule::Measure distinct = DiversityRule::Measure::Distinct;
constexpr DiversityRule::Measure entropy = DiversityRule::Measure::Entropy;

/** Rates `dataset` with the given aggregates, k and l-diversity rule, without global suppression. */
PipelineResult rate(const Dataset& dataset, Count k, DiversityRule rule,
                    const std::vector<std::uint32_t>& regionGroup, std::size_t groups)
{
    PipelineConfig config;
    config.k = k;
    config.globalSuppression = false;
    test::withDiversity(config.options, rule);
    const Pipeline pipeline(config);
    Feedback feedback;
    return pipeline.rateGroups(pipeline.prepare(dataset, feedback), regionGroup, groups, feedback);
}

/**
 * One region, k = 2. Class 0 holds sensitive values {a, a, a, b}: 2 distinct, entropy
 * -(3/4 ln 3/4 + 1/4 ln 1/4) = 0.562 < ln 2 = 0.693. Class 1 holds {a, a, b, b}: entropy exactly
 * ln 2. Class 2 holds one record, below k.
 */
DatasetBuilder handWorked()
{
    DatasetBuilder builder({qi("q")});
    builder.sensitiveFields(1).region("A", 0, 0);
    builder.records("A", {0}, 3, {a}).records("A", {0}, 1, {b});
    builder.records("A", {1}, 2, {a}).records("A", {1}, 2, {b});
    builder.records("A", {2}, 1, {a});
    return builder;
}

using F = RecordFate;
} // namespace

TEST(Diversity, DistinctTwoReleasesBothMixedGroups)
{
    const DatasetBuilder builder = handWorked();
    const Dataset dataset = builder.build();
    const PipelineResult result = rate(dataset, 2, {2, distinct}, {0}, 1);
    EXPECT_EQ(result.suppression.released, 8u);
    EXPECT_EQ(result.suppression.locallySuppressed, 1u);
    EXPECT_EQ(result.suppression.diversitySuppressed, 0u);
    EXPECT_EQ(recordFates(dataset, result),
              (std::vector<F>{F::Released, F::Released, F::Released, F::Released, F::Released, F::Released,
                              F::Released, F::Released, F::SuppressedLocally}));
    ASSERT_NO_FATAL_FAILURE(vbas::test::expectGuarantee(builder.table(), dataset, result, 2, {2, distinct}));
}

TEST(Diversity, EntropyTwoWithholdsTheSkewedGroupOnly)
{
    const DatasetBuilder builder = handWorked();
    const Dataset dataset = builder.build();
    const PipelineResult result = rate(dataset, 2, {2, entropy}, {0}, 1);
    const SuppressionOutcome& suppression = result.suppression;
    EXPECT_EQ(suppression.released, 4u);
    EXPECT_EQ(suppression.locallySuppressed, 1u);
    EXPECT_EQ(suppression.diversitySuppressed, 4u);
    EXPECT_EQ(suppression.released + suppression.suppressed(), suppression.inputRecords);
    EXPECT_EQ(suppression.aggregateEntryDiversityFailed, (std::vector<bool>{true, false, false}));
    EXPECT_EQ(suppression.aggregateEntrySuppressed, (std::vector<bool>{true, false, true}));
    EXPECT_EQ(suppression.aggregateSuppressed, (std::vector<Count>{5}));
    EXPECT_EQ(suppression.aggregateDiversitySuppressed, (std::vector<Count>{4}));
    EXPECT_EQ(suppression.aggregateAnonymityAfter, (std::vector<Count>{4}));
    EXPECT_EQ(suppression.aggregateReleasedClasses, (std::vector<std::uint32_t>{1}));
    EXPECT_EQ(suppression.regionReleased, (std::vector<Count>{4}));
    EXPECT_EQ(recordFates(dataset, result),
              (std::vector<F>{F::SuppressedDiversity, F::SuppressedDiversity, F::SuppressedDiversity,
                              F::SuppressedDiversity, F::Released, F::Released, F::Released, F::Released,
                              F::SuppressedLocally}));
    EXPECT_EQ(result.metric("quality.suppressed_local"), 1.0);
    EXPECT_EQ(result.metric("quality.suppressed_diversity"), 4.0);
    EXPECT_EQ(result.metric("quality.suppressed"), 5.0);
    EXPECT_EQ(result.metric("quality.discernibility"), 16.0);
    EXPECT_EQ(result.metric("quality.discernibility_penalized"), 16.0 + 9.0 * 5.0);
    EXPECT_EQ(result.metric("quality.global_anonymity_after"), 4.0);
    ASSERT_EQ(result.aggregates.size(), 1u);
    EXPECT_EQ(result.aggregates[0].recordsReleased, 4u);
    EXPECT_EQ(result.aggregates[0].recordsSuppressed, 5u);
    ASSERT_NO_FATAL_FAILURE(vbas::test::expectGuarantee(builder.table(), dataset, result, 2, {2, entropy}));
}

TEST(Diversity, DistinctThreeWithholdsEveryGroup)
{
    const DatasetBuilder builder = handWorked();
    const Dataset dataset = builder.build();
    const PipelineResult result = rate(dataset, 2, {3, distinct}, {0}, 1);
    EXPECT_EQ(result.suppression.released, 0u);
    EXPECT_EQ(result.suppression.diversitySuppressed, 8u);
    EXPECT_EQ(result.suppression.aggregateAnonymityAfter, (std::vector<Count>{0}));
    EXPECT_EQ(result.suppression.aggregateReleasedClasses, (std::vector<std::uint32_t>{0}));
    ASSERT_NO_FATAL_FAILURE(vbas::test::expectGuarantee(builder.table(), dataset, result, 2, {3, distinct}));
}

TEST(Diversity, PreAggregatedCountsWeighTheValuesAcrossTheAggregate)
{
    // Class 0 in A: 3 x a, 1 x b (entropy 0.562). Class 1: 2 x a in A and 2 x b in B (entropy ln 2
    // only when A and B are one aggregate). Class 2 in B: 5 x a, 5 x b, 5 x c (entropy exactly ln 3).
    DatasetBuilder builder({qi("q")});
    builder.weighted().sensitiveFields(1).region("A", 0, 0).region("B", 10, 0);
    builder.records("A", {0}, 3, {a}).records("A", {0}, 1, {b});
    builder.records("A", {1}, 2, {a}).records("B", {1}, 2, {b});
    builder.records("B", {2}, 5, {a}).records("B", {2}, 5, {b}).records("B", {2}, 5, {c});
    const Dataset dataset = builder.build();

    const PipelineResult together = rate(dataset, 2, {2, entropy}, {0, 0}, 1);
    EXPECT_EQ(together.suppression.diversitySuppressed, 4u);
    EXPECT_EQ(together.suppression.released, 19u);
    EXPECT_EQ(together.suppression.regionReleased, (std::vector<Count>{2, 17}));
    ASSERT_NO_FATAL_FAILURE(vbas::test::expectGuarantee(builder.table(), dataset, together, 2, {2, entropy}));

    // Apart, class 1 shows one value in each aggregate.
    const PipelineResult apart = rate(dataset, 2, {2, distinct}, {0, 1}, 2);
    EXPECT_EQ(apart.suppression.diversitySuppressed, 4u);
    EXPECT_EQ(apart.suppression.aggregateDiversitySuppressed, (std::vector<Count>{2, 2}));
    EXPECT_EQ(recordFates(dataset, apart),
              (std::vector<F>{F::Released, F::Released, F::SuppressedDiversity, F::SuppressedDiversity,
                              F::Released, F::Released, F::Released}));
    ASSERT_NO_FATAL_FAILURE(vbas::test::expectGuarantee(builder.table(), dataset, apart, 2, {2, distinct}));

    const PipelineResult three = rate(dataset, 2, {3, entropy}, {0, 0}, 1);
    EXPECT_EQ(three.suppression.released, 15u);
    EXPECT_EQ(three.suppression.diversitySuppressed, 8u);
    ASSERT_NO_FATAL_FAILURE(vbas::test::expectGuarantee(builder.table(), dataset, three, 2, {3, entropy}));
}

TEST(Diversity, EverySensitiveFieldMustBeDiverse)
{
    // Class 0 varies in the first field only; class 1 in both.
    DatasetBuilder builder({qi("q")});
    builder.sensitiveFields(2).region("A", 0, 0);
    builder.records("A", {0}, 1, {a, c}).records("A", {0}, 1, {b, c});
    builder.records("A", {1}, 1, {a, a}).records("A", {1}, 1, {b, b});
    const Dataset dataset = builder.build();
    const PipelineResult result = rate(dataset, 2, {2, distinct}, {0}, 1);
    EXPECT_EQ(recordFates(dataset, result),
              (std::vector<F>{F::SuppressedDiversity, F::SuppressedDiversity, F::Released, F::Released}));
    ASSERT_NO_FATAL_FAILURE(vbas::test::expectGuarantee(builder.table(), dataset, result, 2, {2, distinct}));
}

TEST(Diversity, OffWhenLIsZeroOrOne)
{
    const DatasetBuilder builder = handWorked();
    const Dataset dataset = builder.build();
    for (Count l : {Count(0), Count(1)})
        for (DiversityRule::Measure measure : {distinct, entropy})
        {
            const PipelineResult result = rate(dataset, 2, {l, measure}, {0}, 1);
            EXPECT_EQ(result.suppression.diversitySuppressed, 0u);
            EXPECT_EQ(result.suppression.released, 8u);
            EXPECT_EQ(result.suppression.aggregateEntryDiversityFailed,
                      (std::vector<bool>{false, false, false}));
        }
}

TEST(Diversity, LWithoutSensitiveFieldsIsAnError)
{
    DatasetBuilder builder({qi("q")});
    builder.region("A", 0, 0).records("A", {0}, 4);
    const Dataset dataset = builder.build();
    PipelineConfig config;
    config.k = 2;
    config.options.set("l", 2);
    Feedback feedback;
    try
    {
        Pipeline(config).prepare(dataset, feedback);
        ADD_FAILURE() << "l = 2 accepted without sensitive fields";
    }
    catch (const Error& error)
    {
        EXPECT_EQ(error.subject(), Subject::Sensitive);
        EXPECT_NE(std::string(error.what()).find("sensitive field"), std::string::npos);
    }
    config.options.set("l", 1);
    try
    {
        Pipeline{config};
        ADD_FAILURE() << "l = 1 accepted";
    }
    catch (const Error& error)
    {
        EXPECT_NE(std::string(error.what()).find("one value is no diversity"), std::string::npos);
    }
    config.options.set("l", 0.0);
    EXPECT_NO_THROW(Pipeline(config).prepare(dataset, feedback));
}

TEST(Diversity, CountLogCountSumKeptUpToDateEqualsTheSumCountedAfresh)
{
    std::mt19937_64 generator(3);
    std::vector<Count> counts(2000);
    for (Count& count : counts)
        count = 1 + generator() % (generator() % 4 == 0 ? 100000 : 5);
    // Counted afresh, and independently in long double.
    CountLogCountSum fresh;
    long double reference = 0;
    for (const Count count : counts)
    {
        fresh.add(count);
        reference += count * std::log(static_cast<long double>(count));
    }
    EXPECT_NEAR(fresh.value(), double(reference), 1e-12 * double(reference));
    // Kept up to date: values come, change in steps and go in another order, some of them twice.
    CountLogCountSum kept;
    std::vector<Count> now(counts.size(), 0);
    for (int step = 0; step < 20000; ++step)
    {
        const std::size_t value = generator() % counts.size();
        const Count next = step < 15000 ? Count(generator() % 7) : counts[value];
        kept.change(now[value], next);
        now[value] = next;
    }
    for (std::size_t value = 0; value < counts.size(); ++value)
        kept.change(now[value], counts[value]);
    EXPECT_EQ(kept.value(), fresh.value());
    for (const Count count : counts)
        kept.change(count, 0);
    EXPECT_EQ(kept.value(), 0.0);
}

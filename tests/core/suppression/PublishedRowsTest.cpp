// The published rows of a count table held to k (SPEC section 10) on a hand-worked case.
#include "Pipeline.h"
#include "PropertyCheck.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::qi;

namespace
{
constexpr std::uint32_t female = 0, male = 1;
constexpr std::uint32_t red = 0, blue = 1, green = 2;
using F = RecordFate;

/**
 * One region, k = 5, a count table: F red 3 + 3, F blue 2, F green 5, M red 5, M blue 1 + 1, colour published
 * beside sex (its key, and its sensitive code for l-diversity). The groups hold 13 and 7 records; the rows F
 * blue (2) and M blue (2) are below k.
 */
struct Colours
{
    RecordTable table;
    Dataset dataset;

    Colours()
        : table(
              []
              {
                  DatasetBuilder builder({qi("sex")});
                  builder.weighted().sensitiveFields(1).region("A", 0, 0);
                  builder.records("A", {female}, 3, {red}).records("A", {female}, 3, {red});
                  builder.records("A", {female}, 2, {blue}).records("A", {female}, 5, {green});
                  builder.records("A", {male}, 5, {red}).records("A", {male}, 1, {blue});
                  builder.records("A", {male}, 1, {blue});
                  RecordTable records = builder.table();
                  records.publishedRowKeys = records.sensitiveCodes;
                  return records;
              }())
        , dataset(
              [this]
              {
                  Feedback feedback;
                  return Dataset::build({{"A", {0, 0}}}, Schema({qi("sex")}), table, {}, feedback);
              }())
    {
    }

    PipelineResult rate(DiversityRule rule = {}) const
    {
        PipelineConfig config;
        config.k = 5;
        config.globalSuppression = false;
        test::withDiversity(config.options, rule);
        const Pipeline pipeline(config);
        Feedback feedback;
        return pipeline.rateGroups(pipeline.prepare(dataset, feedback), {0}, 1, feedback);
    }
};
} // namespace

TEST(PublishedRows, ACountRowBelowKIsWithheldFromItsReleasedGroup)
{
    const Colours input;
    const PipelineResult result = input.rate();
    const SuppressionOutcome& suppression = result.suppression;
    EXPECT_EQ(suppression.released, 16u);
    EXPECT_EQ(suppression.smallRowSuppressed, 4u);
    EXPECT_EQ(suppression.locallySuppressed, 0u);
    EXPECT_EQ(suppression.released + suppression.suppressed(), suppression.inputRecords);
    EXPECT_EQ(recordFates(input.dataset, result),
              (std::vector<F>{F::Released, F::Released, F::SuppressedSmallRow, F::Released, F::Released,
                              F::SuppressedSmallRow, F::SuppressedSmallRow}));
    EXPECT_EQ(suppression.aggregateEntryReleased, (std::vector<Count>{11, 5}));
    EXPECT_EQ(suppression.aggregateSmallRowSuppressed, (std::vector<Count>{4}));
    EXPECT_EQ(suppression.aggregateAnonymityAfter, (std::vector<Count>{5}));
    EXPECT_EQ(suppression.regionReleased, (std::vector<Count>{16}));
    ASSERT_NO_FATAL_FAILURE(vbas::test::expectGuarantee(input.table, input.dataset, result, 5));
}

TEST(PublishedRows, LDiversityIsJudgedWithoutTheWithheldRows)
{
    // With l = 2 over colour, M keeps red alone once its blue row is withheld: the group goes for
    // l-diversity.
    const Colours input;
    const DiversityRule rule{2, DiversityRule::Measure::Distinct};
    const PipelineResult result = input.rate(rule);
    EXPECT_EQ(result.suppression.released, 11u);
    EXPECT_EQ(result.suppression.smallRowSuppressed, 2u);
    EXPECT_EQ(result.suppression.diversitySuppressed, 7u);
    EXPECT_EQ(recordFates(input.dataset, result),
              (std::vector<F>{F::Released, F::Released, F::SuppressedSmallRow, F::Released,
                              F::SuppressedDiversity, F::SuppressedDiversity, F::SuppressedDiversity}));
    ASSERT_NO_FATAL_FAILURE(vbas::test::expectGuarantee(input.table, input.dataset, result, 5, rule));
}

TEST(PublishedRows, RecordsPublishedOneEachHaveNoCountRows)
{
    // Without keys every record is a row of its own: nothing more is withheld than the groups below k.
    Colours input;
    input.table.publishedRowKeys.clear();
    Feedback feedback;
    input.dataset = Dataset::build({{"A", {0, 0}}}, Schema({qi("sex")}), input.table, {}, feedback);
    const PipelineResult result = input.rate();
    EXPECT_EQ(result.suppression.released, 20u);
    EXPECT_TRUE(result.suppression.rowInSmallPublishedRow.empty());
}

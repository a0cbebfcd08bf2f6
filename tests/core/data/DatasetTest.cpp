#include "TestSupport.h"
#include "data/Schema.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::qi;

namespace
{
/** Runs `build` and returns the Error it throws (fails the test when it throws nothing). */
template <typename F> Error expectError(F build)
{
    try
    {
        build();
    }
    catch (const Error& error)
    {
        return error;
    }
    ADD_FAILURE() << "no vbas::Error thrown";
    return Error(Subject::General, "");
}
} // namespace

TEST(Schema, MaxCombsOfAllQuasiIdentifiersButMaritalStatus)
{
    // Thesis Table 6 (L1282-1290): age 22, gender 2, education 15, ethnicity 53, religion 16, income 21.
    const Schema schema({qi("age", 22), qi("gender", 2), qi("education", 15), qi("ethnicity", 53),
                         qi("religion", 16), qi("income", 21)});
    EXPECT_EQ(schema.maxCombs(), 11753280.0L);
}

TEST(Dataset, BuildsPerRegionHistograms)
{
    DatasetBuilder builder({qi("sex"), qi("age")});
    builder.region("A", 0, 0).region("B", 1, 0).region("C", 2, 0);
    builder.records("A", {0, 1}, 3).records("A", {1, 1}, 1).records("B", {0, 1}, 2).records("A", {0, 1}, 1);
    const Dataset dataset = builder.build();
    EXPECT_EQ(dataset.totalRecords(), 7u);
    EXPECT_EQ(dataset.schema().categories(0), 2u);
    EXPECT_EQ(dataset.schema().categories(1), 2u); // observed: largest code + 1
    const HistogramTable& h = dataset.regionHistograms();
    ASSERT_EQ(h.size(), 3u);
    // Classes in key order: (0,1) -> 0, (1,1) -> 1.
    ASSERT_EQ(h.entries(0).size(), 2u);
    EXPECT_EQ(h.entries(0).begin()[0].count, 4u);
    EXPECT_EQ(h.entries(0).begin()[1].count, 1u);
    EXPECT_EQ(h.anonymity(0), 1u);
    EXPECT_EQ(h.total(1), 2u);
    EXPECT_EQ(h.anonymity(2), 0u); // region without records
    EXPECT_EQ(h.total(2), 0u);
}

TEST(Dataset, WeightedRowsCountTheirWeight)
{
    DatasetBuilder builder({qi("sex")});
    builder.weighted().region("A", 0, 0).records("A", {0}, 20000).records("A", {1}, 3);
    const Dataset dataset = builder.build();
    EXPECT_EQ(dataset.totalRecords(), 20003u);
    EXPECT_EQ(dataset.regionHistograms().anonymity(0), 3u);
}

TEST(Dataset, DuplicateRegionIdsAreAnError)
{
    DatasetBuilder builder({qi("sex")});
    builder.region("A", 0, 0).region("B", 1, 0).region("A", 2, 0).records("A", {0});
    const Error error = expectError([&] { builder.build(); });
    EXPECT_EQ(error.subject(), Subject::Regions);
    EXPECT_NE(std::string(error.what()).find("'A'"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("unique"), std::string::npos);
}

TEST(Dataset, UnknownRegionsFailByDefault)
{
    DatasetBuilder builder({qi("sex")});
    builder.region("A", 0, 0).records("A", {0}).records("A1B 2C3", {1}, 12);
    const Error error = expectError([&] { builder.build(); });
    EXPECT_EQ(error.subject(), Subject::RecordRegion);
    EXPECT_NE(std::string(error.what()).find("12 record(s)"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("'A1B 2C3'"), std::string::npos);
}

TEST(Dataset, UnknownRegionsCanBeDroppedWithACount)
{
    DatasetBuilder builder({qi("sex")});
    builder.region("A", 0, 0).records("A", {0}, 2).records("X", {1}, 5);
    const Dataset dataset = builder.build({UnknownRegionPolicy::Drop, 1.0});
    EXPECT_EQ(dataset.totalRecords(), 2u);
    EXPECT_EQ(dataset.droppedRows(), 5u);
    EXPECT_EQ(dataset.droppedRecords(), 5u);
    EXPECT_EQ(dataset.rowRegion(2), kNoRegion);
    EXPECT_EQ(dataset.classes().size(), 1u); // the dropped class does not exist
}

TEST(Dataset, DroppingMoreThanTheAllowedShareOfRecordsIsAnError)
{
    // 2 of 200 records (1 %) name an unknown region: dropped with a 1 % allowance, refused with 0.5 %, and
    // the share counts records, not rows.
    DatasetBuilder builder({qi("sex")});
    builder.weighted().region("A", 0, 0).records("A", {0}, 198).records("X", {1}, 2);
    EXPECT_EQ(builder.build({UnknownRegionPolicy::Drop, 0.01}).droppedRecords(), 2u);
    const Error error = expectError([&] { builder.build({UnknownRegionPolicy::Drop, 0.005}); });
    EXPECT_EQ(error.subject(), Subject::RecordRegion);
    EXPECT_NE(std::string(error.what()).find("2 record(s) in 1 row(s)"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("1 % of the records: more than the 0.5 % that may be dropped"),
              std::string::npos)
        << error.what();
}

TEST(Dataset, NonPositiveCountsAreAnError)
{
    DatasetBuilder builder({qi("sex")});
    builder.weighted().region("A", 0, 0).records("A", {0}, 4).records("A", {1}, 0).records("A", {1}, -2);
    const Error error = expectError([&] { builder.build(); });
    EXPECT_EQ(error.subject(), Subject::RecordCount);
    EXPECT_NE(std::string(error.what()).find("2 record(s)"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("row 2"), std::string::npos);
}

TEST(Dataset, DeclaredCategoriesMustCoverTheValues)
{
    DatasetBuilder builder({qi("age", 3)});
    builder.region("A", 0, 0).records("A", {0}).records("A", {4});
    const Error error = expectError([&] { builder.build(); });
    EXPECT_EQ(error.subject(), Subject::QuasiIdentifier);
    EXPECT_NE(std::string(error.what()).find("'age'"), std::string::npos);
}

TEST(Dataset, DeclaredCategoriesAboveTheObservedOnesAreKept)
{
    DatasetBuilder builder({qi("age", 22), qi("sex")});
    builder.region("A", 0, 0).records("A", {0, 0}).records("A", {3, 1});
    EXPECT_EQ(builder.build().schema().maxCombs(), 44.0L);
}

TEST(Dataset, EmptyInputsAreErrors)
{
    DatasetBuilder noRegions({qi("sex")});
    noRegions.records("A", {0});
    EXPECT_EQ(expectError([&] { noRegions.build(); }).subject(), Subject::Regions);
    DatasetBuilder noRecords({qi("sex")});
    noRecords.region("A", 0, 0);
    EXPECT_EQ(expectError([&] { noRecords.build(); }).subject(), Subject::Records);
}

TEST(Dataset, RegionWithoutPointIsAnError)
{
    DatasetBuilder builder({qi("sex")});
    builder.region("A", std::nan(""), 0).records("A", {0});
    EXPECT_EQ(expectError([&] { builder.build(); }).subject(), Subject::Regions);
}

TEST(Dataset, KeepsTheSensitiveCodesOfEveryRow)
{
    DatasetBuilder builder({qi("q")});
    builder.sensitiveFields(2).region("A", 0, 0).records("A", {0}, 1, {7, 3}).records("A", {1}, 1, {8, 4});
    const Dataset dataset = builder.build();
    ASSERT_EQ(dataset.sensitiveCount(), 2u);
    EXPECT_EQ(dataset.rowSensitive(0, 0), 7u);
    EXPECT_EQ(dataset.rowSensitive(0, 1), 3u);
    EXPECT_EQ(dataset.rowSensitive(1, 0), 8u);
    EXPECT_EQ(dataset.rowSensitive(1, 1), 4u);
}

TEST(Dataset, SensitiveCodesMustFillEveryRow)
{
    DatasetBuilder builder({qi("q")});
    builder.sensitiveFields(2).region("A", 0, 0).records("A", {0}, 1, {7, 3}).records("A", {1}, 1, {8});
    EXPECT_EQ(expectError([&] { builder.build(); }).subject(), Subject::Sensitive);
    DatasetBuilder undeclared({qi("q")});
    undeclared.region("A", 0, 0).records("A", {0}, 1, {7});
    EXPECT_EQ(expectError([&] { undeclared.build(); }).subject(), Subject::Sensitive);
}

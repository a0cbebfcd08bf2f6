// Published columns judged together with the region and the quasi-identifiers (SPEC section 14, issue 39),
// on cases worked by hand and on fields that copy or scramble the small area.
#include "privacy/PublishedColumns.h"

#include "Pipeline.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <random>

using namespace vbas;

namespace
{
/** Rows of one region with their small areas, one class, and one field of the given codes. */
PublishedRows oneRegion(const std::vector<std::uint32_t>& areas, const std::vector<std::uint32_t>& codes)
{
    PublishedRows rows;
    rows.region.assign(areas.size(), 0);
    rows.cls.assign(areas.size(), 0);
    rows.smallArea = areas;
    rows.fields = {codes};
    return rows;
}

ColumnFigures judgeOne(const PublishedRows& rows, Count k, bool sensitive = false)
{
    Feedback feedback;
    return judgePublishedColumns(rows, {{"f", sensitive}}, k, feedback).at(0);
}
} // namespace

// Small area 0 holds 3 rows (values x, x, y), area 1 one row (y). The region's largest area places 3 of 4.
// Leaving one row out: each x names area 0 from the other x (placed); the two y rows name the other's area
// (not placed). Placed 2: (2 - 3) / (4 - 3) = -1, worse than the region alone.
TEST(PublishedColumns, PlacementWorkedByHand)
{
    const ColumnFigures figures = judgeOne(oneRegion({0, 0, 0, 1}, {0, 0, 1, 1}), 2);
    EXPECT_DOUBLE_EQ(figures.placement, -1.0);
    // Groups of the value: x holds 2 rows, y 2 rows: none below k = 2, none unique; below k = 3: all.
    EXPECT_DOUBLE_EQ(figures.shareBelowK, 0.0);
    EXPECT_DOUBLE_EQ(figures.shareUnique, 0.0);
    EXPECT_DOUBLE_EQ(judgeOne(oneRegion({0, 0, 0, 1}, {0, 0, 1, 1}), 3).shareBelowK, 1.0);
}

// Ties are shared: area 0 and area 1 hold 2 rows each of value x, area 2 one. Leaving a row of area 0 out,
// area 1 leads with 2 against 1: not placed; the row of area 2 is not placed either. The region's largest
// areas (0 and 1, tied) place 2 of 5. Placed 0: (0 - 2) / (5 - 2).
TEST(PublishedColumns, PlacementSharesTies)
{
    const ColumnFigures figures = judgeOne(oneRegion({0, 0, 1, 1, 2}, {0, 0, 0, 0, 0}), 2);
    EXPECT_DOUBLE_EQ(figures.placement, -2.0 / 3.0);
}

// A copy of the small-area code (or the code + 1, or its hash: any one-to-one recoding) places every row of
// a small area of two or more rows: placement 1; a field drawn independently of the area places none beyond
// the region.
TEST(PublishedColumns, ACopyOfTheSmallAreaPlacesEveryRowAnIndependentFieldNone)
{
    std::mt19937 random(39);
    PublishedRows rows;
    std::vector<std::uint32_t> copy, independent;
    for (std::uint32_t area = 0; area < 60; ++area)
        for (int r = 0; r < 8 + int(random() % 20); ++r)
        {
            rows.region.push_back(area / 6);
            rows.smallArea.push_back(area);
            rows.cls.push_back(std::uint32_t(random() % 3));
            copy.push_back(area * 7919 + 1);
            independent.push_back(std::uint32_t(random() % 4));
        }
    rows.fields = {copy, independent};
    Feedback feedback;
    const std::vector<ColumnFigures> figures =
        judgePublishedColumns(rows, {{"area_copy", false}, {"insured", true}}, 5, feedback);
    ASSERT_EQ(figures.size(), 3u); // two fields and their pair
    EXPECT_DOUBLE_EQ(figures[0].placement, 1.0);
    EXPECT_TRUE(figures[0].refused());
    EXPECT_LT(figures[1].placement, kMaxPlacement);
    EXPECT_FALSE(figures[1].refused()) << "a sensitive field is judged on placement only";
    EXPECT_FALSE(figures[1].judgedOnGroups);
    // Split by the other field, a few rows are alone with their value in their region: placed by the region's
    // largest small area only.
    EXPECT_GT(figures[2].placement, 0.9) << "a pair holding the copy places the rows too";
    EXPECT_TRUE(figures[2].refused());
    EXPECT_NE(refusalText(figures[0], {{"area_copy", false}, {"insured", true}}, 5).find("'area_copy'"),
              std::string::npos);
}

// A value unique to its row (a date of birth, a lab value with 4 decimals) puts every row in a group of one.
TEST(PublishedColumns, AUniqueValuePutsEveryRowInAGroupOfOne)
{
    std::vector<std::uint32_t> areas, codes;
    for (std::uint32_t r = 0; r < 40; ++r)
    {
        areas.push_back(r % 4);
        codes.push_back(r);
    }
    const ColumnFigures figures = judgeOne(oneRegion(areas, codes), 5);
    EXPECT_DOUBLE_EQ(figures.shareUnique, 1.0);
    EXPECT_DOUBLE_EQ(figures.shareBelowK, 1.0);
    EXPECT_TRUE(figures.refused());
    EXPECT_FALSE(judgeOne(oneRegion(areas, codes), 5, true).refused())
        << "sensitive: l-diversity protects it; placement alone is judged";
}

// Groups count people when rows are people's: one patient's 5 visits with one lab value are a group of one.
TEST(PublishedColumns, GroupsCountPeople)
{
    PublishedRows rows = oneRegion({0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {1, 1, 1, 1, 1, 2, 2, 2, 2, 2});
    rows.person = {7, 7, 7, 7, 7, 1, 2, 3, 4, 5};
    const ColumnFigures figures = judgeOne(rows, 5);
    EXPECT_DOUBLE_EQ(figures.shareUnique, 0.5);
    EXPECT_DOUBLE_EQ(figures.shareBelowK, 0.5);
}

// Two fields that pass alone can single rows out together (a date and a time of day as two fields).
TEST(PublishedColumns, APairIsJudgedTogether)
{
    std::vector<std::uint32_t> areas, day, minute;
    for (std::uint32_t r = 0; r < 100; ++r)
    {
        areas.push_back(r % 3);
        day.push_back(r % 10);
        minute.push_back(r / 10);
    }
    PublishedRows rows = oneRegion(areas, day);
    rows.fields.push_back(minute);
    Feedback feedback;
    const std::vector<ColumnFigures> figures =
        judgePublishedColumns(rows, {{"day", false}, {"minute", false}}, 5, feedback);
    EXPECT_FALSE(figures[0].refused());
    EXPECT_FALSE(figures[1].refused());
    EXPECT_TRUE(figures[2].refused());
    EXPECT_DOUBLE_EQ(figures[2].shareUnique, 1.0);
}

// The release checks the fields it publishes (ReleaseRequest::published), whichever way it is made. Four
// small areas of 6 like records each, in two regions of two areas (k = 5: every group released). A copy of
// the small area places every row: each (region, value) group lies in one area, left-one-out it still names
// it; the region's largest areas (6 rows, tied) place 12 of 24: (24 - 12) / (24 - 12) = 1, refused. A
// constant field names no area (the two areas tie in every group): (0 - 12) / 12 = -1. Without person ids the
// rows are also counted for repeats: each area's 6 rows repeat the first, 4 x 5 = 20.
TEST(PublishedColumns, TheReleaseChecksTheFieldsItPublishes)
{
    test::DatasetBuilder builder({test::qi("q")});
    std::vector<std::uint32_t> codes;
    for (std::uint32_t area = 0; area < 4; ++area)
    {
        const std::string id = "a" + std::to_string(area);
        builder.region(id, double(area), 0.0).records(id, {0}, 6);
        for (int r = 0; r < 6; ++r)
            codes.insert(codes.end(), {area * 7919 + 1, 0});
    }
    const Dataset dataset = builder.build();
    const Pipeline pipeline{PipelineConfig{}};
    PublishedFields published;
    published.fields = {{"area_copy", false}, {"constant", false}};
    published.codes = &codes;
    published.rowsPublished = true;
    ReleaseRequest request;
    request.published = &published;
    Feedback feedback;
    const ReleaseResult release = pipeline.releaseGroups(Job(dataset), {0, 0, 1, 1}, 2, request, feedback);
    ASSERT_EQ(release.result.suppression.released, 24u);
    const FieldChecks& checks = release.fieldChecks;
    ASSERT_EQ(checks.columns.size(), 3u);
    EXPECT_DOUBLE_EQ(checks.columns[0].placement, 1.0);
    EXPECT_DOUBLE_EQ(checks.columns[1].placement, -1.0);
    EXPECT_DOUBLE_EQ(checks.columns[0].shareBelowK, 0.0);
    EXPECT_EQ(checks.refused(), &checks.columns[0]);
    ASSERT_TRUE(checks.repeated.has_value());
    EXPECT_EQ(checks.repeated->rows, 24u);
    EXPECT_EQ(checks.repeated->repeats, 20u);

    // Rows not published: nothing to judge but the repeats; no fields asked: no checks.
    published.rowsPublished = false;
    const ReleaseResult unpublished =
        pipeline.releaseGroups(Job(dataset), {0, 0, 1, 1}, 2, request, feedback);
    EXPECT_TRUE(unpublished.fieldChecks.columns.empty());
    EXPECT_TRUE(unpublished.fieldChecks.repeated.has_value());
    request.published = nullptr;
    const ReleaseResult unasked = pipeline.releaseGroups(Job(dataset), {0, 0, 1, 1}, 2, request, feedback);
    EXPECT_FALSE(unasked.fieldChecks.repeated.has_value());
}

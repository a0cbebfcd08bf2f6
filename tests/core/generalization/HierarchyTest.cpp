#include "generalization/Hierarchy.h"
#include "Error.h"
#include "generalization/HierarchyKinds.h"

#include <gtest/gtest.h>

#include <functional>

namespace vbas
{
namespace
{
CategoryValue text(const std::string& value)
{
    CategoryValue v;
    v.text = value;
    return v;
}

CategoryValue number(double value)
{
    CategoryValue v;
    v.text = std::to_string(value);
    v.number = value;
    return v;
}

CategoryValue null()
{
    CategoryValue v;
    v.null = true;
    return v;
}

/** The message of the Error(Generalization) `call` throws, or a note that it did not. */
std::string errorOf(const std::function<void()>& call)
{
    try
    {
        call();
    }
    catch (const Error& error)
    {
        EXPECT_EQ(error.subject(), Subject::Generalization) << error.what();
        return error.what();
    }
    return "(no error)";
}

Hierarchy build(const std::string& spec, const std::vector<CategoryValue>& values,
                const std::map<std::string, std::string>& tables = {})
{
    const std::vector<HierarchySpec> specs = parseGeneralization(spec);
    const std::string field = specs.empty() ? tables.begin()->first : specs.front().field;
    return buildHierarchies(specs, tables, {field}, {values}).front()->hierarchy;
}

std::vector<CategoryValue> ages(int from, int to)
{
    std::vector<CategoryValue> values;
    for (int age = from; age <= to; ++age)
        values.push_back(number(age));
    return values;
}

TEST(IntervalHierarchy, BandsOfEachWidthWithLossByWidthOverTheRange)
{
    const Hierarchy h = build("age: interval 5 10 20", ages(0, 99));
    ASSERT_EQ(h.levels(), 5u); // as is, 5, 10, 20, *
    EXPECT_EQ(h.levelName(1), "5");
    EXPECT_EQ(h.levelName(4), "*");
    // Age 32 (code 32): 30-34, 30-39, 20-39, *.
    EXPECT_EQ(h.label(1, h.group(1, 32)), "30-34");
    EXPECT_EQ(h.label(2, h.group(2, 32)), "30-39");
    EXPECT_EQ(h.label(3, h.group(3, 32)), "20-39");
    EXPECT_EQ(h.label(4, h.group(4, 32)), "*");
    // Range 0..99: [30, 35) spans 5 of 99; [20, 40) 20 of 99; the last band [95, 100) is cut at 99.
    EXPECT_NEAR(h.loss(1, h.group(1, 32)), 5.0 / 99.0, 1e-12);
    EXPECT_NEAR(h.loss(3, h.group(3, 32)), 20.0 / 99.0, 1e-12);
    EXPECT_NEAR(h.loss(1, h.group(1, 97)), 4.0 / 99.0, 1e-12);
    EXPECT_DOUBLE_EQ(h.loss(4, 0), 1.0);
    EXPECT_DOUBLE_EQ(h.loss(0, 32), 0.0);
    EXPECT_EQ(h.groups(1), 20u);
    EXPECT_EQ(h.groups(3), 5u);
}

TEST(IntervalHierarchy, BottomAndTopCoding)
{
    const Hierarchy h = build("age: interval 10 bottom 18 top 90", ages(0, 99));
    // Below 18: "<18"; bands from 18: 18-27, 28-37, ..., 88-89 cut at 90; from 90: "90+".
    EXPECT_EQ(h.label(1, h.group(1, 5)), "<18");
    EXPECT_EQ(h.label(1, h.group(1, 18)), "18-27");
    EXPECT_EQ(h.label(1, h.group(1, 89)), "88-89");
    EXPECT_EQ(h.label(1, h.group(1, 95)), "90+");
    EXPECT_EQ(h.group(1, 0), h.group(1, 17));
    EXPECT_NEAR(h.loss(1, h.group(1, 5)), 18.0 / 99.0, 1e-12);
    EXPECT_NEAR(h.loss(1, h.group(1, 95)), 9.0 / 99.0, 1e-12);
    EXPECT_NEAR(h.loss(1, h.group(1, 89)), 2.0 / 99.0, 1e-12);
}

TEST(IntervalHierarchy, NumbersInTextAndFractions)
{
    const Hierarchy h = build("dose: interval 0.5", {text("0.1"), text("0.7"), text("1.2"), null()});
    EXPECT_EQ(h.label(1, h.group(1, 0)), "[0, 0.5)");
    EXPECT_EQ(h.label(1, h.group(1, 1)), "[0.5, 1)");
    EXPECT_TRUE(h.isNull(1, h.group(1, 3)));
    EXPECT_DOUBLE_EQ(h.loss(1, h.group(1, 3)), 0.0);
    EXPECT_FALSE(h.isNull(2, h.group(2, 3))); // "*" holds NULL too
}

TEST(IntervalHierarchy, ErrorsNameTheFieldAndTheProblem)
{
    const std::string notNumber = errorOf([] { build("sex: interval 5", {text("female"), text("male")}); });
    EXPECT_NE(notNumber.find("sex"), std::string::npos) << notNumber;
    EXPECT_NE(notNumber.find("'female'"), std::string::npos) << notNumber;
    const std::string notNesting = errorOf([] { build("age: interval 5 7", ages(0, 20)); });
    EXPECT_NE(notNesting.find("nest"), std::string::npos) << notNesting;
    EXPECT_NE(notNesting.find("7"), std::string::npos) << notNesting;
    EXPECT_NE(errorOf([] { build("age: interval", ages(0, 20)); }).find("widths"), std::string::npos);
    EXPECT_NE(errorOf([] { build("age: interval -5", ages(0, 20)); }).find("'-5'"), std::string::npos);
}

TEST(DateHierarchy, IsoWeeksMonthsQuartersYears)
{
    // 2004-05-19 (Wednesday) is in 2004-W21; 2004-01-01 (Thursday) in 2004-W01; 2005-01-01 (Saturday) in
    // 2004-W53.
    const Hierarchy h =
        build("onset: date week month quarter year",
              {text("2004-05-19"), text("2004-01-01"), text("2005-01-01"), text("2004-05-31")});
    EXPECT_EQ(h.label(1, h.group(1, 0)), "2004-W21");
    EXPECT_EQ(h.label(1, h.group(1, 1)), "2004-W01");
    EXPECT_EQ(h.label(1, h.group(1, 2)), "2004-W53");
    // After weeks, months gather whole weeks by their Thursday: 2004-05-31 is a Monday whose Thursday is
    // 2004-06-03; 2005-01-01 belongs to the week of Thursday 2004-12-30.
    EXPECT_EQ(h.label(2, h.group(2, 3)), "2004-06 (ISO weeks)");
    EXPECT_EQ(h.label(2, h.group(2, 2)), "2004-12 (ISO weeks)");
    EXPECT_EQ(h.label(3, h.group(3, 0)), "2004-Q2 (ISO weeks)");
    EXPECT_EQ(h.label(4, h.group(4, 2)), "2004 (ISO weeks)");
    // Range 2004-01-01 .. 2005-01-01: 367 days; week 21 (May 17-23) spans 7.
    EXPECT_NEAR(h.loss(1, h.group(1, 0)), 7.0 / 367.0, 1e-12);
}

TEST(DateHierarchy, CalendarLevelsWithoutWeeks)
{
    CategoryValue typed;
    typed.text = "19 May 2004";
    typed.day = 12557; // 2004-05-19, as a date field gives it
    const Hierarchy h =
        build("onset: date month quarter year", {typed, text("2004-02-29"), text("2003-12-31")});
    EXPECT_EQ(h.label(1, h.group(1, 0)), "2004-05");
    EXPECT_EQ(h.label(1, h.group(1, 1)), "2004-02");
    EXPECT_EQ(h.label(2, h.group(2, 0)), "2004-Q2");
    EXPECT_EQ(h.label(3, h.group(3, 2)), "2003");
    // Range 2003-12-31 .. 2004-05-19: 141 days; February 2004 (29 days) lies inside it.
    EXPECT_NEAR(h.loss(1, h.group(1, 1)), 29.0 / 141.0, 1e-12);
}

TEST(DateHierarchy, Errors)
{
    EXPECT_NE(errorOf([] { build("onset: date month week", {text("2004-05-19")}); }).find("nest"),
              std::string::npos);
    EXPECT_NE(errorOf([] { build("onset: date fortnight", {text("2004-05-19")}); }).find("'fortnight'"),
              std::string::npos);
    EXPECT_NE(errorOf([] { build("onset: date month", {text("2004-02-30")}); }).find("'2004-02-30'"),
              std::string::npos);
}

TEST(PrefixHierarchy, CodesCutWithLossOverValues)
{
    const Hierarchy h = build("icd: prefix 3 1",
                              {text("J45.9"), text("J45.0"), text("J44"), text("K21.0"), text("É1"), null()});
    EXPECT_EQ(h.label(1, h.group(1, 0)), "J45");
    EXPECT_EQ(h.group(1, 0), h.group(1, 1));
    EXPECT_EQ(h.label(2, h.group(2, 2)), "J");
    EXPECT_EQ(h.label(1, h.group(1, 4)), "É1"); // shorter than 3 characters: kept (É is one character)
    EXPECT_EQ(h.label(2, h.group(2, 4)), "É");
    // 5 non-NULL values: J45 holds 2 ((2 - 1) / 4), J holds 3 (2 / 4).
    EXPECT_DOUBLE_EQ(h.loss(1, h.group(1, 0)), 0.25);
    EXPECT_DOUBLE_EQ(h.loss(2, h.group(2, 0)), 0.5);
    EXPECT_TRUE(h.isNull(2, h.group(2, 5)));
    EXPECT_NE(errorOf([] { build("icd: prefix 1 3", {text("J45")}); }).find("nest"), std::string::npos);
}

TEST(TableHierarchy, ArxTableWithNestingChecked)
{
    const std::string table = "\xEF\xBB\xBF\"none\";none;*\r\nged;secondary;*\nhighschool;secondary;*\n\n"
                              "bachelor;tertiary;*\nunused;tertiary;*\n";
    const Hierarchy h =
        build("education: table max 1", {text("bachelor"), text("ged"), text("highschool"), text("none")},
              {{"education", table}});
    ASSERT_EQ(h.levels(), 3u); // the table's last column is one group already: no second "*"
    EXPECT_EQ(h.label(1, h.group(1, 1)), "secondary");
    EXPECT_EQ(h.group(1, 1), h.group(1, 2));
    EXPECT_DOUBLE_EQ(h.loss(1, h.group(1, 1)), 1.0 / 3.0);
    EXPECT_DOUBLE_EQ(h.loss(1, h.group(1, 0)), 0.0);
    EXPECT_EQ(h.label(2, 0), "*");

    const std::vector<CategoryValue> values{text("a"), text("b"), text("c")};
    const std::string missing = errorOf([&] { build("", values, {{"x", "a;1\nb;1\n"}}); });
    EXPECT_NE(missing.find("'c'"), std::string::npos) << missing;
    const std::string split = errorOf([&] { build("", values, {{"x", "a;1;p\nb;1;q\nc;2;q\n"}}); });
    EXPECT_NE(split.find("nest"), std::string::npos) << split;
    EXPECT_NE(split.find("'a'"), std::string::npos) << split;
    const std::string ragged = errorOf([&] { build("", values, {{"x", "a;1;p\nb;1\nc;2;q\n"}}); });
    EXPECT_NE(ragged.find("line 2"), std::string::npos) << ragged;
    const std::string twice = errorOf([&] { build("", values, {{"x", "a;1\na;2\nb;1\nc;1\n"}}); });
    EXPECT_NE(twice.find("twice"), std::string::npos) << twice;
}

TEST(ParseGeneralization, SpecsLimitsAndErrors)
{
    const std::vector<HierarchySpec> specs =
        parseGeneralization("age: interval 5 10 20 max 10; onset: date week month\n icd : prefix 3 1\n\n");
    ASSERT_EQ(specs.size(), 3u);
    EXPECT_EQ(specs[0].field, "age");
    EXPECT_EQ(specs[0].kind, "interval");
    EXPECT_EQ(specs[0].arguments, (std::vector<std::string>{"5", "10", "20"}));
    EXPECT_EQ(specs[0].maxLevel, "10");
    EXPECT_EQ(specs[2].field, "icd");
    EXPECT_TRUE(parseGeneralization("  ").empty());

    EXPECT_NE(errorOf([] { parseGeneralization("age interval 5"); }).find("':'"), std::string::npos);
    const std::string unknown = errorOf([] { parseGeneralization("age: bands 5"); });
    EXPECT_NE(unknown.find("'bands'"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("interval, date, prefix, table"), std::string::npos) << unknown;
    EXPECT_NE(errorOf([] { parseGeneralization("age: interval 5; age: interval 10"); }).find("two"),
              std::string::npos);
    EXPECT_NE(errorOf([] { parseGeneralization("age: interval 5 max"); }).find("max"), std::string::npos);
}

TEST(BuildHierarchies, FieldsLevelsAndTables)
{
    const std::vector<std::vector<CategoryValue>> values{ages(0, 30), {text("f"), text("m")}};
    const Hierarchies h = buildHierarchies(parseGeneralization("age: interval 5 10 max 5"),
                                           {{"sex", "f;*\nm;*\n"}}, {"age", "sex"}, values);
    ASSERT_TRUE(h[0] && h[1]);
    EXPECT_EQ(h[0]->maxLevel, 1u);
    EXPECT_EQ(h[1]->maxLevel, 1u);
    EXPECT_EQ(h[0]->hierarchy.levelNamed("*"), 3u);
    EXPECT_EQ(h[0]->hierarchy.levelNamed("2"), 2u); // no level is named "2": the level number

    const std::string notQi = errorOf(
        [&] {
            buildHierarchies(parseGeneralization("height: interval 5"), {}, {"age", "sex"}, values);
        });
    EXPECT_NE(notQi.find("height"), std::string::npos) << notQi;
    EXPECT_NE(notQi.find("age, sex"), std::string::npos) << notQi;
    const std::string noTable = errorOf(
        [&] {
            buildHierarchies(parseGeneralization("sex: table"), {}, {"age", "sex"}, values);
        });
    EXPECT_NE(noTable.find("sex.csv"), std::string::npos) << noTable;
    const std::string both = errorOf(
        [&] {
            buildHierarchies(parseGeneralization("sex: prefix 1"), {{"sex", "f;*\n"}}, {"age", "sex"},
                             values);
        });
    EXPECT_NE(both.find("sex"), std::string::npos) << both;
    const std::string badMax = errorOf(
        [&] {
            buildHierarchies(parseGeneralization("age: interval 5 max 7"), {}, {"age", "sex"}, values);
        });
    EXPECT_NE(badMax.find("'7'"), std::string::npos) << badMax;
    EXPECT_NE(badMax.find("0, 5, *"), std::string::npos) << badMax;
}

// Issue 31: the report says "age in bands of 10", not "age 10": each kind words its levels.
TEST(BuildHierarchies, EachKindWordsItsLevels)
{
    const std::vector<std::vector<CategoryValue>> values{ages(0, 30),
                                                         {text("2004-05-19"), text("2006-03-01")},
                                                         {text("J45.9"), text("K50")},
                                                         {text("f"), text("m")}};
    const Hierarchies h = buildHierarchies(
        parseGeneralization("age: interval 5 10; seen: date week month year; code: prefix 3 1; sex: table"),
        {{"sex", "f;person;*\nm;person;*\n"}}, {"age", "seen", "code", "sex"}, values);
    ASSERT_TRUE(h[0] && h[1] && h[2] && h[3]);
    const auto words = [&](std::size_t j)
    {
        std::vector<std::string> levels;
        for (std::size_t level = 0; level < h[j]->hierarchy.levels(); ++level)
            levels.push_back(h[j]->describeLevel(level));
        return levels;
    };
    EXPECT_EQ(words(0), (std::vector<std::string>{"as it is", "in bands of 5", "in bands of 10",
                                                  "not released (all '*')"}));
    EXPECT_EQ(words(1), (std::vector<std::string>{"as it is", "by ISO week", "by month", "by year",
                                                  "not released (all '*')"}));
    EXPECT_EQ(words(2), (std::vector<std::string>{"as it is", "cut to its first 3 characters",
                                                  "cut to its first character", "not released (all '*')"}));
    EXPECT_EQ(words(3),
              (std::vector<std::string>{"as it is", "at level 1 of its table", "at level 2 of its table"}));

    // A hierarchy made without a kind still says something true.
    const QuasiIdentifierHierarchy bare{h[0]->hierarchy, 3};
    EXPECT_EQ(bare.describeLevel(2), "at level 10");
    EXPECT_EQ(bare.describeLevel(3), "not released (all '*')");
}

} // namespace
} // namespace vbas

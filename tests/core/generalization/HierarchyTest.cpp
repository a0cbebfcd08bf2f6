#include "generalization/Hierarchy.h"
#include "base/Error.h"
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

/** No automatic default: the quasi-identifiers the specs name, and no others. */
const AutomaticBanding kNoDefault{{}, 2, false};

Hierarchy build(const std::string& spec, const std::vector<CategoryValue>& values,
                const std::map<std::string, std::string>& tables = {})
{
    const std::vector<HierarchySpec> specs = parseGeneralization(spec);
    const std::string field = specs.empty() ? tables.begin()->first : specs.front().field;
    return buildHierarchies(specs, tables, {field}, {values}, kNoDefault).front()->hierarchy;
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
                                           {{"sex", "f;*\nm;*\n"}}, {"age", "sex"}, values, kNoDefault);
    ASSERT_TRUE(h[0] && h[1]);
    EXPECT_EQ(h[0]->maxLevel, 1u);
    // The table's one level puts f and m together: it removes sex, which needs 'max'.
    EXPECT_EQ(h[1]->hierarchy.removalLevel(), 1u);
    EXPECT_EQ(h[1]->maxLevel, 0u);
    EXPECT_EQ(h[0]->hierarchy.levelNamed("*"), 3u);
    EXPECT_EQ(h[0]->hierarchy.levelNamed("2"), 2u); // no level is named "2": the level number

    const std::string notQi = errorOf(
        [&] {
            buildHierarchies(parseGeneralization("height: interval 5"), {}, {"age", "sex"}, values,
                             kNoDefault);
        });
    EXPECT_NE(notQi.find("height"), std::string::npos) << notQi;
    EXPECT_NE(notQi.find("age, sex"), std::string::npos) << notQi;
    const std::string noTable = errorOf(
        [&] {
            buildHierarchies(parseGeneralization("sex: table"), {}, {"age", "sex"}, values, kNoDefault);
        });
    EXPECT_NE(noTable.find("sex.csv"), std::string::npos) << noTable;
    const std::string both = errorOf(
        [&]
        {
            buildHierarchies(parseGeneralization("sex: prefix 1"), {{"sex", "f;*\n"}}, {"age", "sex"}, values,
                             kNoDefault);
        });
    EXPECT_NE(both.find("sex"), std::string::npos) << both;
    const std::string badMax = errorOf(
        [&] {
            buildHierarchies(parseGeneralization("age: interval 5 max 7"), {}, {"age", "sex"}, values,
                             kNoDefault);
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
        {{"sex", "f;person;*\nm;person;*\n"}}, {"age", "seen", "code", "sex"}, values, kNoDefault);
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
    const QuasiIdentifierHierarchy bare{h[0]->hierarchy, 3, HierarchySpec{}, false};
    EXPECT_EQ(bare.describeLevel(2), "at level 10");
    EXPECT_EQ(bare.describeLevel(3), "not released (all '*')");
}

TEST(IntervalHierarchy, EndsCodedPerLevel)
{
    const Hierarchy h = build("age: interval 5 10 bottom 15 20 top 70 60", ages(0, 99));
    EXPECT_EQ(h.label(1, h.group(1, 14)), "<15");
    EXPECT_EQ(h.label(1, h.group(1, 15)), "15-19");
    EXPECT_EQ(h.label(2, h.group(2, 15)), "<20");
    EXPECT_EQ(h.label(1, h.group(1, 65)), "65-69");
    EXPECT_EQ(h.label(2, h.group(2, 65)), "60+");
    EXPECT_EQ(h.label(1, h.group(1, 70)), "70+");
    // Loss over the range 0..99: "<15" spans [0, 15), "60+" [60, 99].
    EXPECT_NEAR(h.loss(1, h.group(1, 3)), 15.0 / 99.0, 1e-12);
    EXPECT_NEAR(h.loss(2, h.group(2, 80)), 39.0 / 99.0, 1e-12);

    const std::string count = errorOf([] { build("age: interval 5 10 20 top 70 60", ages(0, 99)); });
    EXPECT_NE(count.find("one per width (3 here)"), std::string::npos) << count;
    const std::string bottoms = errorOf([] { build("age: interval 5 10 bottom 20 15", ages(0, 99)); });
    EXPECT_NE(bottoms.find("nest"), std::string::npos) << bottoms;
    const std::string tops = errorOf([] { build("age: interval 5 10 top 60 70", ages(0, 99)); });
    EXPECT_NE(tops.find("nest"), std::string::npos) << tops;
    const std::string order = errorOf([] { build("age: interval 5 top 90 10", ages(0, 99)); });
    EXPECT_NE(order.find("widths before"), std::string::npos) << order;
}

TEST(IntervalHierarchy, EmptyTextAndNullAreGroupsOfTheirOwn)
{
    // An empty text (a GeoPackage's '') is no number: a group of its own, published as it is; NULL another.
    const Hierarchy h = build("age: interval 10", {text("5"), text(""), null(), text("12")});
    EXPECT_EQ(h.label(1, h.group(1, 0)), "0-9");
    EXPECT_EQ(h.label(1, h.group(1, 3)), "10-19");
    EXPECT_NE(h.group(1, 1), h.group(1, 2));
    EXPECT_NE(h.group(1, 1), h.group(1, 0));
    EXPECT_EQ(h.label(1, h.group(1, 1)), "");
    EXPECT_FALSE(h.isNull(1, h.group(1, 1)));
    EXPECT_TRUE(h.isNull(1, h.group(1, 2)));
    EXPECT_DOUBLE_EQ(h.loss(1, h.group(1, 1)), 0.0);
    // Dates alike.
    const Hierarchy d = build("onset: date month", {text("2004-05-19"), text(""), null()});
    EXPECT_EQ(d.label(1, d.group(1, 0)), "2004-05");
    EXPECT_EQ(d.label(1, d.group(1, 1)), "");
    EXPECT_TRUE(d.isNull(1, d.group(1, 2)));
}

/** Ages and the records holding each, as the automatic kind weighs them. */
struct WeightedAges
{
    std::vector<CategoryValue> values;
    std::vector<Count> records;
};

WeightedAges weighted(const std::vector<std::pair<int, Count>>& ages)
{
    WeightedAges out;
    for (const auto& [age, records] : ages)
    {
        out.values.push_back(number(age));
        out.records.push_back(records);
    }
    return out;
}

HierarchySpec automatic(const WeightedAges& ages, Count k)
{
    return findHierarchyKind("auto")->resolve({"age", "auto", {}, {}}, ages.values, ages.records, k);
}

TEST(AutomaticHierarchy, RoundWidthsAndEndsHoldingK)
{
    // 83 records, ages 3..97: at most 20 bands over the range 94 gives width 5 (2 would give 47), then 10 and
    // 20 (50 is no multiple of 20, 100 spans the range). With k = 5, by hand:
    //  5: below 10 only 3 records (3, 7), below 15 13: "<15"; from 75 on 2 (88, 97), from 70 on 5: "70+";
    // 10: below 10 3, below 20 23: "<20"; from 80 on 2, from 70 on 5: "70+";
    // 20: below 20 23: "<20"; from 80 on 2, from 60 on 10: "60+".
    const WeightedAges ages = weighted({{3, 1},
                                        {7, 2},
                                        {12, 10},
                                        {18, 10},
                                        {25, 10},
                                        {33, 10},
                                        {41, 10},
                                        {47, 10},
                                        {55, 10},
                                        {63, 5},
                                        {71, 3},
                                        {88, 1},
                                        {97, 1}});
    const HierarchySpec spec = automatic(ages, 5);
    EXPECT_EQ(spec.text(), "age: interval 5 10 20 bottom 15 20 20 top 70 70 60");

    const Hierarchy h = intervalHierarchy("age", ages.values, spec.arguments, nullptr);
    ASSERT_EQ(h.levels(), 5u);
    const auto labels = [&](std::uint32_t code)
    {
        return h.label(1, h.group(1, code)) + " " + h.label(2, h.group(2, code)) + " " +
               h.label(3, h.group(3, code));
    };
    EXPECT_EQ(labels(0), "<15 <20 <20");     // 3
    EXPECT_EQ(labels(2), "<15 <20 <20");     // 12
    EXPECT_EQ(labels(3), "15-19 <20 <20");   // 18
    EXPECT_EQ(labels(9), "60-64 60-69 60+"); // 63
    EXPECT_EQ(labels(12), "70+ 70+ 60+");    // 97
    // Each end holds at least k records at every level: recounted from the groups.
    for (std::size_t level = 1; level <= 3; ++level)
        for (const std::uint32_t end : {h.group(level, 0), h.group(level, 12)})
        {
            Count held = 0;
            for (std::uint32_t code = 0; code < ages.values.size(); ++code)
                held += h.group(level, code) == end ? ages.records[code] : 0;
            EXPECT_GE(held, 5u) << h.label(level, end);
        }
}

TEST(AutomaticHierarchy, ValuesThatGiveNoBandsStayAsTheyAre)
{
    // A 0/1 flag: bands of 1 are the values, bands of 2 hold them all.
    EXPECT_EQ(automatic(weighted({{0, 50}, {1, 50}}), 5).kind, HierarchySpec::kNone);
    // One value; fewer than k records in all.
    EXPECT_EQ(automatic(weighted({{40, 50}}), 5).kind, HierarchySpec::kNone);
    EXPECT_EQ(automatic(weighted({{20, 1}, {50, 1}, {80, 1}}), 5).kind, HierarchySpec::kNone);
    // Decimal widths for a range of 2.9: 0.5 (0.1 would give 29 bands), then 2 (bands of 1 merge nothing more
    // than those of 0.5: 1.1, 2.3 and 3.05 alone, the rest below 1). Bands of 0.5: below 0.5 27 records, from
    // 3 on 9; of 2: below 2 36, from 2 on 18, the two ends meeting.
    const std::vector<CategoryValue> values{number(0.15), number(0.42), number(0.47),
                                            number(1.1),  number(2.3),  number(3.05)};
    const HierarchySpec dose =
        findHierarchyKind("auto")->resolve({"dose", "auto", {}, "2"}, values, {9, 9, 9, 9, 9, 9}, 5);
    EXPECT_EQ(dose.text(), "dose: interval 0.5 2 bottom 0.5 2 top 3 2 max 2");
    const Hierarchy doses = intervalHierarchy("dose", values, dose.arguments, nullptr);
    EXPECT_EQ(doses.label(1, doses.group(1, 1)), "<0.5");
    EXPECT_EQ(doses.label(1, doses.group(1, 3)), "[1, 1.5)");
    EXPECT_EQ(doses.label(2, doses.group(2, 3)), "<2");
    EXPECT_EQ(doses.label(2, doses.group(2, 4)), "2+");
    const std::string words = errorOf(
        [] {
            findHierarchyKind("auto")->resolve({"sex", "auto", {}, {}}, {text("f")}, {1}, 5);
        });
    EXPECT_NE(words.find("'f'"), std::string::npos) << words;
}

TEST(BuildHierarchies, NullIsAGroupOfItsOwnInEveryKind)
{
    // Every registered kind, the automatic one included: the NULL category (last) is alone in a NULL group at
    // every level below the one that removes the quasi-identifier.
    const std::map<std::string, std::pair<std::string, std::vector<CategoryValue>>> cases{
        {"interval", {"v: interval 10 20", {number(3), number(14), number(27), null()}}},
        {"date",
         {"v: date month year", {text("2004-05-19"), text("2004-06-01"), text("2005-01-02"), null()}}},
        {"prefix", {"v: prefix 2 1", {text("J45"), text("J44"), text("K21"), null()}}},
        {"table", {"v: table", {text("a"), text("b"), text("c"), null()}}},
        {"auto", {"v: auto", {number(3), number(14), number(27), null()}}},
    };
    const std::map<std::string, std::string> tables{{"v", "a;ab;*\nb;ab;*\nc;c;*\n"}}, noTables;
    for (const HierarchyKind& kind : hierarchyKinds())
    {
        const auto found = cases.find(kind.id);
        ASSERT_NE(found, cases.end()) << kind.id << " has no case here: add one";
        const auto& [spec, values] = found->second;
        const Hierarchies built =
            buildHierarchies(parseGeneralization(spec), std::string(kind.id) == "table" ? tables : noTables,
                             {"v"}, {values}, AutomaticBanding{{{10, 10, 10, 10}}, 2, false});
        ASSERT_TRUE(built[0]) << spec;
        const Hierarchy& h = built[0]->hierarchy;
        const std::uint32_t nullCode = std::uint32_t(values.size() - 1);
        ASSERT_GT(h.removalLevel(), 1u) << spec;
        for (std::size_t level = 1; level < h.removalLevel(); ++level)
        {
            EXPECT_TRUE(h.isNull(level, h.group(level, nullCode))) << spec << " level " << level;
            for (std::uint32_t code = 0; code < nullCode; ++code)
            {
                EXPECT_NE(h.group(level, code), h.group(level, nullCode)) << spec << " level " << level;
                EXPECT_FALSE(h.isNull(level, h.group(level, code))) << spec << " level " << level;
            }
        }
    }
}

TEST(BuildHierarchies, NumbersAreBandedByDefaultNeverRemovedUnlessAllowed)
{
    const std::vector<std::string> names{"age", "sex", "zip", "dose"};
    std::vector<CategoryValue> zips{text("01001"), text("01002"), text("02110")};
    std::vector<CategoryValue> doses{text("0.5"), text("1.5"), text(""), null()};
    const std::vector<std::vector<CategoryValue>> values{ages(20, 69), {text("f"), text("m")}, zips, doses};
    std::vector<std::vector<Count>> records{std::vector<Count>(50, 10), {250, 250}, {1, 1, 1}, {5, 5, 1, 1}};
    // Ages (and doses as text, the empty one and NULL aside) are numbers; sex is text; zip codes are codes.
    const Hierarchies h = buildHierarchies({}, {}, names, values, AutomaticBanding{records, 5, true});
    ASSERT_TRUE(h[0]);
    EXPECT_TRUE(h[0]->automatic);
    EXPECT_EQ(h[0]->spec.text(), "age: interval 5 10 20 bottom 25 30 40 top 65 60 60 max 20");
    EXPECT_EQ(h[0]->hierarchy.levelName(h[0]->maxLevel), "20");
    EXPECT_EQ(h[0]->hierarchy.removalLevel(), h[0]->maxLevel + 1);
    EXPECT_EQ(h[0]->hierarchy.levelName(h[0]->hierarchy.removalLevel()), "*");
    EXPECT_FALSE(h[1]);
    EXPECT_FALSE(h[2]);
    EXPECT_FALSE(h[3]); // two numbers: a band holding both would remove the values

    // 'none' keeps a number as it is; 'max *' allows removal; explicit specs keep their levels.
    const Hierarchies kept = buildHierarchies(parseGeneralization("age: none"), {}, names, values,
                                              AutomaticBanding{records, 5, true});
    EXPECT_FALSE(kept[0]);
    const Hierarchies removable = buildHierarchies(parseGeneralization("age: auto max *"), {}, names, values,
                                                   AutomaticBanding{records, 5, true});
    ASSERT_TRUE(removable[0]);
    EXPECT_EQ(removable[0]->maxLevel, removable[0]->hierarchy.removalLevel());
    const Hierarchies given = buildHierarchies(parseGeneralization("age: interval 10"), {}, names, values,
                                               AutomaticBanding{records, 5, true});
    ASSERT_TRUE(given[0]);
    EXPECT_FALSE(given[0]->automatic);
    EXPECT_EQ(given[0]->hierarchy.levelName(given[0]->maxLevel), "10");
    // Without the default (a release at an earlier one's levels), numbers stay as they are.
    EXPECT_FALSE(buildHierarchies({}, {}, names, values, AutomaticBanding{records, 5, false})[0]);

    // What the hierarchies were built as builds the same bands again, on other records too.
    const std::string text = Generalization::parse("", {}, true).builtAs(h).text();
    EXPECT_EQ(text, "age: interval 5 10 20 bottom 25 30 40 top 65 60 60 max 20");
    const Hierarchies again =
        buildHierarchies(parseGeneralization(text), {}, {"age"}, {ages(0, 99)}, kNoDefault);
    EXPECT_EQ(again[0]->hierarchy.label(1, again[0]->hierarchy.group(1, 3)), "<25");
    EXPECT_EQ(again[0]->hierarchy.label(3, again[0]->hierarchy.group(3, 99)), "60+");

    EXPECT_NE(errorOf([] { parseGeneralization("age: none 5"); }).find("none"), std::string::npos);
}

} // namespace
} // namespace vbas

// vbas:checkanonymity on small memory tables whose groups were counted by hand.

#include "processingtestutils.h"
#include "vbasparameters.h"
#include "vbasqgiscompat.h"

#include <qgsprocessing.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace
{
const QString kAlgorithm = QStringLiteral("vbas:checkanonymity");

QVariantMap checkParameters(QgsVectorLayer* layer, const QStringList& quasiIdentifiers, int k,
                            const QString& countField = QString())
{
    QVariantMap parameters{{QStringLiteral("INPUT"), QVariant::fromValue<QgsMapLayer*>(layer)},
                           {QStringLiteral("REGION_FIELD"), QStringLiteral("region")},
                           {QStringLiteral("QUASI_IDENTIFIERS"), quasiIdentifiers},
                           {QStringLiteral("K"), k},
                           {QStringLiteral("OUTPUT"), QgsProcessing::TEMPORARY_OUTPUT}};
    if (!countField.isEmpty())
        parameters.insert(QStringLiteral("COUNT_FIELD"), countField);
    return parameters;
}

/** Returns rows as "value|value|...", NULL written as NULL, so that failures print readably. */
std::vector<std::string> asText(const QList<QgsAttributes>& rows)
{
    std::vector<std::string> text;
    for (const QgsAttributes& row : rows)
    {
        QStringList values;
        for (const QVariant& value : row)
            values << (value.isNull() ? QStringLiteral("NULL") : value.toString());
        text.push_back(values.join('|').toStdString());
    }
    return text;
}

void expectSummary(const AlgorithmRun& run, qlonglong groups, qlonglong records, qlonglong violatingGroups,
                   qlonglong violatingRecords, const QVariant& minGroupSize, const QString& verdict)
{
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(run.results.value(QStringLiteral("GROUPS")).toLongLong(), groups);
    EXPECT_EQ(run.results.value(QStringLiteral("RECORDS")).toLongLong(), records);
    EXPECT_EQ(run.results.value(QStringLiteral("VIOLATING_GROUPS")).toLongLong(), violatingGroups);
    EXPECT_EQ(run.results.value(QStringLiteral("VIOLATING_RECORDS")).toLongLong(), violatingRecords);
    EXPECT_EQ(run.results.value(QStringLiteral("MIN_GROUP_SIZE")), minGroupSize);
    EXPECT_EQ(run.results.value(QStringLiteral("VERDICT")).toString(), verdict);
    EXPECT_TRUE(run.log.contains(QStringLiteral("VERDICT ") + verdict)) << run.log.toStdString();
}

/** Returns the error of a run that must fail. */
std::string failure(const AlgorithmRun& run)
{
    EXPECT_FALSE(run.ok);
    EXPECT_TRUE(run.results.isEmpty());
    return run.errors.toStdString();
}

const QStringList kRegionAgeSex{QStringLiteral("region:string"), QStringLiteral("age:string"),
                                QStringLiteral("sex:string")};
const QStringList kAgeSex{QStringLiteral("age"), QStringLiteral("sex")};
} // namespace

TEST(CheckAnonymity, TableWithEveryGroupAtKPasses)
{
    // (R1,young,F) 3, (R1,old,M) 4, (R2,young,F) 3: three groups, ten records, none below 3.
    const auto table =
        makeTable(kRegionAgeSex, repeated({"R1", "young", "F"}, 3) + repeated({"R1", "old", "M"}, 4) +
                                     repeated({"R2", "young", "F"}, 3));
    const AlgorithmRun run = runAlgorithm(kAlgorithm, checkParameters(table.get(), kAgeSex, 3));
    expectSummary(run, 3, 10, 0, 0, 3, QStringLiteral("PASS"));
    EXPECT_TRUE(run.outputRows.isEmpty());
    EXPECT_EQ(run.outputFields, (QStringList{"region", "age", "sex", "group_size"}));
}

TEST(CheckAnonymity, TableWithSmallGroupsFailsAndListsExactlyThem)
{
    // Groups (k = 3): (R1,young,F) 3; (R1,young,M) 1; (R1,old,F) 2; (R2,young,F) 5; (R2,old,M) 2;
    // (R10,old,M) 1. Below 3: four groups holding 1 + 2 + 2 + 1 = 6 of 14 records; smallest 1.
    // Listed in text order of region, then values: R1 < R10 < R2, old < young.
    const auto table =
        makeTable(kRegionAgeSex, repeated({"R1", "young", "F"}, 3) + repeated({"R1", "young", "M"}, 1) +
                                     repeated({"R1", "old", "F"}, 2) + repeated({"R2", "young", "F"}, 5) +
                                     repeated({"R2", "old", "M"}, 2) + repeated({"R10", "old", "M"}, 1));
    const AlgorithmRun run = runAlgorithm(kAlgorithm, checkParameters(table.get(), kAgeSex, 3));
    expectSummary(run, 6, 14, 4, 6, 1, QStringLiteral("FAIL"));
    EXPECT_EQ(asText(run.outputRows),
              (std::vector<std::string>{"R1|old|F|2", "R1|young|M|1", "R10|old|M|1", "R2|old|M|2"}));
}

TEST(CheckAnonymity, NullIsACategoryOfItsOwnDistinctFromEmptyText)
{
    // k = 2, QI age. (A,NULL) 1; (A,"") 2; (A,"30") 2; (NULL,"30") 1; (B,NULL) 2. Had NULL and ""
    // been merged, (A,NULL) would hold 3 and pass; a NULL region is a region of its own too.
    const auto table =
        makeTable({QStringLiteral("region:string"), QStringLiteral("age:string")},
                  repeated({"A", nullText()}, 1) + repeated({"A", ""}, 2) + repeated({"A", "30"}, 2) +
                      repeated({nullText(), "30"}, 1) + repeated({"B", nullText()}, 2));
    const AlgorithmRun run =
        runAlgorithm(kAlgorithm, checkParameters(table.get(), {QStringLiteral("age")}, 2));
    expectSummary(run, 5, 8, 2, 2, 1, QStringLiteral("FAIL"));
    EXPECT_EQ(asText(run.outputRows), (std::vector<std::string>{"NULL|30|1", "A|NULL|1"}));
}

TEST(CheckAnonymity, CountFieldWeighsEachRow)
{
    // k = 5, QI sex, counts n: (A,F) 2 + 3 = 5; (A,M) 4; (B,F) 10. Below 5: (A,M) with 4 of 19.
    const auto table = makeTable(
        {QStringLiteral("region:string"), QStringLiteral("sex:string"), QStringLiteral("n:integer")},
        {{"A", "F", 2}, {"A", "M", 4}, {"B", "F", 10}, {"A", "F", 3}});
    const AlgorithmRun run = runAlgorithm(
        kAlgorithm, checkParameters(table.get(), {QStringLiteral("sex")}, 5, QStringLiteral("n")));
    expectSummary(run, 3, 19, 1, 4, 4, QStringLiteral("FAIL"));
    EXPECT_EQ(asText(run.outputRows), (std::vector<std::string>{"A|M|4"}));
}

TEST(CheckAnonymity, ARowCountingZeroRecordsIsNoGroup)
{
    // The count rule of every input: 0 is a row of no records. (B, F) holds none, so it is no group below 5.
    const auto table = makeTable(
        {QStringLiteral("region:string"), QStringLiteral("sex:string"), QStringLiteral("n:integer")},
        {{"A", "F", 5}, {"B", "F", 0}});
    const AlgorithmRun run = runAlgorithm(
        kAlgorithm, checkParameters(table.get(), {QStringLiteral("sex")}, 5, QStringLiteral("n")));
    expectSummary(run, 1, 5, 0, 0, 5, QStringLiteral("PASS"));
}

TEST(CheckAnonymity, CountsInTextAreAcceptedWhenTheyHoldWholeNumbers)
{
    // CSV files deliver counts as text: "2" and "3.0" make one group of 5.
    const auto table =
        makeTable({QStringLiteral("region:string"), QStringLiteral("n:string")}, {{"A", "2"}, {"A", "3.0"}});
    const AlgorithmRun run =
        runAlgorithm(kAlgorithm, checkParameters(table.get(), {}, 5, QStringLiteral("n")));
    expectSummary(run, 1, 5, 0, 0, 5, QStringLiteral("REGION_SIZES_PASS"));
}

TEST(CheckAnonymity, WithoutQuasiIdentifiersGroupsAreRegions)
{
    // k = 2: region A holds 3 records, B holds 1.
    const auto table = makeTable({QStringLiteral("region:string"), QStringLiteral("sex:string")},
                                 {{"A", "F"}, {"A", "M"}, {"A", "M"}, {"B", "F"}});
    const AlgorithmRun run = runAlgorithm(kAlgorithm, checkParameters(table.get(), {}, 2));
    expectSummary(run, 2, 4, 1, 1, 1, QStringLiteral("FAIL"));
    EXPECT_EQ(asText(run.outputRows), (std::vector<std::string>{"B|1"}));
    EXPECT_EQ(run.outputFields, (QStringList{"region", "group_size"}));
}

TEST(CheckAnonymity, WithoutQuasiIdentifiersAPassIsNoPlainPassAndSaysWhatWasChecked)
{
    // Every region holds 3 records and the table has no other column: k-anonymous by region size only.
    const auto regions =
        makeTable({QStringLiteral("region:string")}, {{"A"}, {"A"}, {"A"}, {"B"}, {"B"}, {"B"}});
    const AlgorithmRun run = runAlgorithm(kAlgorithm, checkParameters(regions.get(), {}, 3));
    expectSummary(run, 2, 6, 0, 0, 3, QStringLiteral("REGION_SIZES_PASS"));
    EXPECT_FALSE(run.log.contains(QStringLiteral("VERDICT PASS"))) << run.log.toStdString();
    EXPECT_TRUE(run.log.contains(QStringLiteral("only the size of each region was checked")))
        << run.log.toStdString();
    // (A, F) are 2 and (A, M) is alone: the column sex, judged with the region, fails the table without
    // quasi-identifiers, and as a quasi-identifier its groups fail it.
    const auto table = makeTable({QStringLiteral("region:string"), QStringLiteral("sex:string")},
                                 {{"A", "F"}, {"A", "F"}, {"A", "M"}, {"B", "F"}, {"B", "F"}, {"B", "F"}});
    expectSummary(runAlgorithm(kAlgorithm, checkParameters(table.get(), {}, 3)), 2, 6, 0, 0, 3,
                  QStringLiteral("FAIL"));
    expectSummary(runAlgorithm(kAlgorithm, checkParameters(table.get(), {QStringLiteral("sex")}, 3)), 3, 6, 2,
                  3, 1, QStringLiteral("FAIL"));
}

TEST(CheckAnonymity, EmptyTablePassesWithoutSmallestGroup)
{
    const auto table = makeTable(kRegionAgeSex, {});
    const AlgorithmRun run = runAlgorithm(kAlgorithm, checkParameters(table.get(), kAgeSex, 5));
    expectSummary(run, 0, 0, 0, 0, QVariant(), QStringLiteral("PASS"));
    EXPECT_TRUE(run.log.contains(QStringLiteral("no records"))) << run.log.toStdString();
}

TEST(CheckAnonymity, OutputIsOptional)
{
    const auto table = makeTable(kRegionAgeSex, repeated({"R1", "young", "F"}, 1));
    QVariantMap parameters = checkParameters(table.get(), kAgeSex, 2);
    parameters.remove(QStringLiteral("OUTPUT"));
    const AlgorithmRun run = runAlgorithm(kAlgorithm, parameters);
    expectSummary(run, 1, 1, 1, 1, 1, QStringLiteral("FAIL"));
    EXPECT_FALSE(run.results.contains(QStringLiteral("OUTPUT")));
}

TEST(CheckAnonymity, CancelStopsWithoutOutput)
{
    const auto table = makeTable(kRegionAgeSex, repeated({"R1", "young", "F"}, 10));
    const AlgorithmRun run = runAlgorithm(kAlgorithm, checkParameters(table.get(), kAgeSex, 2), true);
    EXPECT_EQ(failure(run), "Canceled by the user; no output was written.");
}

TEST(CheckAnonymity, ErrorsNameTheParameterToFix)
{
    const auto table = makeTable(kRegionAgeSex, repeated({"R1", "young", "F"}, 3));
    QVariantMap parameters = checkParameters(table.get(), kAgeSex, 2);

    parameters.insert(QStringLiteral("REGION_FIELD"), QStringLiteral("regoin"));
    EXPECT_EQ(failure(runAlgorithm(kAlgorithm, parameters)),
              "REGION_FIELD: INPUT has no field 'regoin'; choose one of its fields (region, age, sex)");
    parameters.insert(QStringLiteral("REGION_FIELD"), QStringLiteral("region"));

    parameters.insert(QStringLiteral("QUASI_IDENTIFIERS"), QStringList{"age", "income"});
    EXPECT_EQ(failure(runAlgorithm(kAlgorithm, parameters))
                  .rfind("QUASI_IDENTIFIERS: INPUT has no field 'income'", 0),
              0u);
    parameters.insert(QStringLiteral("QUASI_IDENTIFIERS"), QStringList{"age", "region"});
    EXPECT_EQ(
        failure(runAlgorithm(kAlgorithm, parameters)).rfind("QUASI_IDENTIFIERS: 'region' is listed twice", 0),
        0u);
    parameters.insert(QStringLiteral("QUASI_IDENTIFIERS"), kAgeSex);

    parameters.insert(QStringLiteral("COUNT_FIELD"), QStringLiteral("weight"));
    EXPECT_EQ(
        failure(runAlgorithm(kAlgorithm, parameters)).rfind("COUNT_FIELD: INPUT has no field 'weight'", 0),
        0u);
    parameters.remove(QStringLiteral("COUNT_FIELD"));

    parameters.insert(QStringLiteral("K"), 1);
    EXPECT_EQ(failure(runAlgorithm(kAlgorithm, parameters)).rfind("K: k is 1,", 0), 0u);
}

TEST(CheckAnonymity, InQgisDesktopErrorsLeadWithTheDialogsLabels)
{
    // The plugin shows labels in QGIS desktop (vbas_show_dialog_labels()); the name stays, for scripts.
    struct LabelsShown
    {
        LabelsShown() { VbasParameters::showLabels(true); }
        ~LabelsShown() { VbasParameters::showLabels(false); }
    } shown;
    const auto table = makeTable(kRegionAgeSex, repeated({"R1", "young", "F"}, 3));
    QVariantMap parameters = checkParameters(table.get(), kAgeSex, 2);
    parameters.insert(QStringLiteral("REGION_FIELD"), QStringLiteral("regoin"));
    EXPECT_EQ(
        failure(runAlgorithm(kAlgorithm, parameters)),
        "Released region field \u2014 REGION_FIELD: INPUT has no field 'regoin'; choose one of its fields "
        "(region, age, sex)");
    parameters.insert(QStringLiteral("REGION_FIELD"), QStringLiteral("region"));
    parameters.insert(QStringLiteral("K"), 1);
    EXPECT_EQ(failure(runAlgorithm(kAlgorithm, parameters)).rfind("Smallest group k \u2014 K: k is 1,", 0),
              0u);
}

/** One bad count value, in a field of the given type. */
struct BadCount
{
    const char* name;
    const char* fieldType;
    QVariant value;
    const char* shownAs;
};

void PrintTo(const BadCount& bad, std::ostream* out)
{
    *out << bad.name;
}

std::string badCountName(const ::testing::TestParamInfo<BadCount>& param)
{
    return param.param.name;
}

class CheckAnonymityBadCount : public ::testing::TestWithParam<BadCount>
{
};

TEST_P(CheckAnonymityBadCount, IsRejectedNamingCountField)
{
    const BadCount& bad = GetParam();
    const auto table = makeTable({QStringLiteral("region:string"), QStringLiteral("n:") + bad.fieldType},
                                 {{"A", 3}, {"A", bad.value}});
    const std::string error =
        failure(runAlgorithm(kAlgorithm, checkParameters(table.get(), {}, 2, QStringLiteral("n"))));
    EXPECT_EQ(error.rfind(std::string("COUNT_FIELD: feature 2 has the count '") + bad.shownAs + "'", 0), 0u)
        << error;
}

INSTANTIATE_TEST_SUITE_P(
    Values, CheckAnonymityBadCount,
    ::testing::Values(BadCount{"Negative", "double", -2, "-2"}, BadCount{"Fraction", "double", 2.5, "2.5"},
                      BadCount{"Null", "double", VbasCompat::nullOf(VbasCompat::FieldTypeDouble), "NULL"},
                      BadCount{"Text", "string", "three", "three"}),
    badCountName);

// Issue 40: t-closeness in the checker, worked by hand. Three groups of 5 (k = 5) whose scores are all 1, all
// 2 and all 3; the table's distribution is (1/3, 1/3, 1/3). As numbers (ordered distance, m = 3 values 1/2
// apart), the cumulated differences are 2/3, 1/3 for the 1s (EMD (2/3 + 1/3) / 2 = 1/2), -1/3, 1/3 for the 2s
// (1/3) and -2/3, -1/3 for the 3s (1/2): at t = 0.4 the 1s and 3s fail, the 2s pass. As categories every two
// values are equally far: half the L1 distance, (2/3 + 1/3 + 1/3) / 2 = 2/3 for each group: all fail at 0.4,
// none at 0.7.
TEST(CheckAnonymity, TClosenessIsOrderedForNumbersAndEqualForCategories)
{
    const auto rows = [](const char* one, const char* two, const char* three)
    {
        return repeated({"R1", "a", one}, 5) + repeated({"R2", "a", two}, 5) +
               repeated({"R3", "a", three}, 5);
    };
    const auto check = [](QgsVectorLayer* layer, double t)
    {
        QVariantMap parameters = checkParameters(layer, {QStringLiteral("qi")}, 5);
        parameters.insert(QStringLiteral("SENSITIVE_FIELDS"), QStringList{QStringLiteral("score")});
        parameters.insert(QStringLiteral("T"), t);
        return runAlgorithm(kAlgorithm, parameters);
    };
    const auto numbers = makeTable(
        {QStringLiteral("region:string"), QStringLiteral("qi:string"), QStringLiteral("score:integer")},
        rows("1", "2", "3"));
    const AlgorithmRun ordered = check(numbers.get(), 0.4);
    expectSummary(ordered, 3, 15, 2, 10, 5, QStringLiteral("FAIL"));
    std::vector<std::string> failing;
    for (const QgsAttributes& row : ordered.outputRows)
        failing.push_back(
            QStringLiteral("%1|%2").arg(row.at(0).toString(), row.at(2).toString()).toStdString());
    EXPECT_EQ(failing, (std::vector<std::string>{"R1|5", "R3|5"}));

    const auto categories = makeTable(
        {QStringLiteral("region:string"), QStringLiteral("qi:string"), QStringLiteral("score:string")},
        rows("low", "mid", "high"));
    expectSummary(check(categories.get(), 0.4), 3, 15, 3, 15, 5, QStringLiteral("FAIL"));
    expectSummary(check(categories.get(), 0.7), 3, 15, 0, 0, 5, QStringLiteral("PASS"));
}

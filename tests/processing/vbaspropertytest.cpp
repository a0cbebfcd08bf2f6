// Property test of the QGIS side: random small inputs through vbas:aggregateregions and
// vbas:partitionregions, one test per strategy combination of the engine's registry. Every run either
// fails naming the parameter an independent look at the input predicts, or gives a release that the
// verifier vbas:checkanonymity passes and whose records all add up, recounted from the layers
// (releasecheck.h), or is refused as a release that would publish nothing, which it can only be when no small
// area holds k records of one class. VBAS_PROPERTY_SCENARIOS sets the scenarios per combination (default
// below).

#include "Registry.h"
#include "randomscenario.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace
{
/**
 * Scenarios per combination in the default test run (over 10,000 random releases in all); longer runs set
 * VBAS_PROPERTY_SCENARIOS.
 */
constexpr int kDefaultScenarios = 300;

int scenarioCount()
{
    const char* configured = std::getenv("VBAS_PROPERTY_SCENARIOS");
    return configured != nullptr ? std::max(1, std::atoi(configured)) : kDefaultScenarios;
}

/**
 * Every site location unrefined and with each registered refinement, for every partition; then
 * partitionregions per partition.
 */
std::vector<StrategyCombination> combinations()
{
    const vbas::Registry& registry = vbas::Registry::builtIn();
    QStringList switches{QString()};
    for (const auto& refiner : registry.siteRefiners)
        switches << QString::fromStdString(refiner.switchKey).toUpper();
    std::vector<StrategyCombination> all;
    for (const auto& partitioner : registry.partitioners)
    {
        const QString partition = QString::fromStdString(partitioner.id);
        for (const auto& locator : registry.siteLocators)
            for (const QString& refinerSwitch : switches)
                all.push_back(
                    {"vbas:aggregateregions", QString::fromStdString(locator.id), refinerSwitch, partition});
        all.push_back({"vbas:partitionregions", QString(), QString(), partition});
    }
    return all;
}

/** Two squares, four records, and a correct release of them as VBAS would give it: A and B apart, k = 2. */
struct HandRelease
{
    std::unique_ptr<QgsVectorLayer> regions = makeSquares({"A", "B"});
    std::unique_ptr<QgsVectorLayer> records =
        makeTable({"rid:integer", "area:string", "sex:string"},
                  {{1, "A", "F"}, {2, "A", "F"}, {3, "B", "M"}, {4, "B", "M"}});
    QList<QVariantList> released{{1, 1, "F"}, {2, 1, "F"}, {3, 2, "M"}, {4, 2, "M"}};
    qint64 claimedReleased = 4;

    AlgorithmRun run() const
    {
        AlgorithmRun run;
        run.ok = true;
        run.results = {{"INPUT_RECORDS", 4},
                       {"RECORDS_RELEASED", claimedReleased},
                       {"RECORDS_DROPPED", 0},
                       {"SUPPRESSED", 4 - claimedReleased}};
        run.layers["OUTPUT_RECORDS"] =
            makeTable({"rid:integer", "aggregate_id:integer", "sex:string"}, released);
        run.layers["OUTPUT_MAPPING"] = makeTable({"id:string", "aggregate_id:integer"}, {{"A", 1}, {"B", 2}});
        return run;
    }
    ReleaseInput input() const
    {
        return {regions.get(), "id", records.get(), "area", "rid", {"sex"}, QString(), 2};
    }
};

/** Returns the messages of the failures `check` reports, caught instead of failing the test. */
template <typename Check> QString failuresOf(Check check)
{
    testing::TestPartResultArray results;
    {
        const testing::ScopedFakeTestPartResultReporter reporter(
            testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
        check();
    }
    QString messages;
    for (int i = 0; i < results.size(); ++i)
        messages += QString::fromStdString(results.GetTestPartResult(i).message()) + '\n';
    return messages;
}

std::string combinationName(const testing::TestParamInfo<StrategyCombination>& info)
{
    const StrategyCombination& combination = info.param;
    QString name = combination.algorithm.section(':', 1) + '_' + combination.partition.section('.', 1);
    if (!combination.siteLocation.isEmpty())
        name += '_' + combination.siteLocation.section('.', 1) +
                (combination.refinerSwitch.isEmpty() ? QString() : '_' + combination.refinerSwitch.toLower());
    return name.toStdString();
}
} // namespace

class PropertyRelease : public testing::TestWithParam<StrategyCombination>
{
};

TEST_P(PropertyRelease, EveryRandomInputIsReleasedSoundlyOrRejectedByName)
{
    const StrategyCombination& combination = GetParam();
    const int scenarios = scenarioCount();
    // Seeds apart per combination, so that every combination sees other inputs.
    const std::uint64_t firstSeed =
        std::hash<std::string>{}(combinationName({combination, 0})) % 1000000 * 1000;
    int released = 0;
    int rejected = 0;
    int empty = 0;
    for (int i = 0; i < scenarios && !HasFailure(); ++i)
    {
        const RandomScenario scenario(firstSeed + std::uint64_t(i), combination);
        SCOPED_TRACE(scenario.describe().toStdString());
        const AlgorithmRun run = runAlgorithm(scenario.algorithm, scenario.parameters);
        if (!scenario.expectedError.isEmpty())
        {
            EXPECT_FALSE(run.ok);
            EXPECT_TRUE(run.results.isEmpty());
            EXPECT_TRUE(run.errors.startsWith(scenario.expectedError + ": ")) << run.errors.toStdString();
            ++rejected;
            continue;
        }
        if (!run.ok && run.errors.startsWith(
                           QStringLiteral("K: with k = %1 no record can be released").arg(scenario.input.k)))
        {
            EXPECT_FALSE(scenario.someAreaHoldsKOfAClass) << "an aggregate holding it would release them";
            ++empty;
            continue;
        }
        ASSERT_TRUE(run.ok) << run.errors.toStdString();
        expectSoundRelease(run, scenario.input);
        ++released;
    }
    std::cout << "[ figures  ] " << released << " releases checked, " << rejected << " inputs rejected, "
              << empty << " refused as empty\n";
}

INSTANTIATE_TEST_SUITE_P(Registry, PropertyRelease, testing::ValuesIn(combinations()), combinationName);

TEST(ReleaseCheck, PassesTheHandRelease)
{
    const HandRelease release;
    const ReleaseRecount recount = expectSoundRelease(release.run(), release.input());
    EXPECT_EQ(recount.released, 4);
}

TEST(ReleaseCheck, CatchesAGroupBelowK)
{
    HandRelease release;
    release.released[2][2] = "F"; // B then holds one F and one M
    EXPECT_TRUE(failuresOf([&] { expectSoundRelease(release.run(), release.input()); }).contains("\"FAIL\""));
}

TEST(ReleaseCheck, CatchesARecordInTheWrongAggregate)
{
    HandRelease release;
    release.released = {{1, 2, "F"}, {2, 2, "F"}, {3, 2, "M"}, {4, 2, "M"}};
    EXPECT_TRUE(failuresOf([&] { expectSoundRelease(release.run(), release.input()); })
                    .contains("is not a whole group of the input"));
}

TEST(ReleaseCheck, CatchesALostRecord)
{
    HandRelease release;
    release.released.removeLast(); // and the numbers still say 4 released
    EXPECT_TRUE(
        failuresOf([&] { expectSoundRelease(release.run(), release.input()); }).contains("RECORDS_RELEASED"));
}

TEST(ReleaseCheck, CatchesARecordReleasedTwice)
{
    HandRelease release;
    release.released.append({1, 1, "F"});
    release.claimedReleased = 5;
    EXPECT_TRUE(failuresOf([&] { expectSoundRelease(release.run(), release.input()); })
                    .contains("is not a whole group of the input"));
}

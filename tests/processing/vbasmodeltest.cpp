// The example model of docs/examples (estimate -> aggregate with the estimate -> verify), run headless
// the way the Model Builder runs it: VBAS steps chain through their numeric and layer outputs. The model
// names its strategies by id, as models saved before the dialog showed names did: they still load.

#include "processingtestutils.h"
#include "realdata.h"

#include <qgsprocessing.h>
#include <qgsprocessingmodelalgorithm.h>

#include <gtest/gtest.h>

TEST(Model, ExampleModelChainsTheStepsAndItsReleasePassesTheVerifier)
{
    QgsProcessingModelAlgorithm model;
    ASSERT_TRUE(model.fromFile(QStringLiteral(VBAS_SOURCE_DIR "/docs/examples/olinda-release.model3")));
    QStringList issues;
    EXPECT_TRUE(model.validate(issues)) << issues.join('\n').toStdString();
    const OlindaInput olinda;
    const QVariantMap parameters{{"tracts", asParameter(olinda.tracts.get())},
                                 {"patients", asParameter(olinda.patients.get())},
                                 {"tract_id", "CD_GEOCODI"},
                                 {"patient_tract", "tract"},
                                 {"quasi_identifiers", QStringList{"age_band", "sex", "married"}},
                                 {"k", 5},
                                 {"no_ledger", true},
                                 {"release:Released regions", QgsProcessing::TEMPORARY_OUTPUT},
                                 {"release:Released patients", QgsProcessing::TEMPORARY_OUTPUT}};
    const AlgorithmRun run = runAlgorithm(model, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();

    // The estimate by hand for age band, sex and marital status (e = 20): mean class size
    // 18,897 / (470 * 20) = 2.01, ceil(5 / 2.01) = 3 tracts per region, floor(470 * 0.2 / 3) = 31.
    EXPECT_EQ(outputLayer(run, "release:Released regions")->featureCount(), 31);
    QgsVectorLayer* released = outputLayer(run, "release:Released patients");
    EXPECT_EQ(checkAnonymity(released, "aggregate_id", {"age_band", "sex", "married"}, 5), "PASS");
    const QVariantMap children = run.results.value("CHILD_RESULTS").toMap();
    EXPECT_EQ(children.value("estimate").toMap().value("ESTIMATED_SITES").toLongLong(), 31);
    EXPECT_EQ(children.value("verify").toMap().value("VERDICT").toString(), "PASS");
    EXPECT_EQ(children.value("verify").toMap().value("RECORDS").toLongLong(), released->featureCount());
}

TEST(Model, ExampleModelTakesItsFieldsAsInputs)
{
    // The fields are model inputs (Olinda's names their defaults), so the model serves other data. Two
    // quasi-identifiers (age band, sex: e = 10): mean class size 18,897 / (470 * 10) = 4.02,
    // ceil(5 / 4.02) = 2 tracts per region, floor(470 * 0.2 / 2) = 47.
    QgsProcessingModelAlgorithm model;
    ASSERT_TRUE(model.fromFile(QStringLiteral(VBAS_SOURCE_DIR "/docs/examples/olinda-release.model3")));
    const OlindaInput olinda;
    const QVariantMap parameters{{"tracts", asParameter(olinda.tracts.get())},
                                 {"patients", asParameter(olinda.patients.get())},
                                 {"tract_id", "CD_GEOCODI"},
                                 {"patient_tract", "tract"},
                                 {"quasi_identifiers", QStringList{"age_band", "sex"}},
                                 {"k", 5},
                                 {"no_ledger", true},
                                 {"release:Released regions", QgsProcessing::TEMPORARY_OUTPUT},
                                 {"release:Released patients", QgsProcessing::TEMPORARY_OUTPUT}};
    const AlgorithmRun run = runAlgorithm(model, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    const QVariantMap children = run.results.value("CHILD_RESULTS").toMap();
    EXPECT_EQ(children.value("estimate").toMap().value("ESTIMATED_SITES").toLongLong(), 47);
    EXPECT_EQ(outputLayer(run, "release:Released regions")->featureCount(), 47);
    EXPECT_EQ(
        checkAnonymity(outputLayer(run, "release:Released patients"), "aggregate_id", {"age_band", "sex"}, 5),
        "PASS");
    EXPECT_EQ(children.value("verify").toMap().value("VERDICT").toString(), "PASS");
}

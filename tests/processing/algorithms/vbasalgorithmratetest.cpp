// vbas:rateaggregation on real aggregations: Boston's towns, recounted independently, and a VBAS
// release rated again from its own mapping.

#include "processingtestutils.h"
#include "realdata.h"

#include <qgsprocessing.h>

#include <gtest/gtest.h>

TEST(RateAggregation, BostonTownsSuppressWhatAnIndependentRecountPredicts)
{
    const auto tracts = openData(QStringLiteral("tests/boston.gpkg"), QStringLiteral("tracts"));
    const auto patients = openData(QStringLiteral("tests/boston_patients.csv"));
    const QStringList quasiIdentifiers{"age_band", "sex"};

    // The recount: each patient's town through its tract; groups (town, age band, sex) below 5 are
    // what local suppression must withhold (no class is below 5 overall, data/README.md).
    QMap<QString, QString> townOf;
    QgsFeature feature;
    QgsFeatureIterator tractFeatures = tracts->getFeatures();
    while (tractFeatures.nextFeature(feature))
        townOf.insert(feature.attribute("poltract").toString(), feature.attribute("TOWN").toString());
    QMap<QStringList, qint64> groups;
    QgsFeatureIterator patientFeatures = patients->getFeatures();
    while (patientFeatures.nextFeature(feature))
        ++groups[{townOf.value(feature.attribute("tract").toString()),
                  feature.attribute("age_band").toString(), feature.attribute("sex").toString()}];
    QMap<QString, qint64> releasedPerTown;
    qint64 suppressed = 0;
    for (auto it = groups.constBegin(); it != groups.constEnd(); ++it)
    {
        if (it.value() < 5)
            suppressed += it.value();
        else
            releasedPerTown[it.key().constFirst()] += it.value();
    }
    EXPECT_EQ(suppressed, 287) << "the same recount in Python (csv + ogr) gives 287";

    const QVariantMap parameters{
        {"REGIONS", asParameter(tracts.get())},      {"REGION_ID_FIELD", "poltract"},
        {"RECORDS", asParameter(patients.get())},    {"RECORD_REGION_FIELD", "tract"},
        {"QUASI_IDENTIFIERS", quasiIdentifiers},     {"AGGREGATE_FIELD", "TOWN"},
        {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT}, {"OUTPUT_RECORDS", QgsProcessing::TEMPORARY_OUTPUT}};
    const AlgorithmRun run = runAlgorithm("vbas:rateaggregation", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(number(run, "AGGREGATES"), 92);
    EXPECT_EQ(number(run, "SUPPRESSED_LOCAL"), suppressed);
    EXPECT_EQ(number(run, "RECORDS_RELEASED"), 27006 - suppressed);
    QgsVectorLayer* aggregates = outputLayer(run, "OUTPUT");
    QgsFeatureIterator aggregateFeatures = aggregates->getFeatures();
    while (aggregateFeatures.nextFeature(feature))
        EXPECT_EQ(feature.attribute("released").toLongLong(),
                  releasedPerTown.value(feature.attribute("aggregate_id").toString()))
            << feature.attribute("aggregate_id").toString().toStdString();
    EXPECT_EQ(checkAnonymity(outputLayer(run, "OUTPUT_RECORDS"), "aggregate_id", quasiIdentifiers, 5),
              "PASS");
    EXPECT_EQ(expectAreasMatchMembers(*aggregates, *tracts, *tracts, "poltract", 1e-5, "TOWN"), 92);
}

TEST(RateAggregation, ASmallAreaWithoutAggregateIsNamed)
{
    // 12 rural Olinda tracts have no neighbourhood (data/README.md).
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters({"age_band", "sex"});
    parameters.insert("AGGREGATE_FIELD", "NM_BAIR");
    const AlgorithmRun run = runAlgorithm("vbas:rateaggregation", parameters);
    EXPECT_FALSE(run.ok);
    EXPECT_TRUE(run.errors.startsWith("AGGREGATE_FIELD: feature ")) << run.errors.toStdString();
    EXPECT_TRUE(run.errors.contains("has no aggregate (NULL)")) << run.errors.toStdString();
}

TEST(RateAggregation, RatingAReleaseFromItsMappingGivesItsFigures)
{
    const OlindaInput olinda;
    const AlgorithmRun release = runAlgorithm("vbas:aggregateregions", olinda.parameters());
    ASSERT_TRUE(release.ok) << release.errors.toStdString();

    QVariantMap parameters = olinda.parameters();
    parameters.insert("REGIONS", asParameter(outputLayer(release, "OUTPUT_MAPPING")));
    parameters.insert("AGGREGATE_FIELD", "aggregate_id");
    const AlgorithmRun rated = runAlgorithm("vbas:rateaggregation", parameters);
    ASSERT_TRUE(rated.ok) << rated.errors.toStdString();
    for (const char* name : {"AGGREGATES", "RECORDS_RELEASED", "SUPPRESSED_GLOBAL", "SUPPRESSED_LOCAL",
                             "DISCERNIBILITY", "GLOBAL_ANONYMITY", "GLOBAL_ANONYMITY_AFTER"})
        EXPECT_EQ(number(rated, name), number(release, name)) << name;
    for (const char* name : {"PRECISION_LOSS", "NON_UNIFORM_ENTROPY", "ANONYMITY_DEVIATION"})
        EXPECT_NEAR(rated.results.value(name).toDouble(), release.results.value(name).toDouble(), 1e-9)
            << name;
    // An aggregation has no sites: distances go to the mean of the members, which is what the
    // release's alternative average distance measures.
    EXPECT_NEAR(rated.results.value("AVERAGE_DISTANCE").toDouble(),
                release.results.value("ALTERNATIVE_AVERAGE_DISTANCE").toDouble(), 1e-6);
}

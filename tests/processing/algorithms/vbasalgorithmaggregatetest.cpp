// vbas:aggregateregions on the repository's real data, every result checked without VBAS's engine:
// group recounts, the independent verifier vbas:checkanonymity, the figures of data/README.md, and
// areas measured by QGIS on the original polygons.

#include "processingtestutils.h"
#include "realdata.h"
#include "vbasqgiscompat.h"

#include <qgsapplication.h>
#include <qgsmemoryproviderutils.h>
#include <qgsprocessing.h>
#include <qgsprocessingregistry.h>
#include <qgswkbtypes.h>

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <gtest/gtest.h>

namespace
{
const QString kAggregate = QStringLiteral("vbas:aggregateregions");
} // namespace

TEST(AggregateRegions, OlindaReleaseIsKAnonymousAndAccountsForEveryRecord)
{
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters();
    parameters.insert("OUTPUT_REVIEW", QgsProcessing::TEMPORARY_OUTPUT);
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    QgsVectorLayer* records = outputLayer(run, "OUTPUT_RECORDS");
    QgsVectorLayer* aggregates = outputLayer(run, "OUTPUT");
    QgsVectorLayer* review = outputLayer(run, "OUTPUT_REVIEW");
    ASSERT_TRUE(records && aggregates && review);

    // k-anonymous when recounted from the output alone, by our own count and by the verifier.
    const Recount recount = recountGroups(*records, QStringList{"aggregate_id"} + kOlindaQuasiIdentifiers);
    EXPECT_GE(recount.smallestGroup, 5);
    EXPECT_EQ(checkAnonymity(records, "aggregate_id", kOlindaQuasiIdentifiers, 5), "PASS");

    // Released + suppressed = input. data/README.md: with these four QIs 3 classes hold fewer than 5
    // records in the whole table, 5 records in all: global suppression withholds exactly those.
    EXPECT_EQ(recount.records, number(run, "RECORDS_RELEASED"));
    EXPECT_EQ(number(run, "INPUT_RECORDS"), kOlindaPatients);
    EXPECT_EQ(number(run, "RECORDS_RELEASED") + number(run, "SUPPRESSED"), kOlindaPatients);
    EXPECT_EQ(number(run, "SUPPRESSED_GLOBAL"), 5);
    EXPECT_EQ(number(run, "SUPPRESSED_GLOBAL") + number(run, "SUPPRESSED_LOCAL"), number(run, "SUPPRESSED"));
    EXPECT_EQ(qint64(sumOf(*aggregates, "released")), number(run, "RECORDS_RELEASED"));
    EXPECT_EQ(qint64(sumOf(*review, "suppressed_local") + sumOf(*review, "suppressed_global")),
              number(run, "SUPPRESSED"));
    EXPECT_GT(number(run, "SUPPRESSED_LOCAL"), 0) << "four QIs on small areas leave some groups below k";

    // The region replaced by an aggregate id and the quasi-identifiers, no other field and no geometry.
    EXPECT_EQ(records->fields().names(), QStringList{"aggregate_id"} + kOlindaQuasiIdentifiers);
    EXPECT_EQ(records->wkbType(), VbasCompat::WkbNoGeometry);
    const QMap<QString, qint64> perAggregate = countByValue(*records, "aggregate_id");
    const QMap<QString, qint64> aggregateIds = countByValue(*aggregates, "aggregate_id");
    for (auto it = perAggregate.constBegin(); it != perAggregate.constEnd(); ++it)
        EXPECT_TRUE(aggregateIds.contains(it.key())) << it.key().toStdString();

    // Outputs open cleanly in the source CRS: multipolygons, 470 tracts mapped, one point per site.
    EXPECT_EQ(aggregates->crs().authid(), "EPSG:4674");
    EXPECT_EQ(aggregates->wkbType(), VbasCompat::WkbMultiPolygon);
    EXPECT_EQ(aggregates->featureCount(), number(run, "AGGREGATES"));
    EXPECT_EQ(outputLayer(run, "OUTPUT_MAPPING")->featureCount(), 470);
    EXPECT_EQ(outputLayer(run, "OUTPUT_MAPPING")->crs().authid(), "EPSG:4674");
    EXPECT_EQ(outputLayer(run, "OUTPUT_SITES")->featureCount(),
              number(run, "AGGREGATES") + number(run, "EMPTY_SITES"));
    EXPECT_GE(number(run, "GLOBAL_ANONYMITY_AFTER"), 5);
}

TEST(AggregateRegions, OlindaAggregateAreasEqualTheSumOfTheirTracts)
{
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters({"age_band", "sex"});
    parameters.insert("REPRESENTATIVE_POINT", "point_on_surface");
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    // area_m2 is planar in the equidistant projection VBAS computes in; over Olinda's 10 km its scale
    // differs from the ellipsoid by less than 1e-6.
    EXPECT_EQ(expectAreasMatchMembers(*outputLayer(run, "OUTPUT"), *outputLayer(run, "OUTPUT_MAPPING"),
                                      *olinda.tracts, "CD_GEOCODI", 1e-5),
              number(run, "AGGREGATES"));
}

TEST(AggregateRegions, KeptSuppressedRecordsAreFlaggedAndHaveNoRegion)
{
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters();
    parameters.insert("KEEP_SUPPRESSED", true);
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    QgsVectorLayer* records = outputLayer(run, "OUTPUT_RECORDS");
    EXPECT_EQ(records->featureCount(), kOlindaPatients);
    const QMap<QString, qint64> fates = countByValue(*records, "vbas_fate");
    EXPECT_EQ(fates.value("released"), number(run, "RECORDS_RELEASED"));
    EXPECT_EQ(fates.value("suppressed_global"), 5);
    EXPECT_EQ(fates.value("suppressed_local"), number(run, "SUPPRESSED_LOCAL"));
    EXPECT_EQ(countByValue(*records, "aggregate_id").value("NULL"), number(run, "SUPPRESSED"));

    records->setSubsetString(QStringLiteral("\"vbas_fate\" = 'released'"));
    EXPECT_EQ(checkAnonymity(records, "aggregate_id", kOlindaQuasiIdentifiers, 5), "PASS");
}

TEST(AggregateRegions, WithoutQuasiIdentifiersTheMainJobIsRefusedAndPointsAtThePopulationFloor)
{
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters();
    parameters.remove("QUASI_IDENTIFIERS");
    for (const QVariant& none : {QVariant(), QVariant(QStringList())})
    {
        if (none.isValid())
            parameters.insert("QUASI_IDENTIFIERS", none);
        const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
        EXPECT_FALSE(run.ok);
        EXPECT_TRUE(
            run.errors.contains("QUASI_IDENTIFIERS: choose the fields an attacker may know about a person "
                                "(age, sex...)"))
            << run.errors.toStdString();
        EXPECT_TRUE(run.errors.contains("'Aggregate to a population floor' (vbas:populationfloor)"));
        // QGIS's own check before a run says the same.
        QString message;
        std::unique_ptr<QgsProcessingAlgorithm> algorithm(
            QgsApplication::processingRegistry()->createAlgorithmById(kAggregate));
        QgsProcessingContext context;
        EXPECT_FALSE(algorithm->checkParameterValues(parameters, context, &message));
        EXPECT_TRUE(message.startsWith("QUASI_IDENTIFIERS: choose the fields an attacker may know"))
            << message.toStdString();
    }
}

TEST(PopulationFloor, EveryRegionReachesThePopulationFloorAndTheLogSaysWhatItDoesNotProtect)
{
    // The tracts are their own records, weighted by population (377,779 residents, data/README.md).
    const OlindaInput olinda;
    const QVariantMap parameters{{"REGIONS", asParameter(olinda.tracts.get())},
                                 {"REGION_ID_FIELD", "CD_GEOCODI"},
                                 {"RECORDS", asParameter(olinda.tracts.get())},
                                 {"RECORD_REGION_FIELD", "CD_GEOCODI"},
                                 {"COUNT_FIELD", "V014"},
                                 {"K", 20000},
                                 {"SITE_COUNT_METHOD", "sitecount.naive_anonymity"},
                                 {"SITE_COUNT_OFFSET", 1.0},
                                 {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT},
                                 {"OUTPUT_RECORDS", QgsProcessing::TEMPORARY_OUTPUT}};
    const AlgorithmRun run = runAlgorithm("vbas:populationfloor", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_TRUE(
        run.log.contains("Population floor: every released region holds at least 20000 records. No "
                         "quasi-identifiers were given, so nothing protects a person whose age, sex or "
                         "other values someone knows"))
        << run.log.toStdString();
    QgsVectorLayer* records = outputLayer(run, "OUTPUT_RECORDS");
    EXPECT_EQ(checkAnonymity(records, "aggregate_id", {}, 20000, "V014"), "REGION_SIZES_PASS");
    const Recount recount = recountGroups(*records, {"aggregate_id"}, "V014");
    EXPECT_GE(recount.smallestGroup, 20000);
    EXPECT_EQ(recount.records + number(run, "SUPPRESSED"), 377779);
    // Naive count by hand: mean 377,779 / 470 = 803.8 per tract, 25 tracts reach 20,000, 470 / 25 = 18.
    EXPECT_EQ(number(run, "AGGREGATES") + number(run, "EMPTY_SITES"), 18);
}

TEST(AggregateRegions, BostonInNad27KeepsItsCrsAndAreas)
{
    const auto tracts = openData(QStringLiteral("tests/boston.gpkg"), QStringLiteral("tracts"));
    const auto patients = openData(QStringLiteral("tests/boston_patients.csv"));
    const QStringList quasiIdentifiers{"age_band", "sex", "married"};
    const QVariantMap parameters{{"REGIONS", asParameter(tracts.get())},
                                 {"REGION_ID_FIELD", "poltract"},
                                 {"RECORDS", asParameter(patients.get())},
                                 {"RECORD_REGION_FIELD", "tract"},
                                 {"QUASI_IDENTIFIERS", quasiIdentifiers},
                                 {"SITE_COUNT_METHOD", "sitecount.naive_anonymity"},
                                 {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT},
                                 {"OUTPUT_MAPPING", QgsProcessing::TEMPORARY_OUTPUT},
                                 {"OUTPUT_RECORDS", QgsProcessing::TEMPORARY_OUTPUT}};
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(outputLayer(run, "OUTPUT")->crs().authid(), "EPSG:4267");
    EXPECT_EQ(checkAnonymity(outputLayer(run, "OUTPUT_RECORDS"), "aggregate_id", quasiIdentifiers, 5),
              "PASS");
    EXPECT_EQ(number(run, "RECORDS_RELEASED") + number(run, "SUPPRESSED"), 27006);
    EXPECT_EQ(number(run, "SUPPRESSED_GLOBAL"), 0) << "data/README.md: no class below 5 with these QIs";
    expectAreasMatchMembers(*outputLayer(run, "OUTPUT"), *outputLayer(run, "OUTPUT_MAPPING"), *tracts,
                            "poltract", 1e-5);
}

TEST(AggregateRegions, InvalidPolygonsAreRepairedAndCounted)
{
    // ny8 holds 5 self-intersecting tracts (data/README.md), in UTM metres: computed in its own CRS.
    const auto tracts = openData(QStringLiteral("tests/ny8.gpkg"), QStringLiteral("tracts"));
    const QVariantMap parameters{{"REGIONS", asParameter(tracts.get())},
                                 {"REGION_ID_FIELD", "AREAKEY"},
                                 {"RECORDS", asParameter(tracts.get())},
                                 {"RECORD_REGION_FIELD", "AREAKEY"},
                                 {"COUNT_FIELD", "POP8"},
                                 {"K", 50000},
                                 {"SITE_COUNT_METHOD", "sitecount.fixed"},
                                 {"SITE_COUNT", 15},
                                 {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT},
                                 {"OUTPUT_MAPPING", QgsProcessing::TEMPORARY_OUTPUT},
                                 {"OUTPUT_RECORDS", QgsProcessing::TEMPORARY_OUTPUT}};
    const AlgorithmRun run = runAlgorithm("vbas:populationfloor", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_TRUE(run.log.contains("5 invalid region polygons were repaired")) << run.log.toStdString();
    EXPECT_TRUE(run.log.contains("computing in the CRS of REGIONS")) << run.log.toStdString();
    EXPECT_EQ(number(run, "RECORDS_RELEASED") + number(run, "SUPPRESSED"), 1057673);
    EXPECT_EQ(checkAnonymity(outputLayer(run, "OUTPUT_RECORDS"), "aggregate_id", {}, 50000, "POP8"),
              "REGION_SIZES_PASS");
    // In a projected CRS area_m2 is the planar area QGIS measures too.
    expectAreasMatchMembers(*outputLayer(run, "OUTPUT"), *outputLayer(run, "OUTPUT_MAPPING"), *tracts,
                            "AREAKEY", 1e-9);
}

TEST(AggregateRegions, GeoPackageTableOfRealCasesWithMissingValues)
{
    // 636 meningococcal cases on 413 German districts (EPSG:3035); sex and agegrp hold the literal 'NA'.
    const auto districts = openData(QStringLiteral("tests/de_districts.gpkg"), QStringLiteral("districts"));
    const auto cases = openData(QStringLiteral("tests/de_districts.gpkg"), QStringLiteral("imd_cases"));
    const QTemporaryDir folder;
    const QVariantMap parameters{{"REGIONS", asParameter(districts.get())},
                                 {"REGION_ID_FIELD", "KEY"},
                                 {"RECORDS", asParameter(cases.get())},
                                 {"RECORD_REGION_FIELD", "tile"},
                                 {"QUASI_IDENTIFIERS", QStringList{"sex", "agegrp"}},
                                 {"K", 3},
                                 {"ADC", true},
                                 {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT},
                                 {"OUTPUT_RECORDS", QgsProcessing::TEMPORARY_OUTPUT},
                                 {"OUTPUT_HTML_FILE", folder.filePath("report.html")}};
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(outputLayer(run, "OUTPUT")->crs().authid(), "EPSG:3035");
    EXPECT_EQ(checkAnonymity(outputLayer(run, "OUTPUT_RECORDS"), "aggregate_id", {"sex", "agegrp"}, 3),
              "PASS");
    EXPECT_EQ(number(run, "RECORDS_RELEASED") + number(run, "SUPPRESSED"), 636);
    // The refinement ran: the report says what it did (the log stays quiet about it).
    QFile report(folder.filePath("report.html"));
    ASSERT_TRUE(report.open(QIODevice::ReadOnly));
    EXPECT_TRUE(QString::fromUtf8(report.readAll()).contains("<p>Site refinement: "));
}

TEST(AggregateRegions, WritesGeoPackageLayersAndAnHtmlReport)
{
    const OlindaInput olinda;
    const QTemporaryDir folder;
    const QString gpkg = folder.filePath("release.gpkg");
    QVariantMap parameters = olinda.parameters({"age_band", "sex"});
    parameters.insert("OUTPUT", QStringLiteral("ogr:dbname='%1' table=\"aggregates\" (geom)").arg(gpkg));
    parameters.insert("OUTPUT_SITES", QStringLiteral("ogr:dbname='%1' table=\"sites\" (geom)").arg(gpkg));
    parameters.insert("OUTPUT_RECORDS", folder.filePath("records.csv"));
    parameters.insert("OUTPUT_MAPPING", QVariant());
    parameters.insert("OUTPUT_CELLS", folder.filePath("cells.gpkg"));
    parameters.insert("OUTPUT_HTML_FILE", folder.filePath("report.html"));
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_FALSE(run.results.contains("OUTPUT_MAPPING"));
    EXPECT_EQ(outputLayer(run, "OUTPUT_RECORDS")->featureCount(), number(run, "RECORDS_RELEASED"));
    EXPECT_EQ(outputLayer(run, "OUTPUT")->featureCount(), number(run, "AGGREGATES"));
    EXPECT_EQ(outputLayer(run, "OUTPUT_SITES")->source(), gpkg + "|layername=sites")
        << "two layers, one GeoPackage";
    EXPECT_EQ(outputLayer(run, "OUTPUT_CELLS")->featureCount(),
              number(run, "AGGREGATES") + number(run, "EMPTY_SITES"));

    QFile report(folder.filePath("report.html"));
    ASSERT_TRUE(report.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(report.readAll());
    EXPECT_TRUE(
        html.contains("No release ledger was kept (NO_LEDGER): nothing stops a second aggregation of these "
                      "small areas from being released"));
    EXPECT_TRUE(html.contains("How far, on average, a small area lies from its region"))
        << "metric meanings from the registry";
    EXPECT_TRUE(html.contains("CD_GEOCODI")) << "the parameters are listed";
    const QString perAggregate = html.section("<h2 id=\"regions\">Every region</h2>", 1);
    EXPECT_EQ(perAggregate.count("<tr data-region="), number(run, "AGGREGATES")) << "a row per aggregate";
}

TEST(AggregateRegions, ReleaseDoesNotDependOnTheOrderOfTheRecords)
{
    // The same patients, last row first: categories are coded in text order, so classes, sites and
    // the whole release come out the same.
    const OlindaInput olinda;
    const std::unique_ptr<QgsVectorLayer> reversed(
        QgsMemoryProviderUtils::createMemoryLayer("reversed", olinda.patients->fields()));
    QgsFeatureList features;
    QgsFeature feature;
    QgsFeatureIterator it = olinda.patients->getFeatures();
    while (it.nextFeature(feature))
        features.prepend(feature);
    ASSERT_TRUE(reversed->dataProvider()->addFeatures(features));

    const AlgorithmRun forward = runAlgorithm(kAggregate, olinda.parameters());
    QVariantMap parameters = olinda.parameters();
    parameters.insert("RECORDS", asParameter(reversed.get()));
    const AlgorithmRun backward = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(forward.ok && backward.ok) << forward.errors.toStdString() << backward.errors.toStdString();
    for (const char* name : {"AGGREGATES", "RECORDS_RELEASED", "SUPPRESSED_LOCAL", "DISCERNIBILITY"})
        EXPECT_EQ(number(backward, name), number(forward, name)) << name;
    EXPECT_EQ(countByValue(*outputLayer(backward, "OUTPUT_RECORDS"), "aggregate_id"),
              countByValue(*outputLayer(forward, "OUTPUT_RECORDS"), "aggregate_id"));
}

// Issue 14: every phase says what it did and how long it took, and the bar moves while the records are read
// again and written, rather than sitting at one share of the writing step. Issue 31: one line per phase.
TEST(AggregateRegions, ProgressMovesThroughEveryPhaseAndTheLogSaysWhatEachDid)
{
    const OlindaInput olinda;
    const AlgorithmRun run = runAlgorithm(kAggregate, olinda.parameters());
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    // One line for each phase: what was read, computed and written.
    const QString seconds = QStringLiteral(" in [0-9.]+ s$");
    const QString written =
        QStringLiteral("Wrote OUTPUT (%1 features), OUTPUT_MAPPING (470 features), OUTPUT_RECORDS (%2 "
                       "features), OUTPUT_SITES (%3 features)")
            .arg(number(run, "AGGREGATES"))
            .arg(number(run, "RECORDS_RELEASED"))
            .arg(number(run, "AGGREGATES") + number(run, "EMPTY_SITES"));
    const QStringList lines = run.log.split('\n');
    for (const QString& phase : {QStringLiteral("Read 470 small areas (REGIONS) and 18897 rows (RECORDS)"),
                                 QStringLiteral("release computed"), written})
        EXPECT_EQ(lines.filter(QRegularExpression('^' + QRegularExpression::escape(phase) + seconds)).size(),
                  1)
            << phase.toStdString() << "\n"
            << run.log.toStdString();

    ASSERT_FALSE(run.progress.isEmpty());
    for (int i = 1; i < run.progress.size(); ++i)
        EXPECT_GE(run.progress[i], run.progress[i - 1] - 1e-9) << "step " << i;
    EXPECT_LE(run.progress.last(), 100.0 + 1e-9);
    // Writing is the last third; of its four outputs (OUTPUT, OUTPUT_MAPPING, OUTPUT_RECORDS, OUTPUT_SITES)
    // the records are the third: 83.3 % to 91.7 %. 18,897 rows read and 18,729 written move it within.
    QSet<double> withinRecords;
    for (const double percent : run.progress)
        if (percent > 200.0 / 3.0 + 100.0 / 3.0 * 2.0 / 4.0 + 0.01 &&
            percent < 200.0 / 3.0 + 100.0 / 3.0 * 3.0 / 4.0 - 0.01)
            withinRecords.insert(percent);
    EXPECT_GE(withinRecords.size(), 4);
}

class AggregateRegionsCanceled : public testing::TestWithParam<double>
{
};

TEST_P(AggregateRegionsCanceled, AtAnyStageOfTheEngineWritesNothing)
{
    const OlindaInput olinda;
    const QTemporaryDir folder;
    QVariantMap parameters = olinda.parameters();
    parameters.insert("ADC", true);
    parameters.insert("OUTPUT", folder.filePath("aggregates.gpkg"));
    parameters.insert("OUTPUT_RECORDS", folder.filePath("records.csv"));
    parameters.insert("OUTPUT_HTML_FILE", folder.filePath("report.html"));
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters, false, GetParam());
    EXPECT_FALSE(run.ok);
    EXPECT_EQ(run.errors.toStdString(), "Canceled by the user; no output was written.");
    EXPECT_TRUE(QDir(folder.path()).isEmpty()) << QDir(folder.path()).entryList().join(' ').toStdString();
}

// Reading tracts, reading records, locating and refining sites, partition and rating, dissolving.
INSTANTIATE_TEST_SUITE_P(Progress, AggregateRegionsCanceled, testing::Values(2.0, 12.0, 30.0, 60.0, 85.0));

TEST(AggregateRegions, TheLogGivesOneCountOfRegions)
{
    // Sex alone at k = 2: the search ends at the most sites there can be (one per small area with records),
    // the locator places fewer, and some of those get no small area. Three counts, which the log must tell
    // apart instead of calling each of them the regions (issue 39: "380 regions are the most within it",
    // then 377 released).
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters({"sex"});
    parameters.insert("K", 2);
    parameters.insert("SITE_COUNT_METHOD", "sitecount.suppression_budget");
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    const qint64 regions = outputLayer(run, "OUTPUT")->featureCount();
    const QRegularExpressionMatch search =
        QRegularExpression(QStringLiteral("(\\d+) sites are the most within it")).match(run.log);
    ASSERT_TRUE(search.hasMatch()) << run.log.toStdString();
    const QRegularExpressionMatch released =
        QRegularExpression(
            QStringLiteral("Released \\d+ of \\d+ records in (\\d+) regions \\(k = 2\\); (\\d+) of "
                           "the (\\d+) sites asked for were placed; (\\d+) of the (\\d+) sites "
                           "received no small area\\."))
            .match(run.log);
    ASSERT_TRUE(released.hasMatch()) << run.log.toStdString();
    EXPECT_EQ(released.captured(1).toLongLong(), regions);
    EXPECT_EQ(released.captured(3), search.captured(1)) << "the sites asked for are those the search found";
    const qint64 placed = released.captured(2).toLongLong(), empty = released.captured(4).toLongLong();
    EXPECT_EQ(released.captured(5).toLongLong(), placed);
    EXPECT_GT(empty, 0) << "the case should have sites without a small area";
    EXPECT_EQ(empty, number(run, "EMPTY_SITES"));
    EXPECT_EQ(placed - empty, regions);
    // No other count of regions in the whole log.
    QRegularExpressionMatchIterator counts =
        QRegularExpression(QStringLiteral("(\\d+) regions\\b")).globalMatch(run.log);
    while (counts.hasNext())
        EXPECT_EQ(counts.next().captured(1).toLongLong(), regions) << run.log.toStdString();
}

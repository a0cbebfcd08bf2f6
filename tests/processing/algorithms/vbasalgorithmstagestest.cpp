// The stages on their own (vbas:estimatesitecount, vbas:selectsites) and the release around given
// sites (vbas:partitionregions), against hand calculations and against the main job.

#include "processingtestutils.h"
#include "realdata.h"
#include "vbasalgorithmestimatesitecount.h"
#include "vbasparameterreader.h"
#include "vbasstrategyparameters.h"

#include <qgsapplication.h>
#include <qgsprocessing.h>
#include <qgsprocessingregistry.h>

#include <gtest/gtest.h>

#include <QSet>

#include <algorithm>
#include <cmath>

namespace
{
QVariantMap estimateParameters(const OlindaInput& olinda, const QStringList& quasiIdentifiers,
                               const QString& method)
{
    QVariantMap parameters = olinda.parameters(quasiIdentifiers);
    parameters.insert("SITE_COUNT_METHOD", method);
    return parameters;
}

/** Returns the Olinda parameters with 12 sites, fixed. */
QVariantMap twelveSites(const OlindaInput& olinda)
{
    QVariantMap parameters = estimateParameters(olinda, {"age_band", "sex"}, "sitecount.fixed");
    parameters.insert("SITE_COUNT", 12);
    return parameters;
}

/** Returns the aggregate_id of every small area (by CD_GEOCODI) of a mapping output. */
QMap<QString, QString> aggregateOf(QgsVectorLayer& mapping)
{
    QMap<QString, QString> aggregates;
    QgsFeature feature;
    QgsFeatureIterator features = mapping.getFeatures();
    while (features.nextFeature(feature))
        aggregates.insert(feature.attribute("CD_GEOCODI").toString(),
                          feature.attribute("aggregate_id").toString());
    return aggregates;
}
} // namespace

TEST(EstimateSiteCount, MatchesHandCalculationsOnOlinda)
{
    const OlindaInput olinda;
    // age_band x sex: e = 5 * 2 = 10 classes, N = 18,897 records on |R| = 470 tracts, 469 holding
    // records, none globally suppressed (data/README.md).
    // Naive: mean class size 18,897 / (470 * 10) = 4.02; ceil(5 / 4.02) = 2 tracts per region;
    // floor(470 * 0.2 / 2) = 47.
    AlgorithmRun run =
        runAlgorithm("vbas:estimatesitecount",
                     estimateParameters(olinda, {"age_band", "sex"}, "sitecount.naive_anonymity"));
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(number(run, "ESTIMATED_SITES"), 47);
    EXPECT_EQ(number(run, "MAX_COMBS"), 10);
    EXPECT_EQ(number(run, "RELEASABLE_RECORDS"), kOlindaPatients);
    EXPECT_EQ(number(run, "REGIONS_WITH_RECORDS"), 469);

    // GAPS MaxCombs, Canada: cutoff = max(1588 * 10^0.42, 1436 * 10^0.43, 1978 * 10^0.304) = 4176.9;
    // floor(0.9 * 18,897 / 4176.9) = floor(4.07) = 4.
    const double cutoff =
        std::max({1588 * std::pow(10, 0.42), 1436 * std::pow(10, 0.43), 1978 * std::pow(10, 0.304)});
    EXPECT_NEAR(cutoff, 4176.9, 0.1);
    run = runAlgorithm("vbas:estimatesitecount",
                       estimateParameters(olinda, {"age_band", "sex"}, "sitecount.gaps_maxcombs"));
    EXPECT_EQ(number(run, "ESTIMATED_SITES"), 4);

    // Four QIs: e = 5 * 2 * 2 * 3 = 60, and global suppression withholds the 5 records of the 3 classes
    // below 5 (data/README.md).
    run = runAlgorithm("vbas:estimatesitecount",
                       estimateParameters(olinda, kOlindaQuasiIdentifiers, "sitecount.naive_anonymity"));
    EXPECT_EQ(number(run, "MAX_COMBS"), 60);
    EXPECT_EQ(number(run, "RELEASABLE_RECORDS"), kOlindaPatients - 5);
}

TEST(EstimateSiteCount, PopulationFloorOfTwentyThousand)
{
    // No QIs, tracts weighted by residents: 377,779 / 470 = 803.8 per tract; ceil(20,000 / 803.8) = 25
    // tracts per region; with offset 1, floor(470 / 25) = 18.
    const OlindaInput olinda;
    QVariantMap parameters = estimateParameters(olinda, {}, "sitecount.naive_anonymity");
    parameters.insert("RECORDS", asParameter(olinda.tracts.get()));
    parameters.insert("RECORD_REGION_FIELD", "CD_GEOCODI");
    parameters.insert("COUNT_FIELD", "V014");
    parameters.insert("K", 20000);
    parameters.insert("SITE_COUNT_OFFSET", 1.0);
    const AlgorithmRun run = runAlgorithm("vbas:estimatesitecount", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(number(run, "ESTIMATED_SITES"), 18);
    EXPECT_EQ(number(run, "RELEASABLE_RECORDS"), 377779);
    EXPECT_EQ(number(run, "MAX_COMBS"), 1);
}

namespace
{
/** vbas:estimatesitecount with the engine configuration its parameters give in reach. */
class ConfigurationOf : public VbasAlgorithmEstimateSiteCount
{
public:
    vbas::PipelineConfig pipelineConfig(const QVariantMap& parameters, QgsProcessingContext& context,
                                        QgsProcessingFeedback* feedback) const
    {
        return VbasStrategyParameters::readConfig(VbasParameterReader(*this, parameters, context), feedback);
    }
};
} // namespace

// QGIS's "max cores to use" at one: the budget search releases one site count at a time.
TEST(EstimateSiteCount, ReleasesOneCountAtATimeWhereQgisMayUseOneCore)
{
    ConfigurationOf algorithm;
    algorithm.initAlgorithm();
    QgsProcessingContext context;
    const int saved = QgsApplication::maxThreads();
    QgsApplication::setMaxThreads(1);
    if (QgsApplication::maxThreads() == 1) // QGIS 3.22
        EXPECT_FALSE(algorithm.pipelineConfig({}, context, nullptr).releasesSideBySide);
    else // later QGIS never goes below two threads (Qt itself can deadlock with one), nor does VBAS then
    {
        EXPECT_EQ(QgsApplication::maxThreads(), 2);
        EXPECT_TRUE(algorithm.pipelineConfig({}, context, nullptr).releasesSideBySide);
    }
    QgsApplication::setMaxThreads(-1); // every core
    EXPECT_TRUE(algorithm.pipelineConfig({}, context, nullptr).releasesSideBySide);
    QgsApplication::setMaxThreads(saved);
}

TEST(SelectSites, FixedCountGivesThatManyPointsOverTheTractsInTheirCrs)
{
    const OlindaInput olinda;
    const AlgorithmRun run = runAlgorithm("vbas:selectsites", twelveSites(olinda));
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(number(run, "SITES_PLACED"), 12);
    QgsVectorLayer* sites = outputLayer(run, "OUTPUT");
    EXPECT_EQ(sites->crs().authid(), "EPSG:4674");
    EXPECT_EQ(sites->featureCount(), 12);
    EXPECT_EQ(sites->fields().names(), (QStringList{"site_id", "weight"}));
    EXPECT_TRUE(olinda.tracts->extent().contains(sites->extent()));
}

TEST(PartitionRegions, FourSquaresWorkedOutByHand)
{
    // Squares A..D = [i, i+1] x [0, 1], centroids x = 0.5 .. 3.5; sites (1, 0.5) and (3, 0.5) take
    // {A, B} and {C, D}. Records (k = 2, QI sex): A: F F; B: F M; C: F F F; D: M. No class is below 2
    // overall (F 6, M 2); in each aggregate F 3 and M 1, so the lone M is suppressed in both.
    const auto squares = makeSquares({"A", "B", "C", "D"});
    const auto records = makeTable(
        {"area:string", "sex:string"},
        {{"A", "F"}, {"A", "F"}, {"B", "F"}, {"B", "M"}, {"C", "F"}, {"C", "F"}, {"C", "F"}, {"D", "M"}});
    const auto sites = makePoints({{1, 0.5}, {3, 0.5}});
    const QVariantMap parameters{{"REGIONS", asParameter(squares.get())},
                                 {"REGION_ID_FIELD", "id"},
                                 {"RECORDS", asParameter(records.get())},
                                 {"RECORD_REGION_FIELD", "area"},
                                 {"QUASI_IDENTIFIERS", QStringList{"sex"}},
                                 {"K", 2},
                                 {"SITES", asParameter(sites.get())},
                                 {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT},
                                 {"OUTPUT_REVIEW", QgsProcessing::TEMPORARY_OUTPUT},
                                 {"OUTPUT_RECORDS", QgsProcessing::TEMPORARY_OUTPUT}};
    const AlgorithmRun run = runAlgorithm("vbas:partitionregions", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(number(run, "AGGREGATES"), 2);
    EXPECT_EQ(number(run, "RECORDS_RELEASED"), 6);
    EXPECT_EQ(number(run, "SUPPRESSED_LOCAL"), 2);
    EXPECT_EQ(number(run, "SUPPRESSED_GLOBAL"), 0);
    const QVariantMap& r = run.results;
    EXPECT_DOUBLE_EQ(r.value("AVERAGE_DISTANCE").toDouble(), 0.5);
    EXPECT_DOUBLE_EQ(r.value("PRECISION_LOSS").toDouble(), 0.5);            // log2(2) / log2(4)
    EXPECT_DOUBLE_EQ(r.value("ANONYMITY_DEVIATION").toDouble(), 1.0);       // (3 - 2 + 3 - 2) / 2
    EXPECT_DOUBLE_EQ(r.value("DISCERNIBILITY").toDouble(), 18.0);           // 3^2 + 3^2
    EXPECT_DOUBLE_EQ(r.value("DISCERNIBILITY_PENALIZED").toDouble(), 34.0); // 18 + 8 * 2
    EXPECT_DOUBLE_EQ(r.value("GLOBAL_ANONYMITY").toDouble(), 1.0);
    EXPECT_DOUBLE_EQ(r.value("GLOBAL_ANONYMITY_AFTER").toDouble(), 3.0);
    // A's two F of 3 released in its aggregate, B's one: -(2 log2(2/3) + log2(1/3)); C's three F: 0.
    EXPECT_NEAR(r.value("NON_UNIFORM_ENTROPY").toDouble(), -(2 * std::log2(2.0 / 3.0) + std::log2(1.0 / 3.0)),
                1e-12);

    // Each aggregate: site (1 or 3, 0.5), 2 squares, 3 released, 1 class, anonymity 3 after suppression,
    // mean distance 0.5 m, 2 m², one part, Polsby-Popper 4 pi 2 / 6^2; for review also 1 suppressed
    // locally, none globally nor for l-diversity, anonymity 1 before suppression.
    ASSERT_EQ(run.outputRows.size(), 2);
    for (const QgsAttributes& row : run.outputRows)
    {
        const int id = row.at(0).toInt();
        EXPECT_EQ(row.mid(1).toList(),
                  (QVariantList{id == 1 ? 1.0 : 3.0, 0.5, 2, 3, 1, 3, 0.5, 2.0, 1, 4 * M_PI * 2 / 36}))
            << "aggregate " << id;
    }
    QgsVectorLayer* review = outputLayer(run, "OUTPUT_REVIEW");
    QgsFeature feature;
    QgsFeatureIterator features = review->getFeatures();
    int reviewed = 0;
    while (features.nextFeature(feature))
    {
        ++reviewed;
        const QgsAttributes row = feature.attributes();
        // suppressed_local, suppressed_global, suppressed_diversity, anonymity_before, suppressed_difference
        EXPECT_EQ(row.mid(row.size() - 5).toList(), (QVariantList{1, 0, 0, 1, 0}))
            << "aggregate " << row.at(0).toInt();
    }
    EXPECT_EQ(reviewed, 2);
    EXPECT_EQ(recountGroups(*outputLayer(run, "OUTPUT_RECORDS"), {"aggregate_id", "sex"}).smallestGroup, 3);
}

TEST(PartitionRegions, EverySiteHasItsCellOrTheLogSaysWhy)
{
    // Squares A..C = [i, i+1] x [0, 1] with a site on each centre; site 4 stands on site 2, site 5 is far
    // above B, site 6 beyond C's right edge (its cell only touches the squares along that edge, which was
    // written as a line into the polygon layer): nothing of the squares is nearest to any of them alone.
    const auto squares = makeSquares({"A", "B", "C"});
    const auto records = makeTable({"area:string", "sex:string"},
                                   {{"A", "F"}, {"A", "F"}, {"B", "F"}, {"B", "F"}, {"C", "F"}, {"C", "F"}});
    const auto sites = makePoints({{0.5, 0.5}, {1.5, 0.5}, {2.5, 0.5}, {1.5, 0.5}, {1.5, 50}, {3.5, 0.5}});
    QVariantMap parameters{{"REGIONS", asParameter(squares.get())},
                           {"REGION_ID_FIELD", "id"},
                           {"RECORDS", asParameter(records.get())},
                           {"RECORD_REGION_FIELD", "area"},
                           {"QUASI_IDENTIFIERS", QStringList{"sex"}},
                           {"K", 2},
                           {"SITES", asParameter(sites.get())},
                           {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT},
                           {"OUTPUT_SITES", QgsProcessing::TEMPORARY_OUTPUT},
                           {"OUTPUT_CELLS", QgsProcessing::TEMPORARY_OUTPUT}};
    const AlgorithmRun run = runAlgorithm("vbas:partitionregions", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(number(run, "AGGREGATES"), 3);
    EXPECT_EQ(number(run, "EMPTY_SITES"), 3);
    const QString line =
        "OUTPUT_CELLS: 3 of 6 sites have no cell, as no point of the study area is nearest to "
        "them alone: standing where another site stands: 1 (site_id 4); with a cell outside "
        "the study area: 2 (site_id 5, 6)";
    EXPECT_EQ(run.log.count(line), 1) << run.log.toStdString();
    const long long cells = outputLayer(run, "OUTPUT_CELLS")->featureCount();
    EXPECT_EQ(cells, 3);
    EXPECT_EQ(cells + 3, outputLayer(run, "OUTPUT_SITES")->featureCount());
    QSet<int> withCell;
    QgsFeature feature;
    for (QgsFeatureIterator it = outputLayer(run, "OUTPUT_CELLS")->getFeatures(); it.nextFeature(feature);)
    {
        withCell.insert(feature.attribute("site_id").toInt());
        EXPECT_NEAR(feature.geometry().area(), 1.0, 1e-9) << "each cell is its site's square";
    }
    EXPECT_EQ(withCell, (QSet<int>{1, 2, 3}));

    // Where every site has its cell, the log says nothing of it.
    const auto twoSites = makePoints({{0.5, 0.5}, {2.5, 0.5}});
    parameters.insert("SITES", asParameter(twoSites.get()));
    const AlgorithmRun everyCell = runAlgorithm("vbas:partitionregions", parameters);
    ASSERT_TRUE(everyCell.ok) << everyCell.errors.toStdString();
    EXPECT_EQ(outputLayer(everyCell, "OUTPUT_CELLS")->featureCount(), 2);
    EXPECT_FALSE(everyCell.log.contains("have no cell")) << everyCell.log.toStdString();
}

TEST(PartitionRegions, WeightedSitesReachFurtherThroughBordersByHand)
{
    // Squares A..D = [i, i+1] x [0, 1] in a row; sites on the centres of A and D. Through the borders
    // B is 1 from the first site and 2 from the second: unweighted {A, B} {C, D}. With weights 0 and 4,
    // B's power distances are 1² − 0 = 1 and 2² − 4 = 0, A's 0 and 3² − 4 = 5: {A} {B, C, D}.
    const auto squares = makeSquares({"A", "B", "C", "D"});
    const auto records = makeTable(
        {"area:string", "sex:string"},
        {{"A", "F"}, {"A", "F"}, {"B", "F"}, {"B", "F"}, {"C", "F"}, {"C", "F"}, {"D", "F"}, {"D", "F"}});
    QgsVectorLayer sites(QStringLiteral("Point?crs=EPSG:32633&field=weight:double"), QStringLiteral("sites"),
                         QStringLiteral("memory"));
    for (const auto& [x, weight] : {std::pair{0.5, 0.0}, std::pair{3.5, 4.0}})
    {
        QgsFeature feature(sites.fields());
        feature.setAttributes(QgsAttributes() << weight);
        feature.setGeometry(QgsGeometry::fromPointXY(QgsPointXY(x, 0.5)));
        ASSERT_TRUE(sites.dataProvider()->addFeature(feature));
    }
    QVariantMap parameters{{"REGIONS", asParameter(squares.get())},
                           {"REGION_ID_FIELD", "id"},
                           {"RECORDS", asParameter(records.get())},
                           {"RECORD_REGION_FIELD", "area"},
                           {"QUASI_IDENTIFIERS", QStringList{"sex"}},
                           {"K", 2},
                           {"SITES", asParameter(&sites)},
                           {"PARTITION", "partition.barrier"},
                           {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT},
                           {"OUTPUT_MAPPING", QgsProcessing::TEMPORARY_OUTPUT}};
    const auto groups = [&](const QVariantMap& runParameters)
    {
        const AlgorithmRun run = runAlgorithm("vbas:partitionregions", runParameters);
        EXPECT_TRUE(run.ok) << run.errors.toStdString();
        QMap<QString, QStringList> members; // aggregate -> squares
        QgsFeature feature;
        QgsFeatureIterator features = outputLayer(run, "OUTPUT_MAPPING")->getFeatures();
        while (features.nextFeature(feature))
            members[feature.attribute("aggregate_id").toString()].append(feature.attribute("id").toString());
        QList<QStringList> result;
        for (QStringList squaresOf : members)
        {
            squaresOf.sort();
            result.append(squaresOf);
        }
        std::sort(result.begin(), result.end());
        return result;
    };
    EXPECT_EQ(groups(parameters), (QList<QStringList>{{"A", "B"}, {"C", "D"}}));
    parameters.insert("SITE_WEIGHT_FIELD", "weight");
    EXPECT_EQ(groups(parameters), (QList<QStringList>{{"A"}, {"B", "C", "D"}}));
}

TEST(PartitionRegions, SitesInAnotherCrsGiveTheSameReleaseAsTheMainJob)
{
    // Sites selected on Olinda (EPSG:4674), reprojected to Web Mercator, then given back: every tract
    // must land in the same aggregate as when the main job uses the same sites directly.
    const OlindaInput olinda;
    const AlgorithmRun selected = runAlgorithm("vbas:selectsites", twelveSites(olinda));
    ASSERT_TRUE(selected.ok) << selected.errors.toStdString();
    const AlgorithmRun reprojected =
        runAlgorithm("native:reprojectlayer", {{"INPUT", asParameter(outputLayer(selected, "OUTPUT"))},
                                               {"TARGET_CRS", "EPSG:3857"},
                                               {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT}});
    ASSERT_TRUE(reprojected.ok) << reprojected.errors.toStdString();
    EXPECT_EQ(outputLayer(reprojected, "OUTPUT")->crs().authid(), "EPSG:3857");

    QVariantMap partition = olinda.parameters({"age_band", "sex"});
    partition.insert("SITES", asParameter(outputLayer(reprojected, "OUTPUT")));
    const AlgorithmRun given = runAlgorithm("vbas:partitionregions", partition);
    ASSERT_TRUE(given.ok) << given.errors.toStdString();
    const AlgorithmRun main = runAlgorithm("vbas:aggregateregions", twelveSites(olinda));
    ASSERT_TRUE(main.ok) << main.errors.toStdString();

    EXPECT_EQ(outputLayer(given, "OUTPUT")->crs().authid(), "EPSG:4674");
    EXPECT_EQ(number(given, "AGGREGATES"), number(main, "AGGREGATES"));
    EXPECT_EQ(aggregateOf(*outputLayer(given, "OUTPUT_MAPPING")),
              aggregateOf(*outputLayer(main, "OUTPUT_MAPPING")));
    EXPECT_EQ(number(given, "SUPPRESSED"), number(main, "SUPPRESSED"));
    EXPECT_EQ(checkAnonymity(outputLayer(given, "OUTPUT_RECORDS"), "aggregate_id", {"age_band", "sex"}, 5),
              "PASS");
}

// vbas:compareapproaches: the sweep's site counts from the estimates worked out by hand, and the
// Pareto marks checked against a dominance test of our own on the table it writes.

#include "processingtestutils.h"
#include "realdata.h"

#include <gtest/gtest.h>

namespace
{
/**
 * The objectives of SPEC section 8 and the attribute loss of generalization, lower is better, as columns of
 * the comparison table.
 */
const QStringList kObjectives{"anonymity_deviation", "average_distance",    "suppressed",    "precision_loss",
                              "discernibility",      "non_uniform_entropy", "attribute_loss"};

bool dominates(const QgsFeature& a, const QgsFeature& b)
{
    bool better = false;
    for (const QString& objective : kObjectives)
    {
        const double x = a.attribute(objective).toDouble();
        const double y = b.attribute(objective).toDouble();
        if (x > y)
            return false;
        better = better || x < y;
    }
    return better;
}
} // namespace

TEST(CompareApproaches, SweepsEachCombinationAndMarksExactlyTheNonDominatedRows)
{
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters({"age_band", "sex"});
    parameters.insert("SITE_COUNT_METHOD",
                      QStringList{"sitecount.naive_anonymity", "sitecount.gaps_maxcombs"});
    parameters.insert("SITE_LOCATION",
                      QStringList{"sitelocation.balanced_density", "sitelocation.naive_density"});
    parameters.insert("SWEEP_STEPS", 1);
    const AlgorithmRun run = runAlgorithm("vbas:compareapproaches", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_TRUE(run.log.contains("Release only one of them, ever")) << run.log.toStdString();

    // Estimates by hand (see EstimateSiteCount): naive 47, step ceil(4.7) = 5; GAPS 4, step ceil(0.4) = 1.
    QList<QgsFeature> rows;
    QMap<QString, QList<int>> siteCounts;
    QgsFeature feature;
    QgsFeatureIterator features = outputLayer(run, "OUTPUT")->getFeatures();
    while (features.nextFeature(feature))
    {
        rows << feature;
        siteCounts[feature.attribute("site_count_method").toString() + " " +
                   feature.attribute("site_location").toString()]
            << feature.attribute("site_count").toInt();
        EXPECT_EQ(feature.attribute("refinement").toString(), "none");
        // Nothing generalized: no levels and no attribute loss.
        EXPECT_TRUE(feature.attribute("generalization").isNull());
        EXPECT_EQ(feature.attribute("attribute_loss").toDouble(), 0.0);
    }
    EXPECT_EQ(rows.size(), 12);
    EXPECT_EQ(number(run, "ROWS"), 12);
    for (const char* locator : {"sitelocation.balanced_density", "sitelocation.naive_density"})
    {
        EXPECT_EQ(siteCounts.value(QStringLiteral("sitecount.naive_anonymity ") + locator),
                  (QList<int>{42, 47, 52}));
        EXPECT_EQ(siteCounts.value(QStringLiteral("sitecount.gaps_maxcombs ") + locator),
                  (QList<int>{3, 4, 5}));
    }

    qint64 optimal = 0;
    for (const QgsFeature& row : rows)
    {
        bool dominated = false;
        for (const QgsFeature& other : rows)
            dominated = dominated || dominates(other, row);
        EXPECT_EQ(row.attribute("pareto_optimal").toBool(), !dominated)
            << row.attribute("site_count_method").toString().toStdString() << " "
            << row.attribute("site_count").toInt();
        optimal += dominated ? 0 : 1;
    }
    EXPECT_GT(optimal, 0);
    EXPECT_EQ(number(run, "PARETO_ROWS"), optimal);
}

TEST(CompareApproaches, AdcAddsARefinedRowPerSolution)
{
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters({"age_band", "sex"});
    parameters.insert("SWEEP_STEPS", 0);
    parameters.insert("ADC", true);
    const AlgorithmRun run = runAlgorithm("vbas:compareapproaches", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    const QMap<QString, qint64> refinements = countByValue(*outputLayer(run, "OUTPUT"), "refinement");
    EXPECT_EQ(refinements, (QMap<QString, qint64>{{"none", 1}, {"refinement.adc", 1}}));
}

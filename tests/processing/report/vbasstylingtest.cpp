// The result layers arrive in QGIS styled for review: the release runs with its layers to be loaded into
// a project, the layers are loaded the way QGIS's Processing does it on completion, and the renderers,
// labels, hot-spot hatch, colours of touching aggregates and the layer order are checked against
// figures recounted from the layers themselves.

#include "vbasstyling.h"
#include "processingtestutils.h"
#include "realdata.h"
#include "vbasqgiscompat.h"

#include <qgsapplication.h>
#include <qgscategorizedsymbolrenderer.h>
#include <qgsexpressioncontextutils.h>
#include <qgsfillsymbol.h>
#include <qgsgraduatedsymbolrenderer.h>
#include <qgslayertree.h>
#include <qgspallabeling.h>
#include <qgsprocessingcontext.h>
#include <qgsprocessingregistry.h>
#include <qgsprocessingutils.h>
#include <qgsproject.h>
#include <qgsproperty.h>
#include <qgsrendercontext.h>
#include <qgsspatialindex.h>
#include <qgsvectorlayerlabeling.h>

#include <gtest/gtest.h>

namespace
{
const QStringList kLoaded{"OUTPUT",       "OUTPUT_MAPPING", "OUTPUT_SITES",
                          "OUTPUT_CELLS", "OUTPUT_RECORDS", "OUTPUT_REVIEW"};

/** A release whose outputs were loaded into `project` and post-processed. */
struct LoadedRelease
{
    std::unique_ptr<QgsProject> project = std::make_unique<QgsProject>();
    QMap<QString, QgsVectorLayer*> layers; //!< by output name
    QStringList withoutPostProcessor;      //!< outputs QGIS loads as they are
    QString log;                           //!< the run's text log
};

/**
 * Runs vbas:aggregateregions on Olinda with every output loaded on completion, then loads the layers in
 * `loadOrder` (output names) as QGIS does: take it from the run's store, add it to its project, call its
 * post-processor (QGIS's Processing plugin, gui/Postprocessing.py).
 */
LoadedRelease runAndLoad(QVariantMap parameters, const QStringList& loadOrder)
{
    LoadedRelease release;
    for (const QString& output : kLoaded)
        parameters.insert(output, QVariant::fromValue(QgsProcessingOutputLayerDefinition(
                                      QgsProcessing::TEMPORARY_OUTPUT, release.project.get())));
    parameters.insert("NO_LEDGER", true); // a script keeps no ledger only when it says so
    QgsProcessingContext context;
    context.setProject(release.project.get());
    QgsProcessingFeedback feedback;
    const std::unique_ptr<QgsProcessingAlgorithm> algorithm(
        QgsApplication::processingRegistry()->createAlgorithmById("vbas:aggregateregions"));
    bool ok = false;
    const QVariantMap results = algorithm->run(parameters, context, &feedback, &ok);
    EXPECT_TRUE(ok) << feedback.textLog().toStdString();
    release.log = feedback.textLog();
    const QMap<QString, QgsProcessingContext::LayerDetails> toLoad = context.layersToLoadOnCompletion();
    EXPECT_EQ(toLoad.size(), kLoaded.size());
    for (const QString& output : loadOrder)
    {
        const QString id = results.value(output).toString();
        EXPECT_TRUE(toLoad.contains(id)) << output.toStdString();
        QgsMapLayer* layer = QgsProcessingUtils::mapLayerFromString(id, context);
        if (!layer)
            continue;
        context.temporaryLayerStore()->takeMapLayer(layer);
        toLoad[id].project->addMapLayer(layer);
        if (toLoad[id].postProcessor())
            toLoad[id].postProcessor()->postProcessLayer(layer, context, &feedback);
        else
            release.withoutPostProcessor << output;
        release.layers.insert(output, qobject_cast<QgsVectorLayer*>(layer));
    }
    return release;
}

/** Returns the output names of the layers of `project`, top of the layer tree first. */
QStringList treeOrder(const LoadedRelease& release)
{
    QStringList order;
    for (const QgsLayerTreeLayer* node : release.project->layerTreeRoot()->findLayers())
        for (auto it = release.layers.constBegin(); it != release.layers.constEnd(); ++it)
            if (it.value() == node->layer())
                order << it.key();
    return order;
}

/** Returns the aggregates that an independent share count calls hot spots: twice the overall withheld share.
 */
QSet<qint64> hotSpotsByHand(QgsVectorLayer& aggregates)
{
    double withheld = 0, total = 0;
    QgsFeature feature;
    QgsFeatureIterator it = aggregates.getFeatures();
    while (it.nextFeature(feature))
    {
        const double out = feature.attribute("suppressed_local").toDouble() +
                           feature.attribute("suppressed_global").toDouble() +
                           feature.attribute("suppressed_diversity").toDouble();
        withheld += out;
        total += out + feature.attribute("released").toDouble();
    }
    QSet<qint64> hot;
    it = aggregates.getFeatures();
    while (it.nextFeature(feature))
    {
        const double out = feature.attribute("suppressed_local").toDouble() +
                           feature.attribute("suppressed_global").toDouble() +
                           feature.attribute("suppressed_diversity").toDouble();
        if (out > 0 && out / (out + feature.attribute("released").toDouble()) >= 2 * withheld / total)
            hot.insert(feature.attribute("aggregate_id").toLongLong());
    }
    return hot;
}

class StyledOnLoad : public testing::TestWithParam<std::vector<std::string>>
{
};

TEST_P(StyledOnLoad, AggregatesShadedHatchedAndLabelledAreasColouredByAggregateInLayerOrder)
{
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters({"age_band", "sex", "married"});
    parameters.insert("SHADE_BY", "released");
    QStringList loadOrder;
    for (const std::string& output : GetParam())
        loadOrder << QString::fromStdString(output);
    const LoadedRelease release = runAndLoad(parameters, loadOrder);
    QgsVectorLayer* aggregates = release.layers.value("OUTPUT");
    QgsVectorLayer* mapping = release.layers.value("OUTPUT_MAPPING");
    ASSERT_TRUE(aggregates && mapping);

    // Whatever the order QGIS loads them in, the review order: sites, cells, aggregates, small areas. The
    // records are a table and stay where QGIS put them.
    QStringList order = treeOrder(release);
    order.removeAll("OUTPUT_RECORDS");
    order.removeAll("OUTPUT_REVIEW"); // aggregates too: stacked with OUTPUT, in either order
    EXPECT_EQ(order.join(' ').toStdString(), "OUTPUT_SITES OUTPUT_CELLS OUTPUT OUTPUT_MAPPING");
    EXPECT_EQ(release.withoutPostProcessor, QStringList{"OUTPUT_RECORDS"});
    EXPECT_FALSE(release.project->layerTreeRoot()->findLayer(mapping)->isExpanded())
        << "the legend of the small areas (one entry per aggregate id) starts folded";

    const auto* graduated = dynamic_cast<const QgsGraduatedSymbolRenderer*>(aggregates->renderer());
    ASSERT_TRUE(graduated) << aggregates->renderer()->type().toStdString();
    EXPECT_EQ(graduated->classAttribute(), "released");
    EXPECT_GE(graduated->ranges().size(), 3);
    QgsRenderContext renderContext;
    renderContext.expressionContext().appendScopes(
        QgsExpressionContextUtils::globalProjectLayerScopes(aggregates));
    const auto hatchOf = [](const QgsGraduatedSymbolRenderer& renderer)
    {
        QgsSymbolLayer* hatch = nullptr;
        for (QgsSymbolLayer* layer : renderer.sourceSymbol()->symbolLayers())
            if (layer->layerType() == "LinePatternFill")
                hatch = layer;
        return hatch;
    };
    EXPECT_FALSE(hatchOf(*graduated)) << "hot spots of withheld records are for review, not for publication";
    QgsVectorLayer* review = release.layers.value("OUTPUT_REVIEW");
    ASSERT_TRUE(review);
    const auto* reviewRenderer = dynamic_cast<const QgsGraduatedSymbolRenderer*>(review->renderer());
    ASSERT_TRUE(reviewRenderer);
    QgsSymbolLayer* hatch = hatchOf(*reviewRenderer);
    ASSERT_TRUE(hatch) << "Olinda's release withholds records: there are hot spots to hatch";
    const QgsProperty colour = hatch->subSymbol()->symbolLayer(0)->dataDefinedProperties().property(
        VbasCompat::strokeColorProperty());
    const QSet<qint64> hotSpots = hotSpotsByHand(*review);
    EXPECT_FALSE(hotSpots.isEmpty());
    QgsFeature feature;
    QgsFeatureIterator it = review->getFeatures();
    int features = 0;
    while (it.nextFeature(feature))
    {
        ++features;
        bool inRange = false;
        for (const QgsRendererRange& range : graduated->ranges())
            inRange = inRange || (feature.attribute("released").toDouble() > range.lowerValue() &&
                                  feature.attribute("released").toDouble() <= range.upperValue());
        EXPECT_TRUE(inRange) << "aggregate " << feature.attribute("aggregate_id").toInt();
        renderContext.expressionContext().setFeature(feature);
        const QColor drawn = colour.valueAsColor(renderContext.expressionContext(), Qt::black);
        EXPECT_EQ(drawn.alpha() > 0, hotSpots.contains(feature.attribute("aggregate_id").toLongLong()))
            << "aggregate " << feature.attribute("aggregate_id").toInt();
    }
    EXPECT_EQ(features, aggregates->featureCount());
    EXPECT_EQ(review->featureCount(), aggregates->featureCount());
    // The layer tree's legend says what it shows: the shaded field in every class, the hatch in the name of
    // the layer that has it (hot spots: twice the share withheld overall).
    for (const QgsRendererRange& range : graduated->ranges())
        EXPECT_TRUE(range.label().startsWith("records released: ")) << range.label().toStdString();
    double withheld = 0, total = 0;
    for (QgsFeatureIterator all = review->getFeatures(); all.nextFeature(feature);)
    {
        const double suppressed = feature.attribute("suppressed_local").toDouble() +
                                  feature.attribute("suppressed_global").toDouble() +
                                  feature.attribute("suppressed_diversity").toDouble();
        withheld += suppressed;
        total += suppressed + feature.attribute("released").toDouble();
    }
    EXPECT_TRUE(
        review->name().endsWith(QStringLiteral("; hatched: hot spots, %1% or more of the records withheld")
                                    .arg(200.0 * withheld / total, 0, 'g', 2)))
        << review->name().toStdString();
    EXPECT_FALSE(aggregates->name().contains("hatched")) << aggregates->name().toStdString();
    ASSERT_TRUE(aggregates->labelsEnabled());
    const QgsPalLayerSettings label = aggregates->labeling()->settings();
    EXPECT_TRUE(label.isExpression);
    EXPECT_TRUE(label.fieldName.contains("anonymity_after")) << label.fieldName.toStdString();

    // Small areas: one category per aggregate; two areas that touch across a border of aggregates never
    // share a colour (touching recounted here with a plain intersection test).
    const auto* categorized = dynamic_cast<const QgsCategorizedSymbolRenderer*>(mapping->renderer());
    ASSERT_TRUE(categorized) << mapping->renderer()->type().toStdString();
    EXPECT_EQ(categorized->classAttribute(), "aggregate_id");
    EXPECT_EQ(categorized->categories().size(), aggregates->featureCount());
    QMap<QString, QColor> colourOf;
    for (const QgsRendererCategory& category : categorized->categories())
        colourOf[category.value().toString()] = category.symbol()->color();
    QgsSpatialIndex index(mapping->getFeatures(), nullptr, QgsSpatialIndex::FlagStoreFeatureGeometries);
    int borders = 0;
    it = mapping->getFeatures();
    while (it.nextFeature(feature))
        for (const QgsFeatureId neighbour : index.intersects(feature.geometry().boundingBox()))
        {
            const QgsFeature other = mapping->getFeature(neighbour);
            const QString a = feature.attribute("aggregate_id").toString(),
                          b = other.attribute("aggregate_id").toString();
            if (a == b || !feature.geometry().intersects(other.geometry()))
                continue;
            ++borders;
            EXPECT_NE(colourOf[a].name(), colourOf[b].name())
                << "aggregates " << a.toStdString() << " and " << b.toStdString();
        }
    EXPECT_GT(borders, 0);

    EXPECT_EQ(release.layers.value("OUTPUT_SITES")->renderer()->type(), "singleSymbol");
    EXPECT_EQ(release.layers.value("OUTPUT_SITES")->renderer()->symbols(renderContext).value(0)->type(),
              Qgis::SymbolType::Marker);
    EXPECT_EQ(release.layers.value("OUTPUT_CELLS")->renderer()->type(), "singleSymbol");
}

// Loaded bottom-up (each new layer lands on top: fully reversed without the post-processor's
// reordering) and shuffled.
INSTANTIATE_TEST_SUITE_P(
    LoadOrders, StyledOnLoad,
    testing::Values(std::vector<std::string>{"OUTPUT_SITES", "OUTPUT_CELLS", "OUTPUT", "OUTPUT_REVIEW",
                                             "OUTPUT_MAPPING", "OUTPUT_RECORDS"},
                    std::vector<std::string>{"OUTPUT", "OUTPUT_RECORDS", "OUTPUT_REVIEW", "OUTPUT_MAPPING",
                                             "OUTPUT_SITES", "OUTPUT_CELLS"}));

TEST(Styling, AggregatesAreShadedByAnonymityAfterSuppressionUnlessToldOtherwise)
{
    const std::unique_ptr<QgsProcessingAlgorithm> algorithm(
        QgsApplication::processingRegistry()->createAlgorithmById("vbas:aggregateregions"));
    const auto* shadeBy =
        dynamic_cast<const QgsProcessingParameterEnum*>(algorithm->parameterDefinition("SHADE_BY"));
    ASSERT_TRUE(shadeBy);
    EXPECT_EQ(shadeBy->defaultValue().toString(), "anonymity_after");
    EXPECT_EQ(shadeBy->options(), VbasStyling::shadeFields());
    for (const char* field :
         {"released", "anonymity_after", "mean_distance_m", "compactness", "suppressed_local"})
        EXPECT_TRUE(shadeBy->options().contains(field)) << field;
    for (const char* field : {"aggregate_id", "site_x", "site_y"})
        EXPECT_FALSE(shadeBy->options().contains(field)) << field;

    const OlindaInput olinda;
    const LoadedRelease release = runAndLoad(olinda.parameters({"age_band", "sex"}), {"OUTPUT"});
    const auto* graduated =
        dynamic_cast<const QgsGraduatedSymbolRenderer*>(release.layers.value("OUTPUT")->renderer());
    ASSERT_TRUE(graduated);
    EXPECT_EQ(graduated->classAttribute(), "anonymity_after");
    for (const QgsRendererRange& range : graduated->ranges())
        EXPECT_TRUE(QRegularExpression("^anonymity after suppression \\(k\\): \\d+(–\\d+)?$")
                        .match(range.label())
                        .hasMatch())
            << "whole-number classes, the field in words: " << range.label().toStdString();
}

TEST(Styling, AReviewOnlyShadeFieldFallsBackToTheDefaultWhichThePublishedLegendAndTheLogName)
{
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters({"age_band", "sex", "married"});
    parameters.insert("SHADE_BY", "suppressed_local");
    const LoadedRelease release = runAndLoad(parameters, {"OUTPUT", "OUTPUT_REVIEW"});
    const auto* published =
        dynamic_cast<const QgsGraduatedSymbolRenderer*>(release.layers.value("OUTPUT")->renderer());
    const auto* review =
        dynamic_cast<const QgsGraduatedSymbolRenderer*>(release.layers.value("OUTPUT_REVIEW")->renderer());
    ASSERT_TRUE(published && review);
    // The published layer has no withheld counts: shaded, and its legend labelled, by anonymity_after, in
    // words.
    EXPECT_EQ(published->classAttribute(), "anonymity_after");
    for (const QgsRendererRange& range : published->ranges())
        EXPECT_TRUE(range.label().startsWith("anonymity after suppression (k): "))
            << range.label().toStdString();
    EXPECT_EQ(review->classAttribute(), "suppressed_local");
    for (const QgsRendererRange& range : review->ranges())
        EXPECT_TRUE(range.label().startsWith("records withheld as too few in their region: "))
            << range.label().toStdString();
    const QString line = "SHADE_BY: 'suppressed_local' is for review only, not in the published aggregated "
                         "regions: OUTPUT and OUTPUT_MAP_IMAGE are shaded by 'anonymity_after' instead, and "
                         "their titles and legends say so; OUTPUT_REVIEW and the report are shaded by "
                         "'suppressed_local'";
    EXPECT_EQ(release.log.count(line), 1) << release.log.toStdString();

    // A field the published layer has is taken as asked, without a word.
    parameters.insert("SHADE_BY", "released");
    EXPECT_FALSE(runAndLoad(parameters, {"OUTPUT"}).log.contains("is for review only, not in the published"));
}
} // namespace

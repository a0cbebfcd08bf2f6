#include "vbasstyling.h"

#include "vbascharts.h"
#include "vbasoutputs.h"
#include "vbasqgiscompat.h"

#include <qgscategorizedsymbolrenderer.h>
#include <qgsclassificationcustom.h>
#include <qgscolorramp.h>
#include <qgsfillsymbol.h>
#include <qgsfillsymbollayer.h>
#include <qgsgraduatedsymbolrenderer.h>
#include <qgslinesymbol.h>
#include <qgslinesymbollayer.h>
#include <qgsmarkersymbol.h>
#include <qgspallabeling.h>
#include <qgsproperty.h>
#include <qgssinglesymbolrenderer.h>
#include <qgsspatialindex.h>
#include <qgstextformat.h>
#include <qgsvectorlayer.h>
#include <qgsvectorlayerlabeling.h>

#include <QMap>
#include <QSet>

#include <algorithm>

namespace
{
/** ColorBrewer Set3: light, distinct colours on which thin outlines, sites and labels stay readable. */
const char* const kQualitative[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
                                    "#b3de69", "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};

QgsFillSymbol* fill(const QString& color, const QString& outline, double outlineWidth)
{
    return VbasCompat::released(
        QgsFillSymbol::createSimple({{QStringLiteral("color"), color},
                                     {QStringLiteral("outline_color"), outline},
                                     {QStringLiteral("outline_width"), outlineWidth}}));
}

/** The colour of the hatch over hot spots of withheld records: dark red, visible on every class colour. */
const QString kHotSpotColour = QStringLiteral("#b2182b");

/** Returns the fill of an aggregate before its class colours it: white, dark outline. */
QgsFillSymbol* aggregateSymbol()
{
    return fill(QStringLiteral("#ffffff"), QStringLiteral("#1a1a1a"), 0.5);
}

/**
 * Returns the diagonal hatch of hot spots: `colour` lines on a `halo`, so that they show on the lightest
 * and on the darkest class.
 */
QgsLinePatternFillSymbolLayer* hatch(const QColor& colour, const QColor& halo)
{
    auto* lines = new QgsLinePatternFillSymbolLayer();
    lines->setLineAngle(45);
    lines->setDistance(2.2);
    lines->setSubSymbol(new QgsLineSymbol(
        {new QgsSimpleLineSymbolLayer(halo, 0.9), new QgsSimpleLineSymbolLayer(colour, 0.45)}));
    lines->setLocked(true); // keeps its colours when a class (or the user) colours the symbol
    return lines;
}

/** The fields of the review layer that count an aggregate's withheld records, one per reason. */
const char* const kWithheldFields[] = {"suppressed_local", "suppressed_global", "suppressed_diversity",
                                       "suppressed_difference"};

/** Returns the number of withheld records of an aggregate as an expression on its fields. */
QString withheld()
{
    QStringList terms;
    for (const char* field : kWithheldFields)
        terms << QStringLiteral("\"%1\"").arg(QLatin1String(field));
    return QStringLiteral("(%1)").arg(terms.join(QStringLiteral(" + ")));
}

/**
 * Returns the ranges of `field`: round breaks from the values (the histogram binning of the report,
 * about five classes), whole-number classes for whole-number fields.
 */
QgsRangeList ranges(const QgsVectorLayer& layer, const QString& field, const QgsFillSymbol& symbol)
{
    const int index = layer.fields().indexOf(field);
    const bool integers = layer.fields().at(index).type() != VbasCompat::FieldTypeDouble;
    QVector<double> values;
    for (const QVariant& value : layer.uniqueValues(index))
        if (!VbasCompat::isNull(value))
            values << value.toDouble();
    const VbasCharts::Bins bins = VbasCharts::bins(values, integers, 5);
    // YlGnBu: light for small values, dark for large, readable under black labels with a halo.
    QgsGradientColorRamp ramp(QColor("#ffffcc"), QColor("#253494"), false,
                              {QgsGradientStop(0.25, QColor("#a1dab4")),
                               QgsGradientStop(0.5, QColor("#41b6c4")),
                               QgsGradientStop(0.75, QColor("#2c7fb8"))});
    QgsRangeList list;
    const int count = int(bins.counts.size());
    for (int i = 0; i < count; ++i)
    {
        QgsFillSymbol* classSymbol = symbol.clone();
        classSymbol->setColor(ramp.color(count == 1 ? 0.5 : double(i) / (count - 1)));
        const double from = bins.edges[i], to = bins.edges[i + 1];
        // A range holds (lower, upper]: whole numbers a..b need the edges half a unit lower.
        const QString label = VbasCharts::binLabel(from, to, integers);
        list << (integers ? QgsRendererRange(from - 0.5, to - 0.5, classSymbol, label)
                          : QgsRendererRange(from, to, classSymbol, label));
    }
    return list;
}

/** Returns the aggregates that touch (or nearly: gaps under 1/10,000 of the extent) per aggregate value. */
QMap<QString, QSet<QString>> touchingAggregates(const QgsVectorLayer& layer, int field)
{
    QMap<QString, QSet<QString>> touching;
    QgsSpatialIndex index;
    QHash<QgsFeatureId, QgsFeature> features;
    QgsFeature feature;
    QgsFeatureIterator it = layer.getFeatures();
    while (it.nextFeature(feature))
    {
        touching[feature.attribute(field).toString()]; // every aggregate has an entry, touching others or not
        features.insert(feature.id(), feature);
        index.addFeature(feature);
    }
    const double tolerance = 1e-4 * std::max(layer.extent().width(), layer.extent().height());
    for (const QgsFeature& one : features)
    {
        const QString value = one.attribute(field).toString();
        for (const QgsFeatureId candidate :
             index.intersects(one.geometry().boundingBox().buffered(tolerance)))
        {
            const QgsFeature& other = *features.constFind(candidate);
            const QString otherValue = other.attribute(field).toString();
            if (otherValue != value && !touching[value].contains(otherValue) &&
                one.geometry().distance(other.geometry()) <= tolerance)
            {
                touching[value].insert(otherValue);
                touching[otherValue].insert(value);
            }
        }
    }
    return touching;
}
} // namespace

QStringList VbasStyling::shadeFields()
{
    QStringList names =
        VbasOutputs::aggregateFields(VbasRelease(vbas::ReleaseResult()), VbasOutputs::Audience::Review)
            .names();
    names.removeFirst(); // the aggregate id
    names.removeAll(QStringLiteral("site_x"));
    names.removeAll(QStringLiteral("site_y"));
    return names;
}

QString VbasStyling::shadeField(const QgsFields& fields, const QString& requested)
{
    return fields.indexOf(requested) >= 0 ? requested : kDefaultShadeField;
}

QgsFillSymbol* VbasStyling::hotSpotSymbol()
{
    QgsFillSymbol* symbol = aggregateSymbol();
    symbol->appendSymbolLayer(hatch(QColor(kHotSpotColour), Qt::white));
    return symbol;
}

double VbasStyling::hotSpotShare(const QgsVectorLayer& aggregates)
{
    double withheld = 0, total = 0;
    QgsFeature feature;
    QgsFeatureIterator it = aggregates.getFeatures();
    while (it.nextFeature(feature))
    {
        double suppressed = 0;
        for (const char* field : kWithheldFields)
            suppressed += feature.attribute(QLatin1String(field)).toDouble();
        withheld += suppressed;
        total += suppressed + feature.attribute(QStringLiteral("released")).toDouble();
    }
    return total > 0 ? 2.0 * withheld / total : 0.0;
}

void VbasStyling::styleAggregates(QgsVectorLayer& layer, const QString& requestedShadeBy)
{
    const QString shadeBy = shadeField(layer.fields(), requestedShadeBy);
    std::unique_ptr<QgsFillSymbol> symbol(aggregateSymbol());
    const double hotSpot = hotSpotShare(layer);
    if (hotSpot > 0)
    {
        // Transparent unless the feature is a hot spot; a legend (no feature) cannot evaluate the
        // expression and falls back to transparent, so the classes show their colour alone.
        QgsLinePatternFillSymbolLayer* lines = hatch(Qt::transparent, Qt::transparent);
        const QString hot = QStringLiteral("%1 > 0 and %1 >= %2 * (%1 + \"released\")")
                                .arg(withheld(), VbasCharts::exact(hotSpot));
        for (const auto& [index, colour] :
             {std::pair(0, QStringLiteral("#ffffff")), std::pair(1, kHotSpotColour)})
            lines->subSymbol()->symbolLayer(index)->setDataDefinedProperty(
                VbasCompat::strokeColorProperty(),
                QgsProperty::fromExpression(QStringLiteral("if(%1, '%2', '0,0,0,0')").arg(hot, colour)));
        symbol->appendSymbolLayer(lines);
    }
    auto* renderer = new QgsGraduatedSymbolRenderer(shadeBy, ranges(layer, shadeBy, *symbol));
    renderer->setSourceSymbol(symbol.release());
    renderer->setClassificationMethod(new QgsClassificationCustom());
    layer.setRenderer(renderer);

    QgsPalLayerSettings label;
    label.fieldName = QStringLiteral("if(\"released\" > 0, 'k=' || \"anonymity_after\", 'all withheld')");
    label.isExpression = true;
    label.placement = VbasCompat::LabelHorizontal;
    QgsTextFormat format;
    format.setSize(10);
    format.setColor(QColor("#111111"));
    QgsTextBufferSettings halo;
    halo.setEnabled(true);
    halo.setSize(0.8);
    halo.setColor(QColor("#ffffff"));
    format.setBuffer(halo);
    label.setFormat(format);
    layer.setLabeling(new QgsVectorLayerSimpleLabeling(label));
    layer.setLabelsEnabled(true);
}

void VbasStyling::styleRates(QgsVectorLayer& layer, const QString& rate)
{
    std::unique_ptr<QgsFillSymbol> symbol(aggregateSymbol());
    QgsLinePatternFillSymbolLayer* lines = hatch(Qt::transparent, Qt::transparent);
    for (const auto& [index, colour] :
         {std::pair(0, QStringLiteral("#ffffff")), std::pair(1, kHotSpotColour)})
        lines->subSymbol()->symbolLayer(index)->setDataDefinedProperty(
            VbasCompat::strokeColorProperty(),
            QgsProperty::fromExpression(QStringLiteral("if(\"unstable\" = 1, '%1', '0,0,0,0')").arg(colour)));
    symbol->appendSymbolLayer(lines);
    if (layer.fields().indexOf(rate) < 0)
        return;
    auto* renderer = new QgsGraduatedSymbolRenderer(rate, ranges(layer, rate, *symbol));
    renderer->setSourceSymbol(symbol.release());
    renderer->setClassificationMethod(new QgsClassificationCustom());
    for (int i = 0; i < renderer->ranges().size(); ++i)
        renderer->updateRangeLabel(i, QStringLiteral("%1 %2").arg(rate, renderer->ranges().at(i).label()));
    layer.setRenderer(renderer);
    layer.setName(QObject::tr("%1; hatched: unstable rates (the small-number rule flags them); not filled: "
                              "withheld")
                      .arg(layer.name()));
}

void VbasStyling::styleMapping(QgsVectorLayer& layer)
{
    // VbasOutputs::mappingFields() appends the aggregate to the fields of the small areas, under another
    // name when they already have an aggregate_id.
    const int field = layer.fields().count() - 1;
    const QMap<QString, QSet<QString>> touching = touchingAggregates(layer, field);
    // Greedy colouring, most-connected aggregates first (Welsh-Powell); ties in id order, so the same
    // aggregation always gets the same colours.
    QStringList order = touching.keys();
    std::stable_sort(order.begin(), order.end(),
                     [&](const QString& a, const QString& b)
                     { return touching[a].size() > touching[b].size(); });
    QMap<QString, int> colour;
    for (const QString& aggregate : order)
    {
        QSet<int> taken;
        for (const QString& other : touching[aggregate])
            if (colour.contains(other))
                taken.insert(colour[other]);
        int c = 0;
        while (taken.contains(c))
            ++c;
        colour[aggregate] = c;
    }
    const int palette = int(std::size(kQualitative));
    QgsCategoryList categories;
    for (const QVariant& value : layer.uniqueValues(field))
    {
        const int c = colour.value(value.toString());
        // Past the palette (never seen on real maps), the colours repeat darker.
        const QColor color = QColor(kQualitative[c % palette]).darker(100 + 25 * (c / palette));
        categories << QgsRendererCategory(value, fill(color.name(), QStringLiteral("#707070"), 0.1),
                                          value.toString());
    }
    std::sort(categories.begin(), categories.end(),
              [](const QgsRendererCategory& a, const QgsRendererCategory& b)
              { return qgsVariantLessThan(a.value(), b.value()); });
    layer.setRenderer(new QgsCategorizedSymbolRenderer(layer.fields().at(field).name(), categories));
}

void VbasStyling::styleSites(QgsVectorLayer& layer)
{
    layer.setRenderer(new QgsSingleSymbolRenderer(VbasCompat::released(
        QgsMarkerSymbol::createSimple({{QStringLiteral("name"), QStringLiteral("circle")},
                                       {QStringLiteral("color"), QStringLiteral("#111111")},
                                       {QStringLiteral("outline_color"), QStringLiteral("#ffffff")},
                                       {QStringLiteral("outline_width"), 0.3},
                                       {QStringLiteral("size"), 2.0}}))));
}

void VbasStyling::styleCells(QgsVectorLayer& layer)
{
    layer.setRenderer(new QgsSingleSymbolRenderer(VbasCompat::released(
        QgsFillSymbol::createSimple({{QStringLiteral("style"), QStringLiteral("no")},
                                     {QStringLiteral("outline_color"), QStringLiteral("#444444")},
                                     {QStringLiteral("outline_style"), QStringLiteral("dash")},
                                     {QStringLiteral("outline_width"), 0.3}}))));
}

void VbasStyling::style(QgsVectorLayer& layer, Role role, const QString& shadeBy)
{
    switch (role)
    {
    case Role::Sites:
        return styleSites(layer);
    case Role::Cells:
        return styleCells(layer);
    case Role::Aggregates:
        return styleAggregates(layer, shadeBy);
    case Role::Mapping:
        return styleMapping(layer);
    case Role::Rates:
        return styleRates(layer, shadeBy);
    }
}

void VbasStyling::explainLegend(QgsVectorLayer& aggregates)
{
    const auto* graduated = dynamic_cast<const QgsGraduatedSymbolRenderer*>(aggregates.renderer());
    if (!graduated)
        return;
    // A new renderer, not labels changed in place: setting it tells the layer tree to redraw the legend.
    auto* labelled = graduated->clone();
    const QString shown = VbasOutputs::aggregateFieldInWords(labelled->classAttribute());
    for (int i = 0; i < labelled->ranges().size(); ++i)
        labelled->updateRangeLabel(i, QStringLiteral("%1: %2").arg(shown, labelled->ranges().at(i).label()));
    aggregates.setRenderer(labelled);
    const double hotSpot = hotSpotShare(aggregates);
    if (hotSpot > 0)
        aggregates.setName(QObject::tr("%1; hatched: hot spots, %2% or more of the records withheld")
                               .arg(aggregates.name())
                               .arg(100.0 * hotSpot, 0, 'g', 2));
}

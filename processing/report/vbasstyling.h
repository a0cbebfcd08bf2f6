#pragma once

#include <QString>
#include <QStringList>

class QgsFields;
class QgsFillSymbol;
class QgsVectorLayer;

/**
 * How the result layers of a release look for review: in QGIS (VbasLayerStyler applies them when the
 * layers load), in the map image and in the desktop screenshots, all from these functions so that
 * every view agrees.
 */
namespace VbasStyling
{
/** What a result layer is; the order is the drawing order, topmost first. */
enum class Role
{
    Sites,
    Cells,
    Aggregates,
    Rates, //!< the regions of a release for maps, shaded by a rate
    Mapping,
};

/** The anonymity after local suppression of every aggregate: what the aggregates are shaded by by default. */
inline const QString kDefaultShadeField = QStringLiteral("anonymity_after");

/** Returns the aggregate fields that aggregates can be shaded by: the per-aggregate figures. */
QStringList shadeFields();

/**
 * Returns the field aggregates with `fields` are shaded by when `requested` is asked for: that one, or
 * kDefaultShadeField where they lack it (a published layer has no withheld counts). Titles, legends and the
 * log name this field, never the one asked for.
 */
QString shadeField(const QgsFields& fields, const QString& requested);

/**
 * Returns the share of withheld records from which an aggregate counts as a hot spot: twice the share
 * withheld over all of `aggregates` (the suppressed_* counts over those
 * plus released; 0 for a published layer, which has none of them), 0 when nothing was withheld (then nothing
 * is a hot spot).
 */
double hotSpotShare(const QgsVectorLayer& aggregates);

/** Returns the symbol of a hot spot for legends: an unclassed aggregate with the hatch. */
QgsFillSymbol* hotSpotSymbol();

/**
 * Styles aggregated regions: a graduated fill on shadeField(`shadeBy`) (round class breaks, light to dark
 * blue),
 * dark outlines, a dark red hatch over the hot spots of withheld records (hotSpotShare()) and a label
 * "k=" with the anonymity after suppression of each ("all withheld" where nothing is released).
 */
void styleAggregates(QgsVectorLayer& layer, const QString& shadeBy);

/**
 * Styles the small areas with their aggregate: one colour per aggregate, chosen
 * so that aggregates that touch never share one, and thin outlines, so that the merge pattern shows.
 * The aggregate is the last field, as VbasOutputs::mappingFields() lays it out.
 */
void styleMapping(QgsVectorLayer& layer);

/** Styles sites as dark points ringed white, visible on any fill. */
void styleSites(QgsVectorLayer& layer);

/** Styles Voronoi cells as dashed outlines without fill, to compare with the regions below them. */
void styleCells(QgsVectorLayer& layer);

/**
 * Styles the regions of a release for maps: a graduated fill on `rate` (round class breaks, light to dark),
 * a dark red hatch over regions whose rate the preset flags as unstable (`unstable` = 1), legend classes
 * naming the rate, and a layer name that says what the hatch marks and that withheld rates are not filled.
 */
void styleRates(QgsVectorLayer& layer, const QString& rate);

/** Applies the style of `role` (`shadeBy` for aggregates, the rate for rates). */
void style(QgsVectorLayer& layer, Role role, const QString& shadeBy);
/**
 * Makes the legend of styled aggregates in QGIS's layer tree say what it shows: each class names the
 * shaded field ("released 120–240"), and the layer's name says what the hatch marks when it has hot
 * spots. The map image draws a legend of its own.
 */
void explainLegend(QgsVectorLayer& aggregates);

} // namespace VbasStyling

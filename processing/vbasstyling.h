#pragma once

#include <QString>
#include <QStringList>

class QgsFillSymbol;
class QgsProcessingContext;
class QgsVectorLayer;

/**
 * How the result layers of a release look for review: in QGIS (through a layer post-processor), in
 * the map image and in the desktop screenshots, all from these functions so that every view agrees.
 */
namespace VbasStyling
{
/** What a result layer is; the order is the drawing order, topmost first. */
enum class Role
{
    Sites,
    Cells,
    Aggregates,
    Mapping,
};

/** The anonymity after local suppression of every aggregate: what the aggregates are shaded by by default. */
inline const QString kDefaultShadeField = QStringLiteral("anonymity_after");

/** Returns the aggregate fields that aggregates can be shaded by: the per-aggregate figures. */
QStringList shadeFields();

/**
 * Returns the share of withheld records from which an aggregate counts as a hot spot: twice the share
 * withheld over all of `aggregates` (suppressed_local + suppressed_global over those plus released),
 * 0 when nothing was withheld (then nothing is a hot spot).
 */
double hotSpotShare(const QgsVectorLayer& aggregates);

/** Returns the symbol of a hot spot for legends: an unclassed aggregate with the hatch. */
QgsFillSymbol* hotSpotSymbol();

/**
 * Styles aggregated regions: a graduated fill on `shadeBy` (round class breaks, light to dark blue),
 * dark outlines, a dark red hatch over the hot spots of withheld records (hotSpotShare()) and a label
 * "k=" with the anonymity after suppression of each.
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

/** Applies the style of `role` (`shadeBy` for aggregates). */
void style(QgsVectorLayer& layer, Role role, const QString& shadeBy);

/**
 * Asks QGIS to style the output at `destination` as `role` when it loads it into a project at the
 * end of the run (nothing happens for outputs that will not be loaded). `run` names the run (the
 * destination of its aggregates) so that its layers are stacked in Role order among themselves.
 */
void styleOnLoad(QgsProcessingContext& context, const QString& destination, Role role, const QString& shadeBy,
                 const QString& run);
} // namespace VbasStyling

#pragma once

#include "MapRelease.h"
#include "vbasoutputs.h"

#include <QString>
#include <QStringList>

class VbasPlanarFrame;
class QgsFeatureSource;

/**
 * Writes a release for maps (vbas:maprelease): the regions with every figure of their rates, the crosswalk of
 * small areas to regions with GAT-like flags, and the regions' adjacency as a GAL file and an INLA graph.
 */
namespace VbasMapOutputs
{
/** The figure the regions are shaded by, in the order a dialog lists them. */
QStringList rateFields();

/**
 * The regions' fields: region_id, areas, population, cases, the crude and age-standardized rates with their
 * intervals, expected cases, the SIR with its interval, the smoothed rates, at_floor, unstable, withheld and
 * note (why a figure is flagged or withheld, in words).
 */
QgsFields regionFields();
/** Writes every region with its polygon in the source CRS; figures the preset withholds are NULL. */
void writeRegions(VbasSink& sink, const vbas::MapRelease& release, const VbasPlanarFrame& frame);

/** The crosswalk's fields: the small areas' id field, flag (0, 10 or 20, as GAT numbers them), flag_reason
 * and region_id. */
QgsFields crosswalkFields(const QgsField& idField);
/** Writes every small area (`features` of `areas`, in the engine's order) with its region and flag. */
void writeCrosswalk(VbasSink& sink, const QgsFeatureSource& areas, int idField,
                    const std::vector<QgsFeatureId>& features, const vbas::MapRelease& release);

/** The regions' adjacency in GeoDa's GAL format: a header "0 n", then each region's id and count, then its
 * neighbours' ids (region ids 1..n). */
QString galText(const vbas::MapRelease& release);
/** The same adjacency as an INLA graph file: n, then per region its id, count and neighbours (1..n). */
QString inlaGraphText(const vbas::MapRelease& release);
} // namespace VbasMapOutputs

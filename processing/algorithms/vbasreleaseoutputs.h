#pragma once

#include "vbasjob.h"
#include "vbasoutputs.h"

#include <QStringList>
#include <QVariantMap>

class QgsProcessingAlgorithm;
class QgsProcessingContext;
class QgsProcessingFeedback;
class VbasAlgorithm;
class VbasOutputGuard;
class VbasParameterReader;

/**
 * The outputs every release gives (aggregateregions, populationfloor, partitionregions, rateaggregation,
 * releaseonaggregation): addTo() declares them and their options on an algorithm, write() writes a release
 * into them. Each output's name says whether it is for publication or for review (docs/publishing.md).
 */
namespace VbasReleaseOutputs
{
/**
 * Adds RELEASE_FIELDS, RECORD_ID_FIELD, RELEASE_LEDGER, ADD_ROW_ID, KEEP_SUPPRESSED, the outputs OUTPUT,
 * OUTPUT_RECORDS, OUTPUT_HTML_FILE, OUTPUT_REVIEW, OUTPUT_MAP_IMAGE, then SHADE_BY, MAP_IMAGE_WIDTH,
 * MAP_IMAGE_HEIGHT and the numbers; with `withSites` also OUTPUT_MAPPING, OUTPUT_SITES and OUTPUT_CELLS.
 */
void addTo(VbasAlgorithm& algorithm, bool withSites);
/** Adds RELEASE_LEDGER, NEW_LEDGER, LEDGER_KEY, NO_LEDGER and OTHER_PEOPLE (addTo() adds them too). */
void addLedgerTo(VbasAlgorithm& algorithm);
/** Returns true when the optional output `name` has a destination (the user did not skip it). */
bool isWanted(const QVariantMap& parameters, const QString& name);
/**
 * Returns `parameters` with a report (OUTPUT_HTML_FILE) asked for as a temporary file, the dialog's default,
 * kept instead: beside the first output that is a file (regions.gpkg gives regions-report.html), else in the
 * folder of the project, else in the QGIS profile (vbas/reports/), named for when it was made. A temporary
 * file would vanish when QGIS exits, and with it what the release withheld from whom. Given before the output
 * guard, which then writes and commits the report like any output.
 */
QVariantMap withReportKept(const QgsProcessingAlgorithm& algorithm, QVariantMap parameters,
                           const QgsProcessingContext& context);
/**
 * Creates the sinks asked for, writes them (counted for `guard`), the map image and the report (with
 * `ledgerLines`, what the release ledger said), has the layers QGIS loads styled for review, logs what was
 * released and withheld, and returns every output.
 */
QVariantMap write(const VbasParameterReader& read, QgsProcessingFeedback* feedback, VbasOutputGuard& guard,
                  const VbasJob& job, const VbasRelease& release, const QStringList& ledgerLines);
} // namespace VbasReleaseOutputs

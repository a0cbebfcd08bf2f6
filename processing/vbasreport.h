#pragma once

#include "vbasoutputs.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QVariantMap>

class QgsProcessingAlgorithm;
class QgsProcessingContext;

/** The parameters as the report lists them: label and value, in the algorithm's order. */
using VbasReportParameters = QList<QPair<QString, QString>>;

/** Returns every input parameter of `algorithm` with its value in `parameters` (or its default). */
VbasReportParameters vbasReportParameters(const QgsProcessingAlgorithm& algorithm,
                                          const QVariantMap& parameters, QgsProcessingContext& context);

/**
 * Writes the HTML report of a release to `path`: the parameters, where the computation happened, the
 * record counts, every registered metric with its one-line meaning, the site refinement when one ran,
 * the per-aggregate figures, and the warning that only one aggregation of the same records may ever
 * be released. Throws QgsProcessingException naming `outputName` when the file cannot be written.
 */
void vbasWriteReleaseReport(const QString& path, const QString& outputName, const QString& title,
                            const VbasReportParameters& parameters, const VbasRelease& release,
                            const vbas::Dataset& dataset, const VbasPlanarFrame& frame);

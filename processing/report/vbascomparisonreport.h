#pragma once

#include "vbashtml.h"

#include <qgsfeature.h>
#include <qgsfields.h>

/** Returns the comparison columns a Pareto chart can plot: the Pareto objectives of the registry. */
QStringList vbasParetoChartFields();

/**
 * Writes the HTML report of a comparison to `path`: the warning that only one aggregation may ever be
 * released, the parameters, the metrics with their one-line meanings, a scatter chart of the rows on
 * `xField` and `yField` with the Pareto-optimal rows highlighted, and the whole table (`fields`,
 * `rows` as the comparison output holds them, Pareto-optimal rows highlighted). Throws
 * QgsProcessingException naming `outputName` when the file cannot be written.
 */
void vbasWriteComparisonReport(const QString& path, const QString& outputName, const QString& title,
                               const VbasHtml::Parameters& parameters, const QgsFields& fields,
                               const QList<QgsAttributes>& rows, const QString& xField,
                               const QString& yField);

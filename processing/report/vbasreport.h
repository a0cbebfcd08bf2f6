#pragma once

#include "vbashtml.h"
#include "vbasoutputs.h"

#include <QByteArray>

/** A map of the release for the report: PNG bytes (embedded as a data: URI) and what it shows. */
struct VbasReportMap
{
    QByteArray png;
    QString caption;
};

/**
 * Writes the HTML report of a release to `path`: what the release ledger says of it (`ledger`: HTML lines,
 * escaped), the map, the record counts, every registered metric with its
 * one-line meaning, the site refinement when one ran, the generalization search when the release generalized
 * quasi-identifiers (`hierarchies`: every level combination evaluated, its frontier as a chart), the
 * per-aggregate distributions of records, anonymity, distance and compactness as charts, the parameters,
 * where the computation happened and the per-aggregate figures. Throws QgsProcessingException naming
 * `outputName` when the file cannot be written.
 */
void vbasWriteReleaseReport(const QString& path, const QString& outputName, const QString& title,
                            const VbasHtml::Parameters& parameters, const VbasRelease& release,
                            const vbas::Dataset& dataset, const VbasPlanarFrame& frame,
                            const VbasReportMap& map, const QStringList& ledger,
                            const vbas::Hierarchies* hierarchies = nullptr);

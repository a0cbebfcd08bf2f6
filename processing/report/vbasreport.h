#pragma once

#include "vbashtml.h"
#include "vbasjob.h"
#include "vbasoutputs.h"
#include "vbaswithheld.h"

#include <QByteArray>

/** A map of the release for the report: PNG bytes (embedded as a data: URI) and what it shows. */
struct VbasReportMap
{
    QByteArray png;
    QString caption;
};

/**
 * Writes the HTML report of a release of `job` to `path`, for the people who use the data first: a plain
 * summary (how many small areas made the regions, how each field was released, how many records were
 * withheld and from whom: the share withheld of every released value of each quasi-identifier and of every
 * region, `withheld`, recounted from the records' fates by VbasWithheld::count()), what the release ledger
 * says of it (`ledger`: HTML lines, escaped), the map; then the details: the record counts, every registered
 * metric rounded with its meaning, how the site count was chosen, the refinements, the generalization search
 * (every level combination evaluated, the chosen one with the release's own figures), the per-region
 * distributions, the parameters and the figures of every region. `layout` is how the records output publishes
 * the quasi-identifiers. Throws QgsProcessingException naming `outputName` when the file cannot be written.
 */
void vbasWriteReleaseReport(const QString& path, const QString& outputName, const QString& title,
                            const VbasHtml::Parameters& parameters, const VbasJob& job,
                            const VbasRelease& release, const VbasOutputs::RecordLayout& layout,
                            const VbasWithheld& withheld, const VbasReportMap& map,
                            const QStringList& ledger);

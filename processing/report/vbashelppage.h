#pragma once

#include <QString>

class QgsProcessingAlgorithm;

/**
 * Returns the help page of `algorithm`: what it does (its short help), then every parameter with its
 * name, label, default, choices and help, and every output; one HTML file a browser opens offline. Made
 * from the algorithm's own definitions, so it never disagrees with the dialog or `vbas_process help`.
 */
QString vbasHelpPage(const QgsProcessingAlgorithm& algorithm, const QString& version);

/**
 * Writes vbasHelpPage() into a folder of the user's temporary files (one per VBAS `version`) and returns
 * its file URL, what the dialog's Help button opens; an empty string when it cannot be written.
 */
QString vbasHelpUrl(const QgsProcessingAlgorithm& algorithm, const QString& version);

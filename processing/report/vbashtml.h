#pragma once

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVariant>

class QgsProcessingAlgorithm;
class QgsProcessingContext;

/**
 * The building blocks of the HTML reports (release and comparison). A report is one file that a
 * browser opens with no network: styles inline, charts as inline SVG, images as data: URIs, nothing
 * fetched from anywhere.
 */
namespace VbasHtml
{
/** The parameters as a report lists them: label and value, in the algorithm's order. */
using Parameters = QList<QPair<QString, QString>>;

/** Returns every input parameter of `algorithm` with its value in `parameters` (or its default). */
Parameters parameters(const QgsProcessingAlgorithm& algorithm, const QVariantMap& parameters,
                      QgsProcessingContext& context);

/** Returns a table cell: whole numbers in full, other numbers to 10 significant digits, text escaped. */
QString cell(const QVariant& value);
/** Returns a table row of cells; `rowClass`, when given, becomes the row's class attribute. */
QString row(const QVariantList& values, const QString& rowClass = QString());
/** Returns a header row. */
QString header(const QStringList& names);
/** Returns a two-column table of the parameters. */
QString parameterTable(const Parameters& parameters);

/**
 * Returns the opening of a report: doctype, inline style, title, the review-only warning and `releaseNote`
 * (HTML: what the release ledger says of this release).
 */
QString begin(const QString& title, const QString& releaseNote);
/** Returns the end of a report. */
QString end();

/**
 * Writes `html` to `path` as UTF-8. Throws QgsProcessingException naming `outputName` when the file
 * cannot be written.
 */
void write(const QString& path, const QString& outputName, const QString& html);
} // namespace VbasHtml

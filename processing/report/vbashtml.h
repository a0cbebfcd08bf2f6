#pragma once

#include "Registry.h"

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
/** A parameter as a report lists it: the dialog's label, the name scripts use, the value. */
struct Parameter
{
    QString label;
    QString name;
    QString value;
};
/** The parameters as a report lists them, in the algorithm's order. */
using Parameters = QList<Parameter>;

/** Returns every input parameter of `algorithm` with its value in `parameters` (or its default). */
Parameters parameters(const QgsProcessingAlgorithm& algorithm, const QVariantMap& parameters,
                      QgsProcessingContext& context);

/** Returns a whole number in full with thousands separated: "18,897". */
QString count(qint64 value);
/**
 * Returns `value` to three significant digits, as a reader takes in a figure: "0.382", "545", "67,200",
 * "4.02 million".
 */
QString rounded(double value);
/**
 * Returns part / whole as a percentage with one decimal ("0.9 %"): "0 %" for none, "under 0.1 %" for a part
 * too small to show, never "0.0 %"; empty for a whole of 0.
 */
QString percent(double part, double whole);
/** Returns a distance in whole metres: "1,235 m". */
QString metres(double value);
/** Returns a metric's value as its unit reads: records in full, metres whole, any other figure rounded(). */
QString metric(double value, vbas::MetricUnit unit);

/**
 * Returns a table cell, text escaped: whole numbers in full (count()) and other numbers rounded(), both
 * right-aligned (class "n"); text as it is.
 */
QString cell(const QVariant& value);
/** Returns a table row of cells; `rowClass`, when given, becomes the row's class attribute. */
QString row(const QVariantList& values, const QString& rowClass = QString());
/** Returns a header row. */
QString header(const QStringList& names);
/** Returns a two-column table of the parameters. */
QString parameterTable(const Parameters& parameters);

/**
 * Returns the opening of a report: doctype, inline style, title, the review-only warning and `opening` (HTML:
 * what the reader needs first).
 */
QString begin(const QString& title, const QString& opening);
/** Returns the end of a report. */
QString end();

/**
 * Writes `html` to `path` as UTF-8. Throws QgsProcessingException naming `outputName` when the file
 * cannot be written.
 */
void write(const QString& path, const QString& outputName, const QString& html);
} // namespace VbasHtml

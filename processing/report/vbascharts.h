#pragma once

#include <QString>
#include <QVector>

/**
 * Charts for the HTML reports as inline SVG, written here so that a report needs no JavaScript, no
 * library and no network. Every mark carries its numbers as data-* attributes (bin edges and
 * counts, quartiles, row numbers) so that tests and readers can check a chart against its table.
 */
namespace VbasCharts
{
/** Equal-width bins on "nice" edges (1, 2 or 5 times a power of ten); bin i is [edges[i], edges[i+1]). */
struct Bins
{
    QVector<double> edges;
    QVector<int> counts;
};

/**
 * Returns the bins of `values`: about `target` of them, on whole-number edges at least one apart when
 * `integers`, the last one holding the largest value. Values that are not finite are left out; no
 * finite values give no bins.
 */
Bins bins(const QVector<double>& values, bool integers, int target = 10);

/**
 * Returns the label of the bin [from, to): "5" or "5–6" for whole numbers (both ends held), "0.1 – 0.2"
 * otherwise, never in exponent notation.
 */
QString binLabel(double from, double to, bool integers);

/** The five numbers of a box plot; quartiles interpolated linearly between order statistics. */
struct Summary
{
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0;
};
/** Returns the summary of `values`, which must not be empty. */
Summary summary(QVector<double> values);

/**
 * Returns a histogram of the finite `values` with a box plot above it, as an `<svg class="histogram">` whose
 * data-field is `field`: one `rect.bar` per bin (data-from, data-to, data-count) and one `g.boxplot`
 * (data-min, data-q1, data-median, data-q3, data-max). `axisLabel` names the values and their unit.
 */
QString histogram(const QString& field, const QVector<double>& values, bool integers,
                  const QString& axisLabel);

/** One point of a scatter chart: its row in the table the chart comes from. */
struct Point
{
    double x = 0;
    double y = 0;
    int row = 0;
    bool highlighted = false;
};

/**
 * Returns a scatter chart of `points` as an `<svg class="scatter">` (data-x and data-y the column
 * names): one `circle.point` per point (data-row, data-x, data-y), highlighted points also of class
 * pareto and drawn last, with a legend naming `highlightLabel` and `otherLabel`.
 */
QString scatter(const QString& xField, const QString& xLabel, const QString& yField, const QString& yLabel,
                const QVector<Point>& points, const QString& highlightLabel, const QString& otherLabel);

/** Returns 1, 2 or 5 times a power of ten: the smallest such step that is at least `raw`. */
double niceStep(double raw);

/** Returns `value` as the shortest text that reads back as the same double (for data-* attributes). */
QString exact(double value);
} // namespace VbasCharts

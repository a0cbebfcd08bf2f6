#include "vbascharts.h"

#include "vbashtml.h"

#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <cmath>

double VbasCharts::niceStep(double raw)
{
    if (!(raw > 0.0))
        return 1.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double factor : {1.0, 2.0, 5.0})
        if (factor * magnitude >= raw * (1.0 - 1e-9))
            return factor * magnitude;
    return 10.0 * magnitude;
}

namespace
{
using VbasCharts::niceStep;

/**
 * Returns a nice step that cuts [low, high] into about `count` parts, and is never below a billionth of
 * the values' size: values that differ in their last bits would otherwise get a step that adding to
 * them does not change, and no end of bins or ticks.
 */
double stepFor(double low, double high, int count)
{
    return std::max(niceStep((high - low) / count), niceStep(std::max(std::abs(low), std::abs(high)) * 1e-9));
}

/** Returns `value` for an axis: as many decimals as `step` needs, none for whole steps. */
QString tickText(double value, double step)
{
    const int decimals = step >= 1.0 ? 0 : int(std::ceil(-std::log10(step) - 1e-9));
    return QLocale::c().toString(value, 'f', decimals);
}

/** A linear map from data values to pixels. */
struct Scale
{
    double from, to;   // data
    double start, end; // pixels
    double at(double value) const
    {
        return to == from ? (start + end) / 2.0 : start + (value - from) / (to - from) * (end - start);
    }
};

/** Returns tick values from `low` to `high` (nice steps, at most about `maxTicks`), and the step. */
QVector<double> ticks(double low, double high, int maxTicks, double& step)
{
    step = stepFor(low, high, maxTicks);
    QVector<double> values;
    for (double tick = std::ceil(low / step - 1e-9) * step; tick <= high + step * 1e-9; tick += step)
        values << (std::abs(tick) < step * 1e-9 ? 0.0 : tick);
    return values;
}

/** Returns the finite values of `values`: a NaN or an infinity has no bin and no place on an axis. */
QVector<double> finite(const QVector<double>& values)
{
    QVector<double> kept;
    std::copy_if(values.begin(), values.end(), std::back_inserter(kept),
                 [](double v) { return std::isfinite(v); });
    return kept;
}

QString px(double value)
{
    return QString::number(value, 'f', 1);
}

QString line(double x1, double y1, double x2, double y2, const char* cssClass)
{
    return QStringLiteral("<line class=\"%1\" x1=\"%2\" y1=\"%3\" x2=\"%4\" y2=\"%5\"/>\n")
        .arg(QLatin1String(cssClass), px(x1), px(y1), px(x2), px(y2));
}

QString text(double x, double y, const QString& content, const char* anchor = "middle",
             const QString& extra = {})
{
    return QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"%3\"%4>%5</text>\n")
        .arg(px(x), px(y), QLatin1String(anchor), extra, content.toHtmlEscaped());
}

QString svgOpen(const QString& cssClass, const QString& data, int width, int height, const QString& label)
{
    return QStringLiteral(
               "<svg class=\"%1\" %2 width=\"%3\" height=\"%4\" viewBox=\"0 0 %3 %4\" role=\"img\" "
               "aria-label=\"%5\">\n")
        .arg(cssClass, data)
        .arg(width)
        .arg(height)
        .arg(label.toHtmlEscaped());
}

/** Returns the vertical axis: grid lines and labels of counts or values. */
QString verticalAxis(const Scale& y, double left, double right, int maxTicks, bool wholeNumbers)
{
    double step = 0;
    QString svg;
    for (const double tick : ticks(y.from, y.to, maxTicks, step))
    {
        if (wholeNumbers && tick != std::floor(tick))
            continue;
        svg += line(left, y.at(tick), right, y.at(tick), "grid");
        svg += text(left - 6, y.at(tick) + 4, tickText(tick, step), "end");
    }
    return svg + line(left, y.start, left, y.end, "axis");
}
} // namespace

QString VbasCharts::binLabel(double from, double to, bool integers)
{
    if (integers)
        return to - from == 1.0 ? tickText(from, 1.0)
                                : QStringLiteral("%1–%2").arg(tickText(from, 1.0), tickText(to - 1, 1.0));
    return QStringLiteral("%1 – %2").arg(tickText(from, to - from), tickText(to, to - from));
}

QString VbasCharts::exact(double value)
{
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

VbasCharts::Bins VbasCharts::bins(const QVector<double>& allValues, bool integers, int target)
{
    const QVector<double> values = finite(allValues);
    Bins result;
    if (values.isEmpty())
        return result;
    const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
    double step = stepFor(*lowest, *highest, target);
    if (integers)
        step = std::max(1.0, std::round(step));
    // Small whole-number steps start at the smallest value ("5–6" rather than "4–5" for anonymity with
    // k = 5); other steps on a multiple of the step.
    const double first = integers && step < 10 ? *lowest : std::floor(*lowest / step) * step;
    // Edges are computed once and bins found by comparing with them, so that a value falls in the bin
    // whose printed edges hold it, whatever the rounding of first + i * step.
    result.edges << first;
    while (result.edges.back() <= *highest)
        result.edges << first + step * double(result.edges.size());
    result.counts.fill(0, result.edges.size() - 1);
    for (const double value : values)
        ++result.counts[int(std::upper_bound(result.edges.begin(), result.edges.end(), value) -
                            result.edges.begin()) -
                        1];
    return result;
}

VbasCharts::Summary VbasCharts::summary(QVector<double> values)
{
    std::sort(values.begin(), values.end());
    const auto quantile = [&](double p)
    {
        const double h = p * double(values.size() - 1);
        const int low = int(std::floor(h));
        return low + 1 < values.size() ? values[low] + (h - low) * (values[low + 1] - values[low])
                                       : values[low];
    };
    return {values.front(), quantile(0.25), quantile(0.5), quantile(0.75), values.back()};
}

QString VbasCharts::histogram(const QString& field, const QVector<double>& allValues, bool integers,
                              const QString& axisLabel)
{
    const QVector<double> values = finite(allValues);
    const int width = 480, height = 280;
    const double left = 52, right = width - 14, boxTop = 10, boxBottom = 40, barTop = 54,
                 barBottom = height - 50;
    QString svg = svgOpen(QStringLiteral("histogram"), QStringLiteral("data-field=\"%1\"").arg(field), width,
                          height, axisLabel);
    const Bins histogram = bins(values, integers);
    if (histogram.counts.isEmpty())
        return svg + text(width / 2.0, height / 2.0, QObject::tr("no regions")) + QStringLiteral("</svg>\n");

    const Scale x{histogram.edges.front(), histogram.edges.back(), left, right};
    const int highest = *std::max_element(histogram.counts.begin(), histogram.counts.end());
    const Scale y{0, double(highest), barBottom, barTop};
    svg += verticalAxis(y, left, right, std::min(highest, 5), true);
    for (int i = 0; i < histogram.counts.size(); ++i)
    {
        const double from = histogram.edges[i], to = histogram.edges[i + 1];
        svg += QStringLiteral(
                   "<rect class=\"bar\" x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" data-from=\"%5\" "
                   "data-to=\"%6\" data-count=\"%7\"><title>%8: %7</title></rect>\n")
                   .arg(px(x.at(from) + 1), px(y.at(histogram.counts[i])), px(x.at(to) - x.at(from) - 2),
                        px(barBottom - y.at(histogram.counts[i])), exact(from), exact(to))
                   .arg(histogram.counts[i])
                   .arg(binLabel(from, to, integers).toHtmlEscaped());
    }
    svg += line(left, barBottom, right, barBottom, "axis");
    // Whole-number bins one wide are labelled under their middle, other bins at their edges; at most
    // about twelve labels so that they never run into each other.
    const bool centred = integers && histogram.edges[1] - histogram.edges[0] == 1.0;
    const int labels = int(centred ? histogram.counts.size() : histogram.edges.size());
    const int every = (labels + 11) / 12;
    for (int i = 0; i < labels; i += every)
    {
        const double at = centred ? (x.at(histogram.edges[i]) + x.at(histogram.edges[i + 1])) / 2.0
                                  : x.at(histogram.edges[i]);
        svg +=
            text(at, barBottom + 16, tickText(histogram.edges[i], histogram.edges[1] - histogram.edges[0]));
    }
    svg += text((left + right) / 2.0, height - 12, axisLabel);

    const Summary five = summary(values);
    const double middle = (boxTop + boxBottom) / 2.0;
    svg += QStringLiteral(
               "<g class=\"boxplot\" data-min=\"%1\" data-q1=\"%2\" data-median=\"%3\" data-q3=\"%4\" "
               "data-max=\"%5\"><title>%6</title>\n")
               .arg(exact(five.min), exact(five.q1), exact(five.median), exact(five.q3), exact(five.max))
               .arg(QObject::tr("min %1, quartiles %2 / %3 / %4, max %5")
                        .arg(VbasHtml::rounded(five.min), VbasHtml::rounded(five.q1),
                             VbasHtml::rounded(five.median), VbasHtml::rounded(five.q3),
                             VbasHtml::rounded(five.max))
                        .toHtmlEscaped());
    // A whole number v fills [v, v + 1) on the axis: the box marks it in the middle, above its bar.
    const double half = integers ? 0.5 : 0.0;
    const auto at = [&](double value)
    {
        return x.at(value + half);
    };
    svg += line(at(five.min), middle, at(five.q1), middle, "whisker");
    svg += line(at(five.q3), middle, at(five.max), middle, "whisker");
    svg += QStringLiteral("<rect class=\"box\" x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\"/>\n")
               .arg(px(at(five.q1)), px(boxTop), px(std::max(1.0, at(five.q3) - at(five.q1))),
                    px(boxBottom - boxTop));
    svg += line(at(five.median), boxTop, at(five.median), boxBottom, "median");
    return svg + QStringLiteral("</g>\n</svg>\n");
}

QString VbasCharts::scatter(const QString& xField, const QString& xLabel, const QString& yField,
                            const QString& yLabel, const QVector<Point>& points,
                            const QString& highlightLabel, const QString& otherLabel)
{
    const int width = 720, height = 460;
    const double left = 86, right = width - 20, top = 40, bottom = height - 56;
    QString svg =
        svgOpen(QStringLiteral("scatter"), QStringLiteral("data-x=\"%1\" data-y=\"%2\"").arg(xField, yField),
                width, height, QStringLiteral("%1 / %2").arg(yLabel, xLabel));
    if (points.isEmpty())
        return svg + text(width / 2.0, height / 2.0, QObject::tr("no solutions")) +
               QStringLiteral("</svg>\n");
    double xLow = points[0].x, xHigh = xLow, yLow = points[0].y, yHigh = yLow;
    for (const Point& point : points)
    {
        xLow = std::min(xLow, point.x), xHigh = std::max(xHigh, point.x);
        yLow = std::min(yLow, point.y), yHigh = std::max(yHigh, point.y);
    }
    // A margin of a step around the points keeps them off the axes.
    double xStep = 0, yStep = 0;
    ticks(xLow, xHigh == xLow ? xLow + 1.0 : xHigh, 6, xStep);
    ticks(yLow, yHigh == yLow ? yLow + 1.0 : yHigh, 6, yStep);
    const Scale x{std::floor(xLow / xStep) * xStep - xStep / 2, std::ceil(xHigh / xStep) * xStep + xStep / 2,
                  left, right};
    const Scale y{std::floor(yLow / yStep) * yStep - yStep / 2, std::ceil(yHigh / yStep) * yStep + yStep / 2,
                  bottom, top};
    svg += verticalAxis(y, left, right, 6, false);
    double step = 0;
    for (const double tick : ticks(x.from, x.to, 6, step))
    {
        svg += line(x.at(tick), top, x.at(tick), bottom, "grid");
        svg += text(x.at(tick), bottom + 16, tickText(tick, step));
    }
    svg += line(left, bottom, right, bottom, "axis");
    svg += text((left + right) / 2.0, height - 14, xLabel);
    svg += text(16, (top + bottom) / 2.0, yLabel, "middle",
                QStringLiteral(" transform=\"rotate(-90 16 %1)\"").arg(px((top + bottom) / 2.0)));
    for (const bool highlighted : {false, true})
        for (const Point& point : points)
        {
            if (point.highlighted != highlighted)
                continue;
            svg += QStringLiteral("<circle class=\"point%1\" cx=\"%2\" cy=\"%3\" r=\"%4\" data-row=\"%5\" "
                                  "data-x=\"%6\" data-y=\"%7\"><title>%8</title></circle>\n")
                       .arg(highlighted ? QStringLiteral(" pareto") : QString(), px(x.at(point.x)),
                            px(y.at(point.y)), highlighted ? QStringLiteral("6") : QStringLiteral("5"))
                       .arg(point.row)
                       .arg(exact(point.x), exact(point.y))
                       .arg(QStringLiteral("#%1: %2, %3")
                                .arg(point.row)
                                .arg(VbasHtml::rounded(point.x), VbasHtml::rounded(point.y))
                                .toHtmlEscaped());
        }
    svg += QStringLiteral("<g class=\"legend\"><circle class=\"key pareto\" cx=\"%1\" cy=\"16\" r=\"6\"/>\n")
               .arg(px(left + 10));
    svg += text(left + 22, 20, highlightLabel, "start");
    svg += QStringLiteral("<circle class=\"key\" cx=\"%1\" cy=\"16\" r=\"5\"/>\n").arg(px(left + 330));
    svg += text(left + 342, 20, otherLabel, "start");
    return svg + QStringLiteral("</g>\n</svg>\n");
}

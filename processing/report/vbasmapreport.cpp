#include "vbasmapreport.h"

#include <qgsgeometry.h>

#include <QRectF>

#include <algorithm>
#include <cmath>

namespace
{
/** Light to dark blue, one per class. */
const QStringList kClassColours{QStringLiteral("#eff3ff"), QStringLiteral("#bdd7e7"),
                                QStringLiteral("#6baed6"), QStringLiteral("#3182bd"),
                                QStringLiteral("#08519c")};

/** The shown figure of a region as published: NaN when withheld or absent. */
double shownValue(const vbas::RegionRates& region, const QString& rate)
{
    const vbas::RegionRates shown = region.published();
    const double none = std::nan("");
    if (rate == QLatin1String("adjusted_rate"))
        return shown.adjusted ? shown.adjusted->rate : none;
    if (rate == QLatin1String("eb_global_rate"))
        return shown.globalSmoothedRate;
    if (rate == QLatin1String("eb_local_rate"))
        return shown.localSmoothedRate;
    if (rate == QLatin1String("sir"))
        return shown.ratio ? shown.ratio->ratio : none;
    return shown.crudeRate;
}

bool unstable(const vbas::RegionRates& region)
{
    return std::any_of(region.status.begin(), region.status.end(),
                       [](const vbas::FigureStatus& status) { return status.flagged; });
}

/** The map as inline SVG: the regions' planar polygons, north up, shaded by `values` in `breaks`. */
QString svgMap(const vbas::MapRelease& release, const std::vector<double>& values,
               const std::vector<double>& breaks)
{
    std::vector<QgsGeometry> polygons;
    QgsRectangle extent;
    for (const vbas::DissolvedAggregate& polygon : release.polygons)
    {
        QgsGeometry geometry;
        geometry.fromWkb(
            QByteArray(reinterpret_cast<const char*>(polygon.wkb.data()), int(polygon.wkb.size())));
        extent.combineExtentWith(geometry.boundingBox());
        polygons.push_back(geometry);
    }
    const double width = 760.0, scale = width / std::max(extent.width(), 1e-9);
    const double height = std::max(1.0, extent.height() * scale);
    QString svg =
        QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" "
                       "viewBox=\"0 0 %1 %2\"><defs><pattern id=\"hatch\" width=\"6\" height=\"6\" "
                       "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><line x1=\"0\" "
                       "y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#7f0000\" stroke-width=\"1.5\"/></pattern>"
                       "</defs>")
            .arg(width, 0, 'f', 0)
            .arg(height, 0, 'f', 0);
    for (std::size_t r = 0; r < polygons.size(); ++r)
    {
        QString path;
        for (const QgsPolygonXY& polygon : polygons[r].asMultiPolygon())
            for (const QgsPolylineXY& ring : polygon)
            {
                for (int i = 0; i < ring.size(); ++i)
                    path += QStringLiteral("%1%2 %3")
                                .arg(i == 0 ? QStringLiteral("M") : QStringLiteral("L"))
                                .arg((ring[i].x() - extent.xMinimum()) * scale, 0, 'f', 1)
                                .arg((extent.yMaximum() - ring[i].y()) * scale, 0, 'f', 1);
                path += QLatin1Char('Z');
            }
        QString colour = QStringLiteral("#cccccc");
        if (!std::isnan(values[r]))
        {
            std::size_t c = 0;
            while (c + 1 < breaks.size() && values[r] > breaks[c + 1])
                ++c;
            colour = kClassColours[int(std::min<std::size_t>(c, 4))];
        }
        svg += QStringLiteral("<path d=\"%1\" fill=\"%2\" fill-rule=\"evenodd\" stroke=\"#333\" "
                              "stroke-width=\"0.6\"><title>region %3</title></path>")
                   .arg(path, colour)
                   .arg(r + 1);
        if (unstable(release.rates.regions[r]))
            svg +=
                QStringLiteral("<path d=\"%1\" fill=\"url(#hatch)\" fill-rule=\"evenodd\" stroke=\"none\"/>")
                    .arg(path);
    }
    return svg + QStringLiteral("</svg>");
}
} // namespace

QString VbasMapReport::html(const vbas::MapRelease& release, const QString& rate, double multiplier,
                            const QString& floors, const QStringList& lines,
                            const VbasHtml::Parameters& parameters)
{
    const std::size_t regions = release.regions.regionCount;
    std::vector<double> values, sorted;
    for (const vbas::RegionRates& region : release.rates.regions)
    {
        values.push_back(shownValue(region, rate));
        if (!std::isnan(values.back()))
            sorted.push_back(values.back());
    }
    std::sort(sorted.begin(), sorted.end());
    // Five classes of about equal numbers of regions (quantiles), as epidemiological atlases draw them.
    std::vector<double> breaks;
    for (int c = 0; c <= 5 && !sorted.empty(); ++c)
        breaks.push_back(sorted[std::min(sorted.size() - 1, std::size_t(c * double(sorted.size()) / 5.0))]);
    const QString per = VbasHtml::count(qint64(multiplier));
    const QString what = rate == QLatin1String("sir") ? QObject::tr("standardized incidence ratio")
                                                      : QObject::tr("%1 per %2").arg(rate, per);
    QString legend;
    for (std::size_t c = 0; c + 1 < breaks.size(); ++c)
        legend += QStringLiteral("<li><span style=\"display:inline-block;width:1.2em;background:%1\">&nbsp;"
                                 "</span> %2 from %3 to %4</li>")
                      .arg(kClassColours[int(c)], what.toHtmlEscaped(), VbasHtml::rounded(breaks[c]),
                           VbasHtml::rounded(breaks[c + 1]));
    std::size_t unstableRegions = 0, withheldRegions = 0;
    for (std::size_t r = 0; r < regions; ++r)
        unstableRegions += unstable(release.rates.regions[r]) ? 1 : 0,
            withheldRegions += std::isnan(values[r]) ? 1 : 0;
    legend += QObject::tr("<li>hatched: unstable, the preset flags the rate (%1 regions)</li><li>grey: "
                          "withheld by the preset or not computed (%2 regions)</li>")
                  .arg(unstableRegions)
                  .arg(withheldRegions);

    QString body = QObject::tr("<h2>The map of %1</h2>").arg(what.toHtmlEscaped());
    body += svgMap(release, values, breaks) + QStringLiteral("<ul class=\"legend\">%1</ul>").arg(legend);
    body +=
        QObject::tr("<h2>The regions</h2><p>%1 regions, each at %2; %3 small areas joined the nearest "
                    "region across a gap, %4 lie in regions below the floor (their parent holds fewer).</p>")
            .arg(regions)
            .arg(floors.toHtmlEscaped())
            .arg(release.regions.joinedAreas)
            .arg(release.regions.belowFloorAreas);
    body += QStringLiteral("<table>") +
            VbasHtml::header({QObject::tr("region"), QObject::tr("population"), QObject::tr("cases"),
                              QObject::tr("crude rate"), QObject::tr("age-standardized"), QObject::tr("SIR"),
                              QObject::tr("EB global"), QObject::tr("EB local"), QObject::tr("note")});
    for (std::size_t r = 0; r < regions; ++r)
    {
        const vbas::RegionRates shown = release.rates.regions[r].published();
        const auto figure = [](double value)
        {
            return std::isnan(value) ? QVariant(QObject::tr("withheld")) : QVariant(value);
        };
        QStringList notes;
        for (const vbas::FigureStatus& status : release.rates.regions[r].status)
            if (!status.reasons.empty() && !notes.contains(QString::fromStdString(status.reasons)))
                notes << QString::fromStdString(status.reasons);
        body +=
            VbasHtml::row({int(r + 1), figure(shown.population), figure(shown.cases), figure(shown.crudeRate),
                           shown.adjusted ? QVariant(shown.adjusted->rate) : QVariant(QObject::tr("none")),
                           shown.ratio ? figure(shown.ratio->ratio) : QVariant(QObject::tr("none")),
                           figure(shown.globalSmoothedRate), figure(shown.localSmoothedRate),
                           notes.join(QStringLiteral("; "))});
    }
    body += QStringLiteral("</table><h2>%1</h2><ul>").arg(QObject::tr("The log"));
    for (const QString& line : lines)
        body += QStringLiteral("<li>%1</li>").arg(line.toHtmlEscaped());
    body += QStringLiteral("</ul><h2>%1</h2>").arg(QObject::tr("Parameters")) +
            VbasHtml::parameterTable(parameters);
    return VbasHtml::begin(QObject::tr("Map release: %1").arg(what), QString()) + body + VbasHtml::end();
}

#include "vbasmapimage.h"

#include "vbascharts.h"
#include "vbasdisk.h"
#include "vbasqgiscompat.h"
#include "vbasstyling.h"

#include <qgsfillsymbol.h>
#include <qgsgraduatedsymbolrenderer.h>
#include <qgsmaprenderercustompainterjob.h>
#include <qgsmapsettings.h>
#include <qgsmemoryproviderutils.h>
#include <qgsprocessingfeedback.h>
#include <qgssinglesymbolrenderer.h>
#include <qgsvectordataprovider.h>
#include <qgsvectorlayer.h>

#include <QBuffer>
#include <QFile>
#include <QPainter>

#include <cmath>

namespace
{
/** Returns a memory layer written by `writer` with the writers of the outputs. */
std::unique_ptr<QgsVectorLayer> memoryLayer(const QString& name, const QgsFields& fields,
                                            VbasCompat::WkbType type, const QgsCoordinateReferenceSystem& crs,
                                            QgsProcessingFeedback& feedback,
                                            const std::function<void(VbasSink&)>& writer)
{
    std::unique_ptr<QgsVectorLayer> layer(QgsMemoryProviderUtils::createMemoryLayer(name, fields, type, crs));
    VbasSink sink(*layer->dataProvider(), name, feedback, nullptr); // in memory: no file to check
    writer(sink);
    layer->updateExtents();
    return layer;
}

/** Draws `text` left-aligned and vertically centred at `x`, `middle`; returns where it ends. */
int drawText(QPainter& painter, int x, int middle, const QString& text)
{
    const QRect box = painter.fontMetrics().boundingRect(text);
    painter.drawText(x, middle - box.height() / 2 - box.top(), text);
    return x + painter.fontMetrics().horizontalAdvance(text);
}
} // namespace

VbasMapImage::VbasMapImage(const VbasJob& job, const VbasRelease& release, bool withSites,
                           const QString& shadeBy, VbasOutputs::Audience audience,
                           QgsProcessingFeedback& feedback)
    : mPlanarCrs(job.frame->planarCrs())
    , mTransformContext(job.frame->transformContext())
{
    const VbasPlanarFrame& frame = *job.frame;
    mAggregates =
        memoryLayer(QStringLiteral("aggregates"), VbasOutputs::aggregateFields(release, audience),
                    VbasCompat::WkbMultiPolygon, frame.sourceCrs(), feedback,
                    [&](VbasSink& sink) { VbasOutputs::writeAggregates(sink, release, frame, audience); });
    mMapping =
        memoryLayer(QStringLiteral("small areas"),
                    VbasOutputs::mappingFields(job.regions->fields(), job.regionIdField, release),
                    QgsWkbTypes::multiType(job.regions->wkbType()), frame.sourceCrs(), feedback,
                    [&](VbasSink& sink)
                    { VbasOutputs::writeMapping(sink, *job.regions, job.regionIdField, job.data, release); });
    mShadeBy = VbasStyling::shadeField(mAggregates->fields(), shadeBy);
    VbasStyling::styleAggregates(*mAggregates, mShadeBy);
    VbasStyling::styleMapping(*mMapping);
    if (withSites)
    {
        mSites = memoryLayer(QStringLiteral("sites"), VbasOutputs::siteFields(&release), VbasCompat::WkbPoint,
                             frame.sourceCrs(), feedback,
                             [&](VbasSink& sink)
                             {
                                 VbasOutputs::writeSites(
                                     sink, {release.result.partition.sites, release.result.partition.weights},
                                     frame, &release);
                             });
        VbasStyling::styleSites(*mSites);
    }
}

VbasMapImage::~VbasMapImage() = default;

QgsMapSettings VbasMapImage::settings(const QSize& size, double dpi) const
{
    QgsMapSettings settings;
    // Drawn in the planar frame of the computation: true shapes and a scale bar in metres.
    settings.setDestinationCrs(mPlanarCrs);
    settings.setTransformContext(mTransformContext);
    const QgsCoordinateTransform toPlanar(mAggregates->crs(), mPlanarCrs, mTransformContext);
    settings.setExtent(toPlanar.transformBoundingBox(mAggregates->extent()).scaled(1.04));
    settings.setOutputSize(size);
    settings.setOutputDpi(dpi);
    return settings;
}

QImage VbasMapImage::panel(const QList<QgsMapLayer*>& layers, const QSize& size, double dpi) const
{
    QgsMapSettings settings = this->settings(size, dpi);
    settings.setLayers(layers);
    settings.setBackgroundColor(Qt::white);
    settings.setFlag(Qgis::MapSettingsFlag::Antialiasing, true);
    settings.setFlag(Qgis::MapSettingsFlag::DrawLabeling, true);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    // start() and waitForFinished() render in a worker of their own and wait: safe in the thread of
    // an algorithm, unlike renderSynchronously().
    QgsMapRendererCustomPainterJob job(settings, &painter);
    job.start();
    job.waitForFinished();
    painter.end();
    return image;
}

QImage VbasMapImage::render(const QSize& size) const
{
    // Sizes are for 1600 x 1000 pixels and scale with the image.
    const double scale = std::clamp(std::min(size.width() / 1600.0, size.height() / 1000.0), 0.4, 3.0);
    const int margin = int(16 * scale), heading = int(30 * scale), legend = int(96 * scale);
    const QSize panelSize((size.width() - 3 * margin) / 2, size.height() - heading - legend - 2 * margin);
    // Opaque: a white page needs no alpha channel, and the PNG is a tenth smaller without one.
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    if (panelSize.width() < 10 || panelSize.height() < 10)
        return image;
    const double dpi = 96.0 * scale;
    QList<QgsMapLayer*> right{mMapping.get()};
    if (mSites)
        right.prepend(mSites.get());

    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(std::max(9, int(16 * scale)));
    font.setBold(true);
    painter.setFont(font);
    painter.setPen(QColor("#222222"));
    const int top = margin + heading;
    const QString titles[] = {QObject::tr("Released regions shaded by %1, labelled with k")
                                  .arg(VbasOutputs::aggregateFieldInWords(mShadeBy)),
                              mSites ? QObject::tr("Small areas coloured by their region; sites")
                                     : QObject::tr("Small areas coloured by their region")};
    for (int i = 0; i < 2; ++i)
    {
        const int left = margin + i * (panelSize.width() + margin);
        drawText(painter, left, margin + heading / 2, titles[i]);
        painter.drawImage(left, top,
                          panel(i == 0 ? QList<QgsMapLayer*>{mAggregates.get()} : right, panelSize, dpi));
        painter.setPen(QColor("#999999"));
        painter.drawRect(left, top, panelSize.width() - 1, panelSize.height() - 1);
        painter.setPen(QColor("#222222"));
    }
    font.setBold(false);
    painter.setFont(font);
    drawLegend(painter, QRect(margin, top + panelSize.height() + margin, size.width() - 2 * margin, legend),
               scale, settings(panelSize, dpi).mapUnitsPerPixel());
    painter.end();
    return image;
}

void VbasMapImage::drawLegend(QPainter& painter, const QRect& area, double scale, double metresPerPixel) const
{
    const QSize swatch(int(26 * scale), int(18 * scale));
    const int gap = int(10 * scale), row = area.height() / 2;
    int x = area.left(), middle = area.top() + row / 2;
    x = drawText(painter, x, middle, VbasOutputs::aggregateFieldInWords(mShadeBy) + QStringLiteral(":")) +
        gap;
    const auto* graduated = dynamic_cast<const QgsGraduatedSymbolRenderer*>(mAggregates->renderer());
    for (const QgsRendererRange& range : graduated->ranges())
    {
        painter.drawImage(x, middle - swatch.height() / 2, range.symbol()->asImage(swatch));
        x = drawText(painter, x + swatch.width() + gap / 2, middle, range.label()) + 2 * gap;
    }

    // Second row: the hot-spot hatch, the sites, the scale bar.
    x = area.left();
    middle = area.top() + row + row / 2;
    const double hotSpot = VbasStyling::hotSpotShare(*mAggregates);
    if (hotSpot > 0)
    {
        std::unique_ptr<QgsSymbol> hatch(VbasStyling::hotSpotSymbol());
        painter.drawImage(x, middle - swatch.height() / 2, hatch->asImage(swatch));
        x = drawText(painter, x + swatch.width() + gap / 2, middle,
                     QObject::tr(
                         "hot spot: at least %1% of the region's records withheld (twice the overall share)")
                         .arg(100.0 * hotSpot, 0, 'g', 2)) +
            3 * gap;
    }
    if (mSites)
    {
        auto* sites = dynamic_cast<const QgsSingleSymbolRenderer*>(mSites->renderer());
        std::unique_ptr<QgsSymbol> site(sites->symbol()->clone());
        painter.drawImage(x, middle - swatch.height() / 2, site->asImage(swatch));
        x = drawText(painter, x + swatch.width() + gap / 2, middle, QObject::tr("site")) + 3 * gap;
    }
    // A round length near a sixth of a panel.
    const double metres = VbasCharts::niceStep(area.width() / 12.0 * metresPerPixel);
    const int length = int(std::lround(metres / metresPerPixel));
    painter.fillRect(x, middle - int(3 * scale), length, int(6 * scale), QColor("#222222"));
    drawText(painter, x + length + gap / 2, middle,
             metres >= 1000 ? QObject::tr("%1 km").arg(metres / 1000) : QObject::tr("%1 m").arg(metres));
}

QByteArray VbasMapImage::png(const QSize& size) const
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    render(size).save(&buffer, "PNG");
    return bytes;
}

void VbasMapImage::save(const QString& path, const QString& outputName, const QByteArray& png)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(png) < 0 || !file.flush())
        throw QgsProcessingException(QObject::tr("%1: cannot write the map image to %2: %3")
                                         .arg(outputName, path, VbasDisk::reason(file.errorString(), path)));
}

QString VbasMapImage::caption() const
{
    const double hotSpot = VbasStyling::hotSpotShare(*mAggregates);
    return QObject::tr(
               "Left: the %1 released regions shaded by %2, each labelled with k, its anonymity after "
               "suppression%3. Right: the %4 small areas coloured by their released region (regions that "
               "touch never share a colour)%5.")
        .arg(mAggregates->featureCount())
        .arg(
            VbasOutputs::aggregateFieldInWords(mShadeBy),
            hotSpot > 0
                ? QObject::tr("; hatched: hot spots, where at least %1% of a region's records were withheld, "
                              "twice the share withheld overall")
                      .arg(100.0 * hotSpot, 0, 'g', 2)
                : QString())
        .arg(mMapping->featureCount())
        .arg(mSites ? QObject::tr(", with the sites the regions grew around") : QString());
}

// OUTPUT_MAP_IMAGE: a PNG of the requested size that shows the release: the shaded regions with the
// hatch of hot spots on the left, the small areas in their aggregate's colours on the right.

#include "processingtestutils.h"
#include "realdata.h"

#include <QFile>
#include <QImage>
#include <QSet>
#include <QTemporaryDir>

#include <gtest/gtest.h>

namespace
{
/** What a part of an image holds: its distinct colours and the share of pixels that are not white. */
struct Pixels
{
    QSet<QRgb> colours;
    double inked = 0;
    int count(QRgb colour) const { return counts.value(colour); }
    QHash<QRgb, int> counts;
    int reddish = 0; //!< antialiased hatch lines are seldom exactly their colour
};

Pixels pixels(const QImage& image, const QRect& area)
{
    Pixels found;
    qint64 inked = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x)
        {
            const QRgb colour = image.pixel(x, y) & 0xffffff;
            found.colours.insert(colour);
            ++found.counts[colour];
            inked += colour != 0xffffff ? 1 : 0;
            found.reddish += qRed(colour) > qGreen(colour) + 40 && qRed(colour) > qBlue(colour) + 40 ? 1 : 0;
        }
    found.inked = double(inked) / (double(area.width()) * area.height());
    return found;
}

QImage runForImage(const QTemporaryDir& folder, QVariantMap parameters)
{
    parameters.insert("OUTPUT_MAP_IMAGE", folder.filePath("map.png"));
    const AlgorithmRun run = runAlgorithm("vbas:aggregateregions", parameters);
    EXPECT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(run.results.value("OUTPUT_MAP_IMAGE").toString(), folder.filePath("map.png"));
    QFile file(folder.filePath("map.png"));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    EXPECT_TRUE(bytes.startsWith("\x89PNG\r\n\x1a\n")) << "a PNG file";
    return QImage::fromData(bytes, "PNG");
}
} // namespace

TEST(MapImage, IsAPngOfTheRequestedSizeShowingRegionsAndAreasWithHotSpotsOnlyForReview)
{
    const OlindaInput olinda;
    const QTemporaryDir folder;
    QVariantMap parameters = olinda.parameters({"age_band", "sex", "married"});
    parameters.insert("MAP_IMAGE_WIDTH", 900);
    parameters.insert("MAP_IMAGE_HEIGHT", 560);
    parameters.insert("OUTPUT_HTML_FILE", folder.filePath("report.html"));
    const QImage published = runForImage(folder, parameters);
    ASSERT_EQ(published.size(), QSize(900, 560));
    EXPECT_LT(pixels(published, QRect(0, 40, 450, 400)).reddish, 20)
        << "no hot spots of withheld records on the published map";

    // The report's map, for review, shows them.
    QFile report(folder.filePath("report.html"));
    ASSERT_TRUE(report.open(QIODevice::ReadOnly));
    const QByteArray html = report.readAll();
    const QByteArray prefix = "data:image/png;base64,";
    const auto start = html.indexOf(prefix) + prefix.size();
    ASSERT_GE(start, prefix.size());
    const QImage image =
        QImage::fromData(QByteArray::fromBase64(html.mid(start, html.indexOf('"', start) - start)), "PNG");
    ASSERT_EQ(image.size(), QSize(900, 560));

    // The panels: the left and right halves without the legend band below.
    const Pixels left = pixels(image, QRect(0, 40, 450, 400)),
                 right = pixels(image, QRect(450, 40, 450, 400));
    EXPECT_GT(left.inked, 0.3);
    EXPECT_GT(right.inked, 0.3);
    EXPECT_GT(left.colours.size(), 50) << "shades, outlines, hatch and labels, antialiased";
    EXPECT_GT(left.reddish, 200) << "the dark red hatch of hot spots (this release withholds records)";
    int paletteColours = 0;
    for (const QRgb colour : {0x8dd3c7u, 0xffffb3u, 0xbebadau, 0xfb8072u, 0x80b1d3u, 0xfdb462u})
        paletteColours += right.count(colour) > 500 ? 1 : 0;
    EXPECT_GE(paletteColours, 3) << "touching aggregates need at least three colours";
}

TEST(MapImage, Is1600By1000UnlessToldOtherwise)
{
    const OlindaInput olinda;
    const QTemporaryDir folder;
    EXPECT_EQ(runForImage(folder, olinda.parameters({"age_band", "sex"})).size(), QSize(1600, 1000));
}

TEST(MapImage, AReviewOnlyShadeFieldIsTheDefaultsMapWithItsTitleAndLegend)
{
    // The published map cannot show withheld counts: asked for suppressed_local it is shaded by
    // anonymity_after, so it must be the very image of the default, title and legend included (which named
    // the field asked for).
    const OlindaInput olinda;
    const QTemporaryDir folder;
    QVariantMap parameters = olinda.parameters({"age_band", "sex"});
    parameters.insert("MAP_IMAGE_WIDTH", 800);
    parameters.insert("MAP_IMAGE_HEIGHT", 500);
    const QImage byDefault = runForImage(folder, parameters);
    parameters.insert("SHADE_BY", "suppressed_local");
    const QImage fallenBack = runForImage(folder, parameters);
    ASSERT_EQ(fallenBack.size(), QSize(800, 500));
    EXPECT_TRUE(sameButAntialiasing(fallenBack, byDefault))
        << "the map of SHADE_BY=suppressed_local differs from the default's";
    // Another published field changes the map: the comparison sees titles and shades.
    parameters.insert("SHADE_BY", "released");
    EXPECT_FALSE(sameButAntialiasing(runForImage(folder, parameters), byDefault));
}

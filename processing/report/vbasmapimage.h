#pragma once

#include "vbasjob.h"
#include "vbasoutputs.h"

#include <qgscoordinatereferencesystem.h>
#include <qgscoordinatetransformcontext.h>
#include <qgsmapsettings.h>

#include <QByteArray>
#include <QImage>
#include <QSize>

#include <memory>

class QgsMapLayer;
class QgsVectorLayer;

/**
 * The map of a release without QGIS: two panels drawn by QGIS's own renderer, on the left
 * the aggregated regions styled as in QGIS (shaded, k labelled, and for review only hot spots of withheld
 * records hatched), on the right the small areas coloured by their region with the sites; a legend and a
 * scale bar below. Built from the release with the same writers and styles as the outputs, in memory
 * layers of the thread it runs in, so it needs no display and no project.
 */
class VbasMapImage
{
public:
    /**
     * Builds the layers. `withSites` adds the sites (releases made around sites); `shadeBy` is the
     * aggregate field the regions are to be shaded by (VbasStyling::shadeField(): the default where the
     * audience's fields lack it, and then the title and legend name the default); `audience` whether withheld
     * records show. Throws QgsProcessingException when canceled.
     */
    VbasMapImage(const VbasJob& job, const VbasRelease& release, bool withSites, const QString& shadeBy,
                 VbasOutputs::Audience audience, QgsProcessingFeedback& feedback);
    ~VbasMapImage();

    /** Returns the map drawn at `size` pixels on white. */
    QImage render(const QSize& size) const;
    /** Returns render(size) as PNG. */
    QByteArray png(const QSize& size) const;
    /** Writes `png` to `path`; throws QgsProcessingException naming `outputName` on failure. */
    static void save(const QString& path, const QString& outputName, const QByteArray& png);
    /** Returns a sentence saying what the map shows, for a caption. */
    QString caption() const;

private:
    /** Returns the settings of a panel of `size` pixels: planar CRS, the extent of the aggregates. */
    QgsMapSettings settings(const QSize& size, double dpi) const;
    QImage panel(const QList<QgsMapLayer*>& layers, const QSize& size, double dpi) const;
    void drawLegend(QPainter& painter, const QRect& area, double scale, double metresPerPixel) const;

    std::unique_ptr<QgsVectorLayer> mAggregates;
    std::unique_ptr<QgsVectorLayer> mMapping;
    std::unique_ptr<QgsVectorLayer> mSites;
    QgsCoordinateReferenceSystem mPlanarCrs;
    QgsCoordinateTransformContext mTransformContext;
    QString mShadeBy; //!< the field the regions are shaded by, as titles and legends name it
};

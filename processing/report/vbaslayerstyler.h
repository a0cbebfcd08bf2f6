#pragma once

#include "vbasstyling.h"

#include <qgsprocessingcontext.h>

class VbasOutputGuard;

/**
 * Styles a result layer of a release when QGIS loads it into a project at the end of a run, on the main
 * thread as QGIS requires, with the review styles of VbasStyling, and stacks the layers of one run in
 * review order (sites, cells, aggregated regions, small areas from the top), whatever order QGIS loads
 * them in.
 */
class VbasLayerStyler : public QgsProcessingLayerPostProcessorInterface
{
public:
    /**
     * Asks QGIS to style the output at `destination` as `role` when it loads it (nothing happens for
     * outputs that will not be loaded), under the final path the run's `guard` moves it to. `run` names the
     * run (the destination of its aggregates), so that the layers of one run are stacked among themselves.
     */
    static void attach(VbasOutputGuard& guard, QgsProcessingContext& context, const QString& destination,
                       VbasStyling::Role role, const QString& shadeBy, const QString& run);

    void postProcessLayer(QgsMapLayer* layer, QgsProcessingContext& context,
                          QgsProcessingFeedback* feedback) override;

private:
    VbasLayerStyler(VbasStyling::Role role, const QString& shadeBy, const QString& run);

    VbasStyling::Role mRole;
    QString mShadeBy;
    QString mRun;
};

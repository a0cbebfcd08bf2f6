#pragma once

#include <qgsprocessingalgorithm.h>

/**
 * What every VBAS Processing algorithm shares beyond QGIS's own skeleton: the VBAS icon and help page, and
 * the refusal of a required field parameter left empty. Each algorithm implements initAlgorithm() and
 * processAlgorithm() itself, composing the parameter objects (VbasDataParameters, VbasStrategyParameters,
 * VbasReleaseOutputs), a VbasParameterReader and the output guard.
 */
class VbasAlgorithm : public QgsProcessingAlgorithm
{
public:
    /** Returns the VBAS icon, so that VBAS steps stand out in models and mixed search results. */
    QIcon icon() const override;
    QString svgIconPath() const override;
    /** The algorithm's help page, made from its own definitions (report/vbashelppage.h). */
    QString helpUrl() const override;
    /**
     * Refuses, before the run, a required field parameter left empty (they start empty), naming what to
     * choose; then QGIS's own checks.
     */
    bool checkParameterValues(const QVariantMap& parameters, QgsProcessingContext& context,
                              QString* message = nullptr) const override;

    // Public, so that the parameter objects declare their parameters on an algorithm and say what is wrong
    // with a source or sink in QGIS's words (QGIS 3.22 keeps these protected).
    using QgsProcessingAlgorithm::addOutput;
    using QgsProcessingAlgorithm::addParameter;
    using QgsProcessingAlgorithm::invalidSinkError;
    using QgsProcessingAlgorithm::invalidSourceError;
    using QgsProcessingAlgorithm::writeFeatureError;
};

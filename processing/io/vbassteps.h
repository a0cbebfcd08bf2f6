#pragma once

#include "vbasparameters.h"

#include <qgsprocessingfeedback.h>

/**
 * The steps of an algorithm's run (read the inputs, compute, write the outputs), each an equal share of
 * the progress bar, as QGIS's own multi-step feedback gives them; what runs in a step reports 0..100 % of
 * it. next() completes the current step, stopping there when the user canceled during it, and starts the
 * next one.
 */
class VbasSteps : public QgsProcessingMultiStepFeedback
{
public:
    VbasSteps(int steps, QgsProcessingFeedback* feedback)
        : QgsProcessingMultiStepFeedback(steps, feedback)
    {
    }

    void next()
    {
        setProgress(100.0);
        if (isCanceled())
            throw VbasParameters::canceledError();
        setCurrentStep(++mStep);
    }

private:
    int mStep = 0;
};

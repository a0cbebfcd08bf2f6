#pragma once

#include "base/Feedback.h"

class QgsProcessingFeedback;

/**
 * Lets engine code report to a QGIS Processing feedback: progress 0..1 becomes 0..100 %,
 * cancel requests reach the engine, info and warning messages land in the Processing log.
 */
class VbasFeedbackAdapter : public vbas::Feedback
{
public:
    /** Forwards to `feedback`, which must outlive the adapter. */
    explicit VbasFeedbackAdapter(QgsProcessingFeedback& feedback);

    bool isCanceled() const override;
    void info(const std::string& message) override;
    void warning(const std::string& message) override;

protected:
    void onProgress(double overallFraction) override;

private:
    QgsProcessingFeedback& mFeedback;
};

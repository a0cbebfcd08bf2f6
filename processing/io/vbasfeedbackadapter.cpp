#include "vbasfeedbackadapter.h"

#include <qgsprocessingfeedback.h>

VbasFeedbackAdapter::VbasFeedbackAdapter(QgsProcessingFeedback& feedback)
    : mFeedback(feedback)
{
}

bool VbasFeedbackAdapter::isCanceled() const
{
    return mFeedback.isCanceled();
}

void VbasFeedbackAdapter::info(const std::string& message)
{
    mFeedback.pushInfo(QString::fromStdString(message));
}

void VbasFeedbackAdapter::warning(const std::string& message)
{
    mFeedback.pushWarning(QString::fromStdString(message));
}

void VbasFeedbackAdapter::onProgress(double overallFraction)
{
    mFeedback.setProgress(100.0 * overallFraction);
}

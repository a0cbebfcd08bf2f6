#pragma once

#include "base/Error.h"

#include <cmath>
#include <cstddef>
#include <string>

namespace vbas
{

/**
 * Qt-free progress, cancel and message channel between the engine and its front end.
 *
 * Stages report progress in their own 0..1 range; Feedback::Stage maps it into the window of the
 * whole run that the caller gave the stage, so nested stages need no arithmetic of their own.
 * The default implementation ignores everything and is never canceled.
 */
class Feedback
{
public:
    virtual ~Feedback() = default;

    /** Reports progress of the current stage, 0..1. */
    void setProgress(double stageFraction)
    {
        const double clamped = stageFraction < 0.0 ? 0.0 : (stageFraction > 1.0 ? 1.0 : stageFraction);
        onProgress(mFrom + (mTo - mFrom) * clamped);
    }
    /** Throws Canceled when the user asked to stop; long loops call it regularly. */
    void checkCanceled() const
    {
        if (isCanceled())
            throw Canceled();
    }

    virtual bool isCanceled() const { return false; }
    virtual void info(const std::string& message) { (void)message; }
    virtual void warning(const std::string& message) { (void)message; }

    /** Maps progress of a nested stage into [from, to] of the enclosing stage while alive. */
    class Stage
    {
    public:
        Stage(Feedback& feedback, double from, double to)
            : mFeedback(feedback)
            , mSavedFrom(feedback.mFrom)
            , mSavedTo(feedback.mTo)
        {
            const double span = mSavedTo - mSavedFrom;
            feedback.mFrom = mSavedFrom + span * from;
            feedback.mTo = mSavedFrom + span * to;
            feedback.setProgress(0.0);
        }
        ~Stage()
        {
            mFeedback.setProgress(1.0);
            mFeedback.mFrom = mSavedFrom;
            mFeedback.mTo = mSavedTo;
        }
        Stage(const Stage&) = delete;
        Stage& operator=(const Stage&) = delete;

    private:
        Feedback& mFeedback;
        double mSavedFrom;
        double mSavedTo;
    };

protected:
    /** Receives overall progress 0..1 of the whole run. */
    virtual void onProgress(double overallFraction) { (void)overallFraction; }

private:
    double mFrom = 0.0;
    double mTo = 1.0;
};

/**
 * Progress through passes whose number is not known beforehand, each given half of what is left: `done`
 * (0..1) of the way through pass `pass` (from 0).
 */
inline double passProgress(std::size_t pass, double done)
{
    return 1.0 - std::ldexp(1.0 - 0.5 * done, -int(pass));
}

/** A feedback that passes on cancel requests and nothing else: for trial runs that should not be logged. */
class QuietFeedback : public Feedback
{
public:
    explicit QuietFeedback(const Feedback& outer)
        : mOuter(outer)
    {
    }
    bool isCanceled() const override { return mOuter.isCanceled(); }

private:
    const Feedback& mOuter;
};

/**
 * A feedback that passes on cancel requests and progress, not messages: a trial run shown as progress only.
 * Only for work on the thread of the outer feedback.
 */
class ProgressOnlyFeedback : public Feedback
{
public:
    explicit ProgressOnlyFeedback(Feedback& outer)
        : mOuter(outer)
    {
    }
    bool isCanceled() const override { return mOuter.isCanceled(); }

protected:
    void onProgress(double overallFraction) override { mOuter.setProgress(overallFraction); }

private:
    Feedback& mOuter;
};

} // namespace vbas

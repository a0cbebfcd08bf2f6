#include "base/Feedback.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <vector>

using vbas::test::RecordingFeedback;

TEST(Feedback, NestedStagesMapIntoTheirWindow)
{
    RecordingFeedback feedback;
    {
        vbas::Feedback::Stage outer(feedback, 0.5, 1.0);
        {
            vbas::Feedback::Stage inner(feedback, 0.0, 0.5);
            feedback.setProgress(0.5); // half of [0.5, 0.75]
        }
        feedback.setProgress(1.0);
    }
    ASSERT_GE(feedback.progress.size(), 3u);
    EXPECT_DOUBLE_EQ(feedback.progress[0], 0.5);   // outer start
    EXPECT_DOUBLE_EQ(feedback.progress[2], 0.625); // inner half-way
    EXPECT_DOUBLE_EQ(feedback.progress.back(), 1.0);
}

TEST(Feedback, CheckCanceledThrowsOnlyWhenCanceled)
{
    struct CancelingFeedback : vbas::Feedback
    {
        bool isCanceled() const override { return true; }
    };
    vbas::Feedback quiet;
    EXPECT_NO_THROW(quiet.checkCanceled());
    CancelingFeedback canceling;
    EXPECT_THROW(canceling.checkCanceled(), vbas::Canceled);
}

TEST(Feedback, PassProgressGivesEachPassHalfOfWhatIsLeft)
{
    EXPECT_DOUBLE_EQ(vbas::passProgress(0, 0.0), 0.0);
    EXPECT_DOUBLE_EQ(vbas::passProgress(0, 0.5), 0.25);
    EXPECT_DOUBLE_EQ(vbas::passProgress(0, 1.0), 0.5);
    EXPECT_DOUBLE_EQ(vbas::passProgress(1, 0.0), 0.5);
    EXPECT_DOUBLE_EQ(vbas::passProgress(1, 1.0), 0.75);
    EXPECT_DOUBLE_EQ(vbas::passProgress(2, 0.5), 0.8125);
    EXPECT_LE(vbas::passProgress(2000, 1.0), 1.0);
}

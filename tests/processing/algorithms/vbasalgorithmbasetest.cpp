// The funnel between engine code and QGIS: error conversion, the Subject -> parameter mapping and
// the feedback adapter.

#include "vbasenginecall.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace
{
/** The funnel as an algorithm uses it, with one subject renamed. */
class FunnelProbe
{
public:
    template <typename EngineCall>
    auto callEngine(QgsProcessingFeedback* feedback, EngineCall&& engineCall) const
    {
        return vbasRunEngine(
            feedback,
            VbasSubjectParameters().renamed(vbas::Subject::RecordRegion, QStringLiteral("REGION_FIELD")),
            std::forward<EngineCall>(engineCall));
    }
    QString defaultParameterFor(vbas::Subject subject) const
    {
        return VbasSubjectParameters().parameterFor(subject);
    }
};

/** Returns the message of the QgsProcessingException that `engineCall` ends in. */
template <typename EngineCall> std::string funnelError(EngineCall engineCall, bool canceled = false)
{
    QgsProcessingFeedback feedback;
    if (canceled)
        feedback.cancel();
    try
    {
        FunnelProbe().callEngine(&feedback, engineCall);
    }
    catch (const QgsProcessingException& error)
    {
        return error.what().toStdString();
    }
    ADD_FAILURE() << "no QgsProcessingException";
    return {};
}
} // namespace

TEST(AlgorithmBase, EngineResultPassesThrough)
{
    QgsProcessingFeedback feedback;
    EXPECT_EQ(FunnelProbe().callEngine(&feedback, [](vbas::Feedback&) { return 42; }), 42);
}

TEST(AlgorithmBase, EngineErrorIsPrefixedWithTheParameterOfItsSubject)
{
    EXPECT_EQ(funnelError([](vbas::Feedback&) { throw vbas::Error(vbas::Subject::K, "too small; use 5"); }),
              "K: too small; use 5");
    EXPECT_EQ(funnelError([](vbas::Feedback&) { throw vbas::Error(vbas::Subject::RecordCount, "negative"); }),
              "COUNT_FIELD: negative");
}

TEST(AlgorithmBase, OptionErrorsNameTheParameterOfTheOption)
{
    EXPECT_EQ(
        funnelError([](vbas::Feedback&) { throw vbas::optionError("site_count", "set it to 1 or more"); }),
        "SITE_COUNT: set it to 1 or more");
}

TEST(AlgorithmBase, AlgorithmsCanRenameTheParameterOfASubject)
{
    EXPECT_EQ(
        funnelError([](vbas::Feedback&) { throw vbas::Error(vbas::Subject::RecordRegion, "unknown id"); }),
        "REGION_FIELD: unknown id");
}

TEST(AlgorithmBase, ErrorWithoutParameterIsNotPrefixed)
{
    EXPECT_EQ(funnelError([](vbas::Feedback&) { throw vbas::Error(vbas::Subject::General, "out of sites"); }),
              "out of sites");
}

TEST(AlgorithmBase, DefaultSubjectParameters)
{
    const FunnelProbe probe;
    EXPECT_EQ(probe.defaultParameterFor(vbas::Subject::General), QString());
    EXPECT_EQ(probe.defaultParameterFor(vbas::Subject::Regions), "REGIONS");
    EXPECT_EQ(probe.defaultParameterFor(vbas::Subject::Records), "RECORDS");
    EXPECT_EQ(probe.defaultParameterFor(vbas::Subject::RecordRegion), "RECORD_REGION_FIELD");
    EXPECT_EQ(probe.defaultParameterFor(vbas::Subject::RecordCount), "COUNT_FIELD");
    EXPECT_EQ(probe.defaultParameterFor(vbas::Subject::QuasiIdentifier), "QUASI_IDENTIFIERS");
    EXPECT_EQ(probe.defaultParameterFor(vbas::Subject::K), "K");
    EXPECT_EQ(probe.defaultParameterFor(vbas::Subject::SiteCount), "SITE_COUNT");
    EXPECT_EQ(probe.defaultParameterFor(vbas::Subject::SiteLocation), "SITE_LOCATION");
    EXPECT_EQ(probe.defaultParameterFor(vbas::Subject::Partition), "PARTITION");
    EXPECT_EQ(probe.defaultParameterFor(vbas::Subject::Strategy), QString());
    EXPECT_EQ(probe.defaultParameterFor(vbas::Subject::Option), QString()); // the error names it
}

TEST(AlgorithmBase, EngineCancelBecomesTheCanceledError)
{
    EXPECT_EQ(funnelError([](vbas::Feedback&) -> int { throw vbas::Canceled(); }),
              "Canceled by the user; no output was written.");
}

TEST(AlgorithmBase, OtherExceptionsDoNotEscapeAsThemselves)
{
    const std::string error =
        funnelError([](vbas::Feedback&) { throw std::logic_error("index out of range"); });
    EXPECT_EQ(error.rfind("internal error in the VBAS engine (index out of range)", 0), 0u) << error;
}

TEST(AlgorithmBase, CancelInQgisStopsTheEngine)
{
    EXPECT_EQ(funnelError(
                  [](vbas::Feedback& engine)
                  {
                      engine.checkCanceled();
                      return 0;
                  },
                  true),
              "Canceled by the user; no output was written.");
}

TEST(AlgorithmBase, FeedbackAdapterForwardsProgressMessagesAndCancel)
{
    QgsProcessingFeedback feedback;
    const std::string error = [&feedback]
    {
        try
        {
            FunnelProbe().callEngine(&feedback,
                                     [&feedback](vbas::Feedback& engine)
                                     {
                                         {
                                             const vbas::Feedback::Stage secondHalf(engine, 0.5, 1.0);
                                             engine.setProgress(0.5);
                                             EXPECT_DOUBLE_EQ(feedback.progress(), 75.0);
                                         }
                                         engine.setProgress(0.25);
                                         EXPECT_DOUBLE_EQ(feedback.progress(), 25.0);
                                         engine.info("sites placed");
                                         engine.warning("3 regions without records");
                                         EXPECT_FALSE(engine.isCanceled());
                                         feedback.cancel();
                                         EXPECT_TRUE(engine.isCanceled());
                                     });
        }
        catch (const QgsProcessingException& canceled)
        {
            return canceled.what().toStdString();
        }
        return std::string();
    }();
    EXPECT_TRUE(feedback.textLog().contains(QStringLiteral("sites placed")));
    EXPECT_TRUE(feedback.textLog().contains(QStringLiteral("3 regions without records")));
    // The engine returned without checking again, but the user had canceled: no output may follow.
    EXPECT_EQ(error, "Canceled by the user; no output was written.");
}

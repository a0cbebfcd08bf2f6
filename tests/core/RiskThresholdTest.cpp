#include "privacy/RiskThreshold.h"
#include "base/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>

using namespace vbas;

TEST(RiskThreshold, KIsTheCeilingOfTheInverse)
{
    EXPECT_EQ(kForRiskThreshold(0.5), 2u);
    EXPECT_EQ(kForRiskThreshold(0.2), 5u);
    EXPECT_EQ(kForRiskThreshold(0.1), 10u);
    EXPECT_EQ(kForRiskThreshold(1.0 / 3.0), 3u);
    EXPECT_EQ(kForRiskThreshold(0.33), 4u);
    EXPECT_EQ(kForRiskThreshold(0.4), 3u);
    EXPECT_EQ(kForRiskThreshold(0.05), 20u);
    EXPECT_EQ(kForRiskThreshold(0.01), 100u);
    EXPECT_EQ(kForRiskThreshold(0.001), 1000u);
}

TEST(RiskThreshold, ExactInversesAreNotRoundedUp)
{
    // 1/n as computed, and as typed in decimal where it has a finite decimal form, gives n, not n + 1.
    for (Count n = 2; n <= 100000; ++n)
        ASSERT_EQ(kForRiskThreshold(1.0 / double(n)), n) << "T = 1/" << n;
    const std::pair<const char*, Count> typed[] = {
        {"0.25", 4},    {"0.125", 8},   {"0.0625", 16},  {"0.04", 25},     {"0.02", 50},       {"0.0125", 80},
        {"0.008", 125}, {"0.005", 200}, {"0.0016", 625}, {"0.0002", 5000}, {"0.00001", 100000}};
    for (const auto& [text, k] : typed)
        EXPECT_EQ(kForRiskThreshold(std::stod(text)), k) << "T = " << text;
}

TEST(RiskThreshold, ThresholdsThatGiveNoKAreErrors)
{
    for (double threshold : {0.0, -0.2, 0.51, 1.0, 2.0, std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity(), 1e-300})
    {
        try
        {
            kForRiskThreshold(threshold);
            ADD_FAILURE() << "T = " << threshold << " accepted";
        }
        catch (const Error& error)
        {
            EXPECT_EQ(error.subject(), Subject::K);
            EXPECT_NE(std::string(error.what()).find("threshold"), std::string::npos);
        }
    }
}

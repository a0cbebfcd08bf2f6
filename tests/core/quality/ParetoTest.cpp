#include "quality/Pareto.h"

#include <gtest/gtest.h>

using vbas::paretoOptimal;

TEST(Pareto, KeepsOnlyNonDominatedVectors)
{
    const std::vector<std::vector<double>> v{
        {1, 5}, // optimal
        {2, 2}, // optimal
        {3, 3}, // dominated by {2, 2}
        {5, 1}, // optimal
        {2, 2}, // equal to another: neither dominates, both kept
        {1, 6}, // dominated by {1, 5}
    };
    EXPECT_EQ(paretoOptimal(v), (std::vector<bool>{true, true, false, true, true, false}));
}

TEST(Pareto, MatchesBruteForceDefinitionOnRandomVectors)
{
    std::srand(3);
    std::vector<std::vector<double>> v(60, std::vector<double>(6));
    for (auto& row : v)
        for (double& x : row)
            x = std::rand() % 5;
    const std::vector<bool> optimal = paretoOptimal(v);
    for (std::size_t i = 0; i < v.size(); ++i)
    {
        bool dominated = false;
        for (std::size_t j = 0; j < v.size(); ++j)
        {
            int better = 0, worse = 0;
            for (std::size_t m = 0; m < 6; ++m)
            {
                better += v[j][m] < v[i][m];
                worse += v[j][m] > v[i][m];
            }
            dominated |= better > 0 && worse == 0;
        }
        EXPECT_EQ(optimal[i], !dominated) << i;
    }
}

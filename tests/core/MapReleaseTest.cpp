#include "MapRelease.h"
#include "geometry/GeometryTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace vbas;
using namespace vbas::test;

namespace
{
/** Six unit squares in a row, 100 people and 3 cases each. */
MapReleaseInputs strip(RegionGeometries& geometries)
{
    MapReleaseInputs inputs;
    for (int i = 0; i < 6; ++i)
    {
        addWkt(geometries, square(double(i), 0.0), "a" + std::to_string(i));
        inputs.areaIds.push_back("a" + std::to_string(i));
    }
    inputs.geometries = &geometries;
    inputs.population.assign(6, 100.0);
    inputs.cases.assign(6, 3.0);
    inputs.floors.populationFloor = 100.0;
    return inputs;
}
} // namespace

TEST(MapRelease, EveryAreaIsARegionWhenEachReachesTheFloor)
{
    RegionGeometries geometries;
    MapReleaseInputs inputs = strip(geometries);
    inputs.rates.preset = "none";
    Feedback feedback;
    const MapRelease release = releaseMap(inputs, feedback);
    ASSERT_EQ(release.regions.regionCount, 6u);
    // A row: each region borders the one before and after it.
    for (std::size_t r = 0; r < 6; ++r)
    {
        const std::size_t a = release.regions.regionOfArea[r];
        std::vector<std::size_t> expected;
        if (r > 0)
            expected.push_back(release.regions.regionOfArea[r - 1]);
        if (r < 5)
            expected.push_back(release.regions.regionOfArea[r + 1]);
        std::sort(expected.begin(), expected.end());
        EXPECT_EQ(release.regionNeighbours[a], expected) << r;
        EXPECT_DOUBLE_EQ(release.rates.regions[a].crudeRate, 3.0 / 100.0 * 1e5);
    }
    EXPECT_EQ(release.polygons.size(), 6u);
}

TEST(MapRelease, APresetThatWithholdsSmallCountsRaisesTheCaseFloor)
{
    // CDC WONDER withholds counts of 9 or fewer: regions of 3 cases would each be withheld, and one withheld
    // among published neighbours is worked back from a total. 18 cases make one region of 10 or more at most.
    RegionGeometries geometries;
    MapReleaseInputs inputs = strip(geometries);
    inputs.rates.preset = "cdc_wonder";
    Feedback feedback;
    const MapRelease release = releaseMap(inputs, feedback);
    EXPECT_EQ(release.floors.caseFloor, 10.0);
    ASSERT_EQ(release.regions.regionCount, 1u);
    EXPECT_EQ(release.rates.regions[0].cases, 18.0);
    EXPECT_FALSE(release.rates.regions[0].statusOf(RateFigure::Cases).suppressed);
    // HIPAA withholds every figure of 20,000 people or fewer: the floor is just above it.
    EXPECT_GT(leastUnwithheld(findRatePreset("hipaa_safe_harbor"), SmallNumberRule::Measure::Population),
              20000.0);
    EXPECT_EQ(leastUnwithheld(findRatePreset("cdc_unstable"), SmallNumberRule::Measure::Cases), 0.0);
    EXPECT_EQ(leastUnwithheld(findRatePreset("us_cancer_statistics"), SmallNumberRule::Measure::Cases), 16.0);
}

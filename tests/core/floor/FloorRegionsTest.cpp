#include "floor/FloorRegions.h"
#include "geometry/GeometryTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

using namespace vbas;
using namespace vbas::test;

namespace
{
/** Adjacency of `geometries` from their shared segments alone (neighbours share vertices exactly). */
std::vector<std::set<std::uint32_t>> sharedSegments(const RegionGeometries& geometries)
{
    std::map<std::pair<std::pair<double, double>, std::pair<double, double>>, std::vector<std::uint32_t>>
        owners;
    for (std::uint32_t r = 0; r < geometries.size(); ++r)
        geos::forEachSegment(geometries.context().handle(), geometries.geometry(r),
                             [&](const Point& a, const Point& b)
                             {
                                 const std::pair<double, double> p{a.x, a.y}, q{b.x, b.y};
                                 owners[p < q ? std::make_pair(p, q) : std::make_pair(q, p)].push_back(r);
                             });
    std::vector<std::set<std::uint32_t>> neighbours(geometries.size());
    for (const auto& [segment, regions] : owners)
        for (const std::uint32_t a : regions)
            for (const std::uint32_t b : regions)
                if (a != b)
                    neighbours[a].insert(b);
    return neighbours;
}

/** Whether the areas of every region are connected through `neighbours`, flagged areas left out. */
std::size_t disconnectedRegions(const FloorRegions& result,
                                const std::vector<std::set<std::uint32_t>>& neighbours)
{
    std::size_t disconnected = 0;
    for (std::uint32_t r = 0; r < result.regionCount; ++r)
    {
        std::vector<std::uint32_t> members;
        for (std::uint32_t a = 0; a < result.regionOfArea.size(); ++a)
            if (result.regionOfArea[a] == r && result.flags[a] == FloorFlag::None)
                members.push_back(a);
        if (members.empty())
            continue;
        std::set<std::uint32_t> reached{members.front()};
        std::vector<std::uint32_t> stack{members.front()};
        while (!stack.empty())
        {
            const std::uint32_t a = stack.back();
            stack.pop_back();
            for (const std::uint32_t b : neighbours[a])
                if (result.regionOfArea[b] == r && result.flags[b] == FloorFlag::None &&
                    reached.insert(b).second)
                    stack.push_back(b);
        }
        disconnected += reached.size() != members.size() ? 1 : 0;
    }
    return disconnected;
}

/** The sum of `values` over every region. */
std::vector<double> sums(const FloorRegions& result, const std::vector<double>& values)
{
    std::vector<double> total(result.regionCount, 0.0);
    for (std::size_t a = 0; a < values.size(); ++a)
        total[result.regionOfArea.at(a)] += values[a];
    return total;
}

/** A row of unit squares with the given populations, left to right. */
struct Strip
{
    RegionGeometries geometries;
    RegionAdjacency adjacency;
    FloorAreas areas;

    explicit Strip(const std::vector<double>& population, const std::vector<Point>& extra = {})
    {
        for (std::size_t i = 0; i < population.size() - extra.size(); ++i)
            addWkt(geometries, square(double(i), 0.0));
        for (const Point& p : extra)
            addWkt(geometries, square(p.x, p.y));
        Feedback feedback;
        adjacency = RegionAdjacency::build(geometries, 1e-9, feedback);
        for (std::size_t i = 0; i < geometries.size(); ++i)
            areas.points.push_back(geometries.representativePoint(i, RepresentativePoint::Centroid));
        areas.population = population;
        areas.adjacency = &adjacency;
    }
};

FloorRegions floorRegions(const FloorAreas& areas, double people, double cases = 0.0)
{
    Feedback feedback;
    FloorSettings settings;
    settings.populationFloor = people;
    settings.caseFloor = cases;
    return makeFloorRegions(areas, settings, feedback);
}
} // namespace

TEST(FloorRegions, AHandWorkedStripGivesTheMostRegions)
{
    // 4 | 2 | 3 | 3 | 2 | 4 people, floor 6: 18 people make at most 3 regions, and only {4,2} {3,3} {2,4} do.
    const Strip strip({4, 2, 3, 3, 2, 4});
    const FloorRegions result = floorRegions(strip.areas, 6);
    EXPECT_EQ(result.regionCount, 3u);
    EXPECT_EQ(result.regionOfArea[0], result.regionOfArea[1]);
    EXPECT_EQ(result.regionOfArea[2], result.regionOfArea[3]);
    EXPECT_EQ(result.regionOfArea[4], result.regionOfArea[5]);
    EXPECT_EQ(result.flags, std::vector<FloorFlag>(6, FloorFlag::None));
}

TEST(FloorRegions, AnIslandBelowTheFloorJoinsTheNearestRegionFlagged)
{
    // 5 | 5 | 5 | 5 and an island of 1 person beyond the right end, floor 10: two regions, the island in the
    // right one, flagged; nothing is dropped.
    const Strip strip({5, 5, 5, 5, 1}, {{6.0, 0.0}});
    const FloorRegions result = floorRegions(strip.areas, 10);
    ASSERT_EQ(result.regionCount, 2u);
    EXPECT_EQ(result.regionOfArea[4], result.regionOfArea[3]);
    EXPECT_NE(result.regionOfArea[3], result.regionOfArea[0]);
    EXPECT_EQ(result.flags[4], FloorFlag::JoinedNearest);
    EXPECT_EQ(result.flags[0], FloorFlag::None);
    EXPECT_EQ(result.joinedAreas, 1u);
    EXPECT_EQ(result.regionAtFloor, std::vector<bool>(2, true));
}

TEST(FloorRegions, AParentBelowTheFloorIsOneRegionFlaggedBelowIt)
{
    // Parents 0 0 0 1 1: parent 1 holds 4 people against a floor of 6, so it cannot reach it without crossing
    // its border; it is one region, flagged, and parent 0 is not merged across.
    Strip strip({3, 3, 3, 2, 2});
    strip.areas.parent = {0, 0, 0, 1, 1};
    const FloorRegions result = floorRegions(strip.areas, 6);
    ASSERT_EQ(result.regionCount, 2u);
    EXPECT_EQ(result.regionOfArea[3], result.regionOfArea[4]);
    EXPECT_NE(result.regionOfArea[2], result.regionOfArea[3]);
    EXPECT_EQ(result.flags[3], FloorFlag::BelowFloor);
    EXPECT_EQ(result.flags[0], FloorFlag::None);
    EXPECT_FALSE(result.regionAtFloor[result.regionOfArea[3]]);
    EXPECT_TRUE(result.regionAtFloor[result.regionOfArea[0]]);
}

TEST(FloorRegions, BadFloorsAreRefusedNamingTheOption)
{
    const Strip strip({1, 2});
    for (const auto& [people, cases, option] :
         {std::make_tuple(0.0, 0.0, "population_floor"), std::make_tuple(-1.0, 0.0, "population_floor"),
          std::make_tuple(5.0, 3.0, "case_floor")})
    {
        try
        {
            floorRegions(strip.areas, people, cases);
            ADD_FAILURE() << option;
        }
        catch (const Error& error)
        {
            EXPECT_EQ(error.option(), option) << error.what();
        }
    }
}

/**
 * The 413 German districts with their states as parents and the 636 meningococcal disease cases, at a
 * population floor, a case floor and both: every district in one region, every region at its floors, within
 * one state and connected over an adjacency found here from shared segments alone; and as many regions as a
 * greedy merge of the smallest region into its nearest neighbour (GAT's way) gives, or more.
 */
TEST(FloorRegions, GermanDistrictsReachEveryFloorWithinTheirStates)
{
    const std::vector<District> districts = readDistricts();
    RegionGeometries geometries;
    FloorAreas areas;
    std::map<std::string, std::size_t> index;
    for (const District& d : districts)
    {
        addWkt(geometries, d.wkt, d.key);
        areas.points.push_back(
            geometries.representativePoint(geometries.size() - 1, RepresentativePoint::PointOnSurface));
        areas.population.push_back(double(d.population));
        areas.parent.push_back(std::uint32_t(std::stoi(d.key.substr(0, 2))));
        index.emplace(d.key, index.size());
    }
    areas.cases.assign(districts.size(), 0.0);
    std::ifstream cases(std::string(VBAS_TEST_DATA_DIR) + "/de_imd_cases.csv");
    std::string line;
    std::getline(cases, line);
    while (std::getline(cases, line))
    {
        const std::size_t a = line.find(','), b = line.find(',', a + 1);
        areas.cases[index.at(line.substr(a + 1, b - a - 1))] += 1.0;
    }
    Feedback feedback;
    const RegionAdjacency adjacency =
        RegionAdjacency::build(geometries, defaultAdjacencyTolerance(geometries), feedback);
    areas.adjacency = &adjacency;
    const std::vector<std::set<std::uint32_t>> neighbours = sharedSegments(geometries);

    for (const auto& [people, caseFloor] :
         {std::make_pair(300000.0, 0.0), std::make_pair(0.0, 4.0), std::make_pair(150000.0, 2.0)})
    {
        SCOPED_TRACE(std::to_string(people) + " people, " + std::to_string(caseFloor) + " cases");
        const FloorRegions result = floorRegions(areas, people, caseFloor);
        ASSERT_EQ(result.regionOfArea.size(), districts.size());
        const std::vector<double> population = sums(result, areas.population),
                                  count = sums(result, areas.cases);
        std::map<std::uint32_t, std::set<std::uint32_t>> statesOfRegion;
        for (std::size_t a = 0; a < districts.size(); ++a)
            statesOfRegion[result.regionOfArea[a]].insert(areas.parent[a]);
        ASSERT_EQ(statesOfRegion.size(), result.regionCount) << "a region without districts";
        for (std::uint32_t r = 0; r < result.regionCount; ++r)
        {
            // A state (Bremen, Hamburg, Berlin...) below the floor may stand alone, flagged.
            const bool flagged = !result.regionAtFloor[r];
            EXPECT_TRUE(flagged || (population[r] >= people && count[r] >= caseFloor)) << "region " << r;
            EXPECT_EQ(statesOfRegion[r].size(), 1u) << "region " << r << " crosses a state border";
        }
        for (std::size_t a = 0; a < districts.size(); ++a)
            if (result.flags[a] == FloorFlag::BelowFloor)
            {
                // Only where the whole state holds fewer than the floor.
                double statePeople = 0.0, stateCases = 0.0;
                for (std::size_t b = 0; b < districts.size(); ++b)
                    if (areas.parent[b] == areas.parent[a])
                        statePeople += areas.population[b], stateCases += areas.cases[b];
                EXPECT_TRUE(statePeople < people || stateCases < caseFloor) << districts[a].key;
            }
        EXPECT_EQ(disconnectedRegions(result, neighbours), 0u);

        // GAT's way, for comparison: the fullest region below the floor merges into its nearest neighbour
        // within its state (by points), until every region that can reach the floor does.
        std::vector<std::uint32_t> greedy(districts.size());
        for (std::uint32_t a = 0; a < greedy.size(); ++a)
            greedy[a] = a;
        const auto fill = [&](std::uint32_t g)
        {
            double p = 0.0, c = 0.0;
            for (std::uint32_t a = 0; a < greedy.size(); ++a)
                if (greedy[a] == g)
                    p += areas.population[a], c += areas.cases[a];
            return std::min(people > 0 ? p / people : 1e300, caseFloor > 0 ? c / caseFloor : 1e300);
        };
        std::set<std::uint32_t> stuck;
        while (true)
        {
            std::uint32_t first = std::uint32_t(-1);
            double firstFill = -1.0;
            for (std::uint32_t g : std::set<std::uint32_t>(greedy.begin(), greedy.end()))
                if (const double f = fill(g); f < 1.0 && f > firstFill && !stuck.count(g))
                    first = g, firstFill = f;
            if (first == std::uint32_t(-1))
                break;
            std::uint32_t into = first;
            double nearest = 1e300;
            for (std::uint32_t a = 0; a < greedy.size(); ++a)
                if (greedy[a] == first)
                    for (const std::uint32_t b : neighbours[a])
                        if (greedy[b] != first && areas.parent[b] == areas.parent[a])
                            if (const double d = squaredDistance(areas.points[a], areas.points[b]);
                                d < nearest)
                                nearest = d, into = greedy[b];
            if (into == first)
            {
                stuck.insert(first);
                continue;
            }
            for (std::uint32_t& g : greedy)
                if (g == first)
                    g = into;
        }
        const std::size_t greedyRegions = std::set<std::uint32_t>(greedy.begin(), greedy.end()).size();
        EXPECT_GE(result.regionCount, greedyRegions);
    }
}

#pragma once

#include "geometry/RegionGeometries.h"
#include "model/Aggregation.h"

#include <numeric>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace vbas::test
{

/** A region of the German districts test file (data/tests/de_districts_wkt.csv). */
struct District
{
    std::string key;
    long population;
    std::string wkt;
};

/** Reads the districts CSV: "KEY","POPULATION","WKT" with quoted strings. */
inline std::vector<District> readDistricts()
{
    std::ifstream in(std::string(VBAS_TEST_DATA_DIR) + "/de_districts_wkt.csv");
    std::string line;
    std::getline(in, line); // header
    std::vector<District> districts;
    while (std::getline(in, line))
    {
        const std::size_t keyEnd = line.find("\",");
        const std::size_t populationEnd = line.find(",\"", keyEnd + 2);
        districts.push_back({line.substr(1, keyEnd - 1),
                             std::stol(line.substr(keyEnd + 2, populationEnd - keyEnd - 2)),
                             line.substr(populationEnd + 2, line.size() - populationEnd - 3)});
    }
    return districts;
}

inline std::string square(double x, double y, double size = 1.0)
{
    std::ostringstream wkt;
    wkt << "POLYGON ((" << x << ' ' << y << ", " << x + size << ' ' << y << ", " << x + size << ' '
        << y + size << ", " << x << ' ' << y + size << ", " << x << ' ' << y << "))";
    return wkt.str();
}

inline void addWkt(RegionGeometries& geometries, const std::string& wkt, const std::string& id = "r")
{
    geometries.add(geos::fromWkt(geometries.context(), wkt), id);
}

/** An aggregation from an explicit group per region (members in region order). */
inline Aggregation groupsOf(const std::vector<std::uint32_t>& group, std::size_t groups)
{
    Aggregation aggregation;
    aggregation.memberOffsets.assign(groups + 1, 0);
    for (std::uint32_t g : group)
        ++aggregation.memberOffsets[g + 1];
    std::partial_sum(aggregation.memberOffsets.begin(), aggregation.memberOffsets.end(),
                     aggregation.memberOffsets.begin());
    aggregation.members.resize(group.size());
    std::vector<std::size_t> cursor(aggregation.memberOffsets.begin(), aggregation.memberOffsets.end() - 1);
    for (RegionIndex r = 0; r < group.size(); ++r)
        aggregation.members[cursor[group[r]]++] = r;
    aggregation.aggregateSite.resize(groups);
    return aggregation;
}

} // namespace vbas::test

// What the realistic benchmarks share: the MEPS 1996 microdata (data/bench/meps1996_persons.csv), the
// Eastern-scale synthetic areas and the German districts, and records drawn as whole microdata rows.
#pragma once

#include "Synthetic.h"
#include "data/Dataset.h"
#include "geometry/Geos.h"
#include "geometry/RegionAdjacency.h"
#include "geometry/RegionGeometries.h"
#include "partition/SiteTriangulation.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef VBAS_DATA_DIR
#error "bench/CMakeLists.txt defines VBAS_DATA_DIR, the repository's data/ folder"
#endif

namespace vbas::bench
{
using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point from)
{
    return std::chrono::duration<double>(Clock::now() - from).count();
}

inline std::uint64_t envNumber(const char* name, std::uint64_t fallback)
{
    const char* text = std::getenv(name);
    return text != nullptr && *text != '\0' ? std::stoull(text) : fallback;
}

inline std::uint64_t seed()
{
    return envNumber("VBAS_FRONTIER_SEED", 20240412);
}

/** The microdata: one row per surveyed person, each quasi-identifier as a code. */
struct Microdata
{
    std::string file;
    std::vector<QuasiIdentifier> qis;
    /** Category labels of each quasi-identifier, in code order. */
    std::vector<std::vector<std::string>> labels;
    /** Row-major codes, rows * qis.size(). */
    std::vector<std::uint32_t> codes;
    std::size_t rows = 0;
};

/**
 * Reads the first `columns` columns of data/bench/meps1996_persons.csv (plain CSV, no quoting).
 * Codes follow the sorted labels (numeric order for age), so they do not depend on row order.
 */
inline Microdata readMicrodata(std::size_t columns)
{
    Microdata micro;
    micro.file = "data/bench/meps1996_persons.csv";
    std::ifstream in(std::string(VBAS_DATA_DIR) + "/bench/meps1996_persons.csv");
    if (!in)
        throw std::runtime_error("cannot read " + micro.file);
    std::string line;
    std::getline(in, line);
    std::vector<std::string> header;
    {
        std::stringstream fields(line);
        std::string field;
        while (std::getline(fields, field, ','))
            header.push_back(field);
    }
    if (columns < 1 || columns > header.size())
        throw std::runtime_error("VBAS_FRONTIER_QIS must be between 1 and " + std::to_string(header.size()));
    std::vector<std::vector<std::string>> values;
    while (std::getline(in, line))
    {
        std::vector<std::string> row;
        std::stringstream fields(line);
        std::string field;
        while (std::getline(fields, field, ',') && row.size() < columns)
            row.push_back(field);
        if (row.size() != columns)
            throw std::runtime_error(micro.file + ": short line '" + line + "'");
        values.push_back(std::move(row));
    }
    micro.rows = values.size();
    micro.codes.resize(micro.rows * columns);
    for (std::size_t c = 0; c < columns; ++c)
    {
        // Shorter first, then text order: numeric order for the whole numbers of age.
        const auto before = [](const std::string& a, const std::string& b)
        {
            return a.size() != b.size() ? a.size() < b.size() : a < b;
        };
        std::set<std::string, decltype(before)> distinct(before);
        for (const auto& row : values)
            distinct.insert(row[c]);
        micro.labels.emplace_back(distinct.begin(), distinct.end());
        std::map<std::string, std::uint32_t> code;
        for (const std::string& label : micro.labels.back())
            code.emplace(label, std::uint32_t(code.size()));
        for (std::size_t r = 0; r < micro.rows; ++r)
            micro.codes[r * columns + c] = code.at(values[r][c]);
        micro.qis.push_back({header[c], distinct.size()});
    }
    return micro;
}

/** Areas with a point and a number of records each. */
struct Areas
{
    std::string description;
    std::vector<RegionInput> regions;
    std::vector<std::int64_t> records;
};

/**
 * The Eastern-scale synthetic geometry (Synthetic.h: 4,426 areas in towns and countryside) with
 * log-normal populations (sigma 0.8: the tenth percentile about an eighth of the ninetieth, like
 * real small areas), scaled to `total` records; at least one record per area.
 */
inline Areas easternAreas(std::uint64_t total, std::mt19937_64& generator)
{
    const bench::Scale scale = bench::eastern();
    Areas areas;
    const std::vector<Point> points = bench::areaPoints(scale.regions, generator);
    std::lognormal_distribution<double> size(0.0, 0.8);
    std::vector<double> weights(points.size());
    double sum = 0.0;
    for (double& weight : weights)
        sum += weight = size(generator);
    for (std::size_t r = 0; r < points.size(); ++r)
    {
        areas.regions.push_back({std::to_string(r), points[r]});
        areas.records.push_back(std::max<std::int64_t>(1, std::llround(double(total) * weights[r] / sum)));
    }
    areas.description = "Eastern synthetic geometry (bench/Synthetic.h, thesis scale), " +
                        std::to_string(points.size()) + " areas, log-normal populations (sigma 0.8)";
    return areas;
}

/**
 * The 413 German districts of data/tests/de_districts_wkt.csv ("KEY","POPULATION","WKT"), each
 * as its GEOS point on surface, with round(population / personsPerRecord) records.
 */
inline Areas germanAreas(std::uint64_t personsPerRecord)
{
    const std::string file = std::string(VBAS_DATA_DIR) + "/tests/de_districts_wkt.csv";
    std::ifstream in(file);
    if (!in)
        throw std::runtime_error("cannot read " + file);
    std::string line;
    std::getline(in, line); // header
    RegionGeometries geometries;
    Areas areas;
    while (std::getline(in, line))
    {
        const std::size_t keyEnd = line.find("\",");
        const std::size_t populationEnd = line.find(",\"", keyEnd + 2);
        const std::string key = line.substr(1, keyEnd - 1);
        const std::int64_t population = std::stoll(line.substr(keyEnd + 2, populationEnd - keyEnd - 2));
        const std::string wkt = line.substr(populationEnd + 2, line.size() - populationEnd - 3);
        geometries.add(geos::fromWkt(geometries.context(), wkt), key);
        const Point p =
            geometries.representativePoint(geometries.size() - 1, RepresentativePoint::PointOnSurface);
        areas.regions.push_back({key, p});
        areas.records.push_back((population + std::int64_t(personsPerRecord / 2)) /
                                std::int64_t(personsPerRecord));
    }
    areas.description = "German districts 2009 (data/tests/de_districts_wkt.csv, real polygons, point on "
                        "surface), " +
                        std::to_string(areas.regions.size()) + " areas, 1 record per " +
                        std::to_string(personsPerRecord) + " residents";
    return areas;
}

/** Each record of each area is a whole row of the microdata, drawn uniformly with replacement. */
inline RecordTable drawRecords(const Areas& areas, const Microdata& micro, std::mt19937_64& generator)
{
    const std::size_t q = micro.qis.size();
    RecordTable records;
    records.quasiIdentifierCount = q;
    std::uniform_int_distribution<std::size_t> person(0, micro.rows - 1);
    for (std::size_t r = 0; r < areas.regions.size(); ++r)
    {
        records.regionKeys.push_back(areas.regions[r].id);
        for (std::int64_t i = 0; i < areas.records[r]; ++i)
        {
            const std::size_t row = person(generator);
            records.regionKey.push_back(std::uint32_t(r));
            records.codes.insert(records.codes.end(), micro.codes.begin() + std::ptrdiff_t(row * q),
                                 micro.codes.begin() + std::ptrdiff_t((row + 1) * q));
        }
    }
    return records;
}

/**
 * The Delaunay neighbours of the area points as the areas' shared borders (the scenes have points, or
 * in Germany's case polygons read as points): what the boundary moves may cross.
 */
inline std::shared_ptr<const RegionAdjacency> delaunayAdjacency(const std::vector<Point>& points)
{
    const SiteTriangulation triangulation(points);
    std::vector<AdjacentPair> pairs;
    std::vector<SiteIndex> neighbours;
    for (RegionIndex a = 0; a < points.size(); ++a)
    {
        neighbours.clear();
        triangulation.neighbours(a, neighbours);
        for (SiteIndex b : neighbours)
            if (a < b)
                pairs.push_back(
                    {a, b, 1.0, {(points[a].x + points[b].x) / 2, (points[a].y + points[b].y) / 2}});
    }
    return std::make_shared<const RegionAdjacency>(
        RegionAdjacency::fromPairs(points.size(), std::move(pairs)));
}

/** delaunayAdjacency() of the areas' points. */
inline std::shared_ptr<const RegionAdjacency> delaunayAdjacency(const Areas& areas)
{
    std::vector<Point> points;
    for (const RegionInput& region : areas.regions)
        points.push_back(region.point);
    return delaunayAdjacency(points);
}

} // namespace vbas::bench

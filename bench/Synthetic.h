#pragma once

#include "data/Dataset.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace vbas::bench
{

/** The scale of a synthetic release, after the thesis's test sets (section 5.1). */
struct Scale
{
    const char* name;
    std::size_t regions;
    Count records;
    std::vector<std::uint64_t> categories; // quasi-identifier category counts
};

/** Eastern Canada, age (22) x gender (2): 4,426 dissemination areas, 2,433,221 records. */
inline Scale eastern()
{
    return {"Eastern", 4426, 2433221, {22, 2}};
}
/** Western Canada, age x gender: 17,613 areas, 9,647,422 records. */
inline Scale western()
{
    return {"Western", 17613, 9647422, {22, 2}};
}

/**
 * A synthetic release at a given scale, built like the thesis's test sets: areas of 400-700
 * people (dissemination areas), clustered into towns, quasi-identifiers drawn from skewed
 * category distributions; records in random order, as category codes, one row per person.
 */
struct SyntheticRelease
{
    std::vector<RegionInput> regions;
    Schema schema;
    RecordTable records;
};

/**
 * The representative points of `count` synthetic areas in a 1,000 x 600 km plane: 70 % in 40
 * towns (normal clusters of varying spread), 30 % rural (uniform). Draws from `generator`.
 */
inline std::vector<Point> areaPoints(std::size_t count, std::mt19937_64& generator)
{
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<std::pair<double, double>> towns;
    for (int t = 0; t < 40; ++t)
        towns.emplace_back(unit(generator) * 1e6, unit(generator) * 6e5);
    std::vector<Point> points;
    points.reserve(count);
    for (std::size_t r = 0; r < count; ++r)
    {
        Point p;
        if (unit(generator) < 0.7)
        {
            const auto& town = towns[generator() % towns.size()];
            std::normal_distribution<double> spread(0.0, 2e3 + 2e4 * unit(generator));
            p = {town.first + spread(generator), town.second + spread(generator)};
        }
        else
            p = {unit(generator) * 1e6, unit(generator) * 6e5};
        points.push_back(p);
    }
    return points;
}

inline SyntheticRelease makeRelease(const Scale& scale, std::uint64_t seed = 1)
{
    std::mt19937_64 generator(seed);
    SyntheticRelease release;
    const std::vector<Point> points = areaPoints(scale.regions, generator);
    for (std::size_t r = 0; r < scale.regions; ++r)
    {
        release.regions.push_back({std::to_string(r), points[r]});
        release.records.regionKeys.push_back(std::to_string(r));
    }
    // Area sizes uniform in [400, 700], then nudged to the exact total.
    std::vector<std::int64_t> sizes(scale.regions);
    std::int64_t total = 0;
    for (auto& size : sizes)
        total += size = 400 + std::int64_t(generator() % 301);
    while (total != std::int64_t(scale.records))
    {
        auto& size = sizes[generator() % sizes.size()];
        const std::int64_t step = total < std::int64_t(scale.records) ? 1 : -1;
        if (size + step >= 1)
        {
            size += step;
            total += step;
        }
    }
    // Smooth categories like age bands: the last about a third as frequent as the first.
    std::vector<std::discrete_distribution<std::uint32_t>> draw;
    for (std::uint64_t categories : scale.categories)
    {
        std::vector<double> weights;
        for (std::uint64_t c = 0; c < categories; ++c)
            weights.push_back(1.0 - 0.7 * double(c) / double(categories));

        draw.emplace_back(weights.begin(), weights.end());
    }
    std::vector<QuasiIdentifier> qis;
    for (std::size_t i = 0; i < scale.categories.size(); ++i)
        qis.push_back({"q" + std::to_string(i), scale.categories[i]});
    release.schema = Schema(qis);
    RecordTable& records = release.records;
    records.quasiIdentifierCount = scale.categories.size();
    records.regionKey.reserve(scale.records);
    for (std::uint32_t r = 0; r < scale.regions; ++r)
        records.regionKey.insert(records.regionKey.end(), std::size_t(sizes[r]), r);
    std::shuffle(records.regionKey.begin(), records.regionKey.end(), generator);
    records.codes.resize(scale.records * scale.categories.size());
    for (std::size_t i = 0; i < records.codes.size(); ++i)
        records.codes[i] = draw[i % draw.size()](generator);
    return release;
}

} // namespace vbas::bench

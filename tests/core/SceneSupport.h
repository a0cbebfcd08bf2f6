#pragma once

#include "geometry/GeometryTestSupport.h"
#include "geometry/Obstacles.h"
#include "geometry/RegionAdjacency.h"
#include "partition/SpatialContext.h"

#include <memory>
#include <random>
#include <vector>

namespace vbas::test
{

/**
 * A grid of `columns` x `rows` square regions of side `cell` (row-major from the origin), with a
 * representative point jittered inside each square, the adjacency built from the polygons, and
 * optional obstacles.
 */
struct GridScene
{
    std::size_t columns;
    std::size_t rows;
    double cell;
    RegionGeometries geometries;
    std::vector<Point> points;
    std::vector<Count> weights;
    SpatialContext spatial;

    GridScene(std::size_t columns_, std::size_t rows_, double cell_, std::uint64_t seed, double jitter = 0.3)
        : columns(columns_)
        , rows(rows_)
        , cell(cell_)
    {
        std::mt19937_64 generator(seed);
        std::uniform_real_distribution<double> offset(0.5 - jitter, 0.5 + jitter);
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < columns; ++c)
            {
                addWkt(geometries, square(double(c) * cell, double(r) * cell, cell),
                       std::to_string(index(c, r)));
                points.push_back(
                    {(double(c) + offset(generator)) * cell, (double(r) + offset(generator)) * cell});
                weights.push_back(1 + generator() % 20);
            }
        Feedback feedback;
        spatial.adjacency =
            std::make_shared<RegionAdjacency>(RegionAdjacency::build(geometries, cell * 1e-6, feedback));
    }

    RegionIndex index(std::size_t column, std::size_t row) const
    {
        return RegionIndex(row * columns + column);
    }
    PartitionInput input() const { return {points, weights, spatial}; }

    /** Obstacles from WKT geometries (lines or polygons). */
    void setObstacles(const std::vector<std::string>& wkts)
    {
        std::vector<Segment> segments;
        for (const std::string& wkt : wkts)
        {
            const geos::GeometryPtr g = geos::fromWkt(geometries.context(), wkt);
            const std::vector<unsigned char> wkb = geos::toWkb(geometries.context(), g.get());
            const std::vector<Segment> more = Obstacles::segmentsOfWkb(wkb.data(), wkb.size());
            segments.insert(segments.end(), more.begin(), more.end());
        }
        spatial.obstacles = std::make_shared<Obstacles>(std::move(segments));
    }
};

} // namespace vbas::test

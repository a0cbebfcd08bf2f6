// Obstacle-aware partitions against the Euclidean one at 50,000 regions (target: at most 3x).
// Each partition is timed from sites to assignment, graph building included; the region
// adjacency is built once per data set and timed on its own.
// Run: build/bench/vbas_bench --benchmark_filter=Partition
#include "geometry/Geos.h"
#include "geometry/Obstacles.h"
#include "geometry/RegionAdjacency.h"
#include "partition/BarrierPartitioner.h"
#include "partition/GeodesicPartitioner.h"
#include "partition/VoronoiPartitioner.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <random>

namespace
{
using namespace vbas;
using Clock = std::chrono::steady_clock;

/**
 * 224 x 224 square areas with jittered points, 10 winding rivers, 10 lakes and 2,000 sites.
 * "Dense": areas of 100 m (a 22 km square) crossed by 9 km rivers, a stress case where about 4 % of
 * the points are blocked from their nearest site. "Regional": areas of 446 m (100 km square) with
 * 50 km rivers and lakes of 0.5-2 km, modelled on the scene GEOMETRY-NOTES section d measured.
 */
struct Scene
{
    static constexpr std::size_t kSide = 224;
    const double kCell;
    std::vector<Point> points;
    std::vector<Count> weights;
    std::vector<Point> sites;
    SpatialContext spatial;
    double adjacencySeconds = 0;

    Scene(double cell, double riverStep, int riverSteps, double lakeRadius)
        : kCell(cell)
    {
        std::mt19937_64 generator(42);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        RegionGeometries geometries;
        for (std::size_t r = 0; r < kSide; ++r)
            for (std::size_t c = 0; c < kSide; ++c)
            {
                const double x = double(c) * kCell, y = double(r) * kCell;
                geometries.add(geos::fromWkt(geometries.context(),
                                             "POLYGON ((" + std::to_string(x) + " " + std::to_string(y) +
                                                 ", " + std::to_string(x + kCell) + " " + std::to_string(y) +
                                                 ", " + std::to_string(x + kCell) + " " +
                                                 std::to_string(y + kCell) + ", " + std::to_string(x) + " " +
                                                 std::to_string(y + kCell) + ", " + std::to_string(x) + " " +
                                                 std::to_string(y) + "))"),
                               "r");
                points.push_back(
                    {x + (0.2 + 0.6 * unit(generator)) * kCell, y + (0.2 + 0.6 * unit(generator)) * kCell});
                weights.push_back(400 + generator() % 300);
            }
        Feedback feedback;
        const auto start = Clock::now();
        spatial.adjacency =
            std::make_shared<RegionAdjacency>(RegionAdjacency::build(geometries, 0.01, feedback));
        adjacencySeconds = std::chrono::duration<double>(Clock::now() - start).count();
        const double size = double(kSide) * kCell;
        std::vector<Segment> segments;
        for (int river = 0; river < 10; ++river)
        {
            Point p{unit(generator) * size, unit(generator) * size};
            double heading = unit(generator) * 6.283;
            for (int step = 0; step < riverSteps; ++step)
            {
                heading += (unit(generator) - 0.5) * 0.6;
                const Point q{p.x + riverStep * std::cos(heading), p.y + riverStep * std::sin(heading)};
                segments.push_back({p, q});
                p = q;
            }
        }
        for (int lake = 0; lake < 10; ++lake)
        {
            const Point c{unit(generator) * size, unit(generator) * size};
            const double radius = lakeRadius * (1 + 3 * unit(generator));
            std::vector<Point> ring;
            for (int k = 0; k < 20; ++k)
            {
                const double a = 6.283 * k / 20, rr = radius * (0.7 + 0.3 * unit(generator));
                ring.push_back({c.x + rr * std::cos(a), c.y + rr * std::sin(a)});
            }
            for (std::size_t k = 0; k < ring.size(); ++k)
                segments.push_back({ring[k], ring[(k + 1) % ring.size()]});
        }
        spatial.obstacles = std::make_shared<Obstacles>(std::move(segments));
        for (int s = 0; s < 2000; ++s)
            sites.push_back({unit(generator) * size, unit(generator) * size});
    }

    PartitionInput input() const { return {points, weights, spatial}; }
};

const Scene& denseScene()
{
    static const Scene instance(100.0, 150.0, 60, 200.0);
    return instance;
}

const Scene& regionalScene()
{
    static const Scene instance(446.0, 500.0, 100, 500.0);
    return instance;
}

void timePartition(benchmark::State& state, const Scene& s, const Partitioner& partitioner)
{
    Feedback feedback;
    std::size_t checksum = 0;
    for (auto _ : state)
    {
        const Partition p = partitioner.partition(s.input(), s.sites, feedback);
        checksum += p.regionSite[checksum % p.regionSite.size()];
    }
    benchmark::DoNotOptimize(checksum);
    state.counters["regions"] = double(s.points.size());
    state.counters["obstacle_segments"] = double(s.spatial.obstacles->size());
    state.counters["adjacency_build_s"] = s.adjacencySeconds;
    // Share of points whose straight path to the nearest site crosses an obstacle.
    const Partition nearest = VoronoiPartitioner().partition(s.input(), s.sites, feedback);
    std::size_t blocked = 0;
    for (RegionIndex r = 0; r < s.points.size(); ++r)
        blocked += s.spatial.obstacles->blocks(s.points[r], s.sites[nearest.regionSite[r]]);
    state.counters["blocked_share"] = double(blocked) / double(s.points.size());
}

void Partition_Dense_Euclidean(benchmark::State& state)
{
    timePartition(state, denseScene(), VoronoiPartitioner());
}
void Partition_Dense_Barrier(benchmark::State& state)
{
    timePartition(state, denseScene(), BarrierPartitioner());
}
void Partition_Dense_Geodesic(benchmark::State& state)
{
    timePartition(state, denseScene(), GeodesicPartitioner());
}
void Partition_Regional_Euclidean(benchmark::State& state)
{
    timePartition(state, regionalScene(), VoronoiPartitioner());
}
void Partition_Regional_Barrier(benchmark::State& state)
{
    timePartition(state, regionalScene(), BarrierPartitioner());
}
void Partition_Regional_Geodesic(benchmark::State& state)
{
    timePartition(state, regionalScene(), GeodesicPartitioner());
}
BENCHMARK(Partition_Dense_Euclidean)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(Partition_Dense_Barrier)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(Partition_Dense_Geodesic)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(Partition_Regional_Euclidean)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(Partition_Regional_Barrier)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(Partition_Regional_Geodesic)->Unit(benchmark::kMillisecond)->MinTime(1.0);
} // namespace

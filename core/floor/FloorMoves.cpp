#include "FloorState.h"

#include <cmath>

namespace vbas
{
namespace
{
/** The spread of a region's points around their centre, kept as sums: n, sum of x and y, sum of squares. */
struct Spread
{
    double n = 0.0, x = 0.0, y = 0.0, squares = 0.0;

    double value() const { return n > 0.0 ? squares - (x * x + y * y) / n : 0.0; }
    Spread with(const Point& p, double sign) const
    {
        return {n + sign, x + sign * p.x, y + sign * p.y, squares + sign * (p.x * p.x + p.y * p.y)};
    }
};
} // namespace

std::size_t moveBorderAreas(FloorState& state, std::size_t passes)
{
    const FloorGraph& graph = state.graph();
    // Points about their mean, so that the sums of squares keep their precision in projected metres.
    Point mean;
    for (const Point& p : graph.points)
        mean.x += p.x / double(graph.size()), mean.y += p.y / double(graph.size());
    std::vector<Point> points(graph.size());
    for (std::size_t a = 0; a < graph.size(); ++a)
        points[a] = {graph.points[a].x - mean.x, graph.points[a].y - mean.y};
    std::vector<Spread> spread(state.regionSlots());
    for (std::uint32_t a = 0; a < graph.size(); ++a)
        spread[state.regionOf(a)] = spread[state.regionOf(a)].with(points[a], 1.0);

    std::size_t moved = 0;
    for (std::size_t pass = 0; pass < passes; ++pass)
    {
        std::size_t movedInPass = 0;
        for (std::uint32_t a = 0; a < graph.size(); ++a)
        {
            const std::uint32_t from = state.regionOf(a);
            if (state.members(from).size() < 2 || !graph.atFloor(state.population(from) - graph.population[a],
                                                                 state.cases(from) - graph.cases[a]))
                continue;
            const Spread without = spread[from].with(points[a], -1.0);
            const double before = spread[from].value();
            std::uint32_t best = from;
            double bestGain = 1e-9 * (before + 1.0);
            for (std::size_t i = graph.offsets[a]; i < graph.offsets[a + 1]; ++i)
            {
                const std::uint32_t to = state.regionOf(graph.neighbours[i]);
                if (to == from)
                    continue;
                const double gain =
                    before + spread[to].value() - without.value() - spread[to].with(points[a], 1.0).value();
                if (gain > bestGain)
                    best = to, bestGain = gain;
            }
            if (best == from || !state.connectedWithout(from, a))
                continue;
            spread[from] = without;
            spread[best] = spread[best].with(points[a], 1.0);
            state.move(a, best);
            ++movedInPass;
        }
        moved += movedInPass;
        if (movedInPass == 0)
            break;
    }
    return moved;
}

} // namespace vbas

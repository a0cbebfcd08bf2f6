#include "FloorState.h"

#include <set>
#include <utility>

namespace vbas
{

void mergeBelowFloor(FloorState& state)
{
    // The emptiest region first, into the emptiest neighbour, preferring one below the floor too: two small
    // regions together may reach it, and a region at the floor grows past it by no more than needed.
    std::set<std::pair<double, std::uint32_t>> below;
    for (std::uint32_t r = 0; r < state.regionSlots(); ++r)
        if (!state.members(r).empty() && !state.atFloor(r))
            below.emplace(state.fill(r), r);
    while (!below.empty())
    {
        const std::uint32_t region = below.begin()->second;
        below.erase(below.begin());
        std::uint32_t best = region;
        std::pair<bool, double> bestKey{true, 0.0};
        for (const std::uint32_t other : state.neighbours(region))
        {
            const std::pair<bool, double> key{state.atFloor(other), state.fill(other)};
            if (best == region || key < bestKey)
                best = other, bestKey = key;
        }
        if (best == region)
            continue; // no neighbour: the caller joins what cannot reach the floor
        below.erase({state.fill(best), best});
        state.merge(region, best);
        if (!state.atFloor(best))
            below.emplace(state.fill(best), best);
    }
}

} // namespace vbas

#include "FloorState.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <queue>

namespace vbas
{
namespace
{
/** Splits one region in two connected parts at the floor, trying cuts along its principal axes. */
class Splitter
{
public:
    explicit Splitter(const FloorGraph& graph)
        : mGraph(graph)
        , mPart(graph.size(), kOutside)
    {
    }

    /** The areas of the part to split off `region`, or none when no cut leaves both parts at the floor. */
    std::vector<std::uint32_t> cut(const FloorState& state, std::uint32_t region)
    {
        const std::vector<std::uint32_t>& members = state.members(region);
        std::vector<std::uint32_t> best;
        double bestFill = std::numeric_limits<double>::infinity();
        for (const Point& direction : directions(members))
        {
            std::vector<std::uint32_t> part = grow(state, region, direction);
            if (part.empty())
                continue;
            double people = 0.0, count = 0.0;
            for (const std::uint32_t a : part)
                people += mGraph.population[a], count += mGraph.cases[a];
            // The tightest part at the floor leaves the most for further parts.
            if (const double fill = mGraph.fill(people, count); fill < bestFill)
                bestFill = fill, best = std::move(part);
        }
        return best;
    }

private:
    static constexpr std::uint8_t kOutside = 0, kRest = 1, kPart = 2;

    /** Both ways along the principal axis of the members' points and along its perpendicular. */
    std::array<Point, 4> directions(const std::vector<std::uint32_t>& members) const
    {
        double mx = 0.0, my = 0.0;
        for (const std::uint32_t a : members)
            mx += mGraph.points[a].x, my += mGraph.points[a].y;
        mx /= double(members.size()), my /= double(members.size());
        double sxx = 0.0, syy = 0.0, sxy = 0.0;
        for (const std::uint32_t a : members)
        {
            const double dx = mGraph.points[a].x - mx, dy = mGraph.points[a].y - my;
            sxx += dx * dx, syy += dy * dy, sxy += dx * dy;
        }
        const double angle = 0.5 * std::atan2(2.0 * sxy, sxx - syy);
        const Point u{std::cos(angle), std::sin(angle)}, v{-u.y, u.x};
        return {u, Point{-u.x, -u.y}, v, Point{-v.x, -v.y}};
    }

    /**
     * Grows a part from the member lying furthest back along `direction`, always taking the bordering member
     * furthest back, until it reaches the floor; the pieces the part cuts off the rest join it but the
     * fullest one. Empty when the rest is then below the floor.
     */
    std::vector<std::uint32_t> grow(const FloorState& state, std::uint32_t region, const Point& direction)
    {
        const std::vector<std::uint32_t>& members = state.members(region);
        const auto key = [&](std::uint32_t a)
        {
            return mGraph.points[a].x * direction.x + mGraph.points[a].y * direction.y;
        };
        for (const std::uint32_t a : members)
            mPart[a] = kRest;
        std::uint32_t start = members.front();
        for (const std::uint32_t a : members)
            if (key(a) < key(start))
                start = a;
        using Entry = std::pair<double, std::uint32_t>;
        std::priority_queue<Entry, std::vector<Entry>, std::greater<>> frontier;
        frontier.emplace(key(start), start);
        std::vector<std::uint32_t> part;
        double people = 0.0, count = 0.0;
        while (!frontier.empty() && !mGraph.atFloor(people, count))
        {
            const std::uint32_t a = frontier.top().second;
            frontier.pop();
            if (mPart[a] != kRest)
                continue;
            mPart[a] = kPart;
            part.push_back(a);
            people += mGraph.population[a], count += mGraph.cases[a];
            for (std::size_t i = mGraph.offsets[a]; i < mGraph.offsets[a + 1]; ++i)
                if (const std::uint32_t b = mGraph.neighbours[i]; mPart[b] == kRest)
                    frontier.emplace(key(b), b);
        }
        // The rest in connected pieces: the fullest stays, the others join the part (they border it).
        std::vector<std::vector<std::uint32_t>> pieces;
        std::vector<double> piecePeople, pieceCount;
        for (const std::uint32_t a : members)
        {
            if (mPart[a] != kRest)
                continue;
            pieces.emplace_back();
            piecePeople.push_back(0.0);
            pieceCount.push_back(0.0);
            std::vector<std::uint32_t> stack{a};
            mPart[a] = kOutside;
            while (!stack.empty())
            {
                const std::uint32_t b = stack.back();
                stack.pop_back();
                pieces.back().push_back(b);
                piecePeople.back() += mGraph.population[b];
                pieceCount.back() += mGraph.cases[b];
                for (std::size_t i = mGraph.offsets[b]; i < mGraph.offsets[b + 1]; ++i)
                    if (const std::uint32_t c = mGraph.neighbours[i]; mPart[c] == kRest)
                    {
                        mPart[c] = kOutside;
                        stack.push_back(c);
                    }
            }
        }
        for (const std::uint32_t a : members)
            mPart[a] = kOutside;
        if (pieces.empty())
            return {};
        std::size_t kept = 0;
        for (std::size_t p = 1; p < pieces.size(); ++p)
            if (mGraph.fill(piecePeople[p], pieceCount[p]) > mGraph.fill(piecePeople[kept], pieceCount[kept]))
                kept = p;
        if (!mGraph.atFloor(piecePeople[kept], pieceCount[kept]) || !mGraph.atFloor(people, count))
            return {};
        for (std::size_t p = 0; p < pieces.size(); ++p)
            if (p != kept)
                part.insert(part.end(), pieces[p].begin(), pieces[p].end());
        return part;
    }

    const FloorGraph& mGraph;
    std::vector<std::uint8_t> mPart;
};
} // namespace

void splitAboveFloor(FloorState& state)
{
    Splitter splitter(state.graph());
    std::vector<std::uint32_t> work;
    for (std::uint32_t r = 0; r < state.regionSlots(); ++r)
        work.push_back(r);
    while (!work.empty())
    {
        const std::uint32_t region = work.back();
        work.pop_back();
        if (state.members(region).size() < 2 || state.fill(region) < 2.0)
            continue;
        const std::vector<std::uint32_t> part = splitter.cut(state, region);
        if (part.empty())
            continue;
        work.push_back(state.split(part));
        work.push_back(region);
    }
}

} // namespace vbas

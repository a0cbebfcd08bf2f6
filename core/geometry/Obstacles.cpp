#include "Obstacles.h"

#include "Geos.h"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/intersections.h>

#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

namespace vbas
{
namespace
{
namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;
using BoxPoint = bg::model::point<double, 2, bg::cs::cartesian>;
using Box = bg::model::box<BoxPoint>;
using Entry = std::pair<Box, std::size_t>;
using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;

Box boxOf(const Point& a, const Point& b)
{
    return Box(BoxPoint(std::min(a.x, b.x), std::min(a.y, b.y)),
               BoxPoint(std::max(a.x, b.x), std::max(a.y, b.y)));
}

} // namespace

/**
 * Two indexes: a uniform grid answers short paths (most of them: a point to its nearest site) by
 * looking at the few segments in the cells the path's box covers; an R-tree answers the long ones.
 */
struct Obstacles::Index
{
    bgi::rtree<Entry, bgi::quadratic<16>> tree;
    double originX = 0, originY = 0, cell = 1;
    std::size_t columns = 0, rows = 0;
    std::vector<std::size_t> cellOffsets{0};
    std::vector<std::uint32_t> cellSegments;
    static constexpr std::size_t kMaxCellsPerQuery = 16;

    std::size_t column(double x) const
    {
        return std::size_t(std::clamp((x - originX) / cell, 0.0, double(columns - 1)));
    }
    std::size_t row(double y) const
    {
        return std::size_t(std::clamp((y - originY) / cell, 0.0, double(rows - 1)));
    }

    void buildGrid(const std::vector<Segment>& segments)
    {
        double minX = segments[0].a.x, maxX = minX, minY = segments[0].a.y, maxY = minY;
        for (const Segment& s : segments)
            for (const Point& p : {s.a, s.b})
            {
                minX = std::min(minX, p.x);
                maxX = std::max(maxX, p.x);
                minY = std::min(minY, p.y);
                maxY = std::max(maxY, p.y);
            }
        // About one segment per cell along the longer side's square root: a few segments a cell.
        const double extent = std::max({maxX - minX, maxY - minY, 1e-9});
        cell = extent / std::max(1.0, std::sqrt(double(segments.size())));
        originX = minX;
        originY = minY;
        columns = std::size_t((maxX - minX) / cell) + 1;
        rows = std::size_t((maxY - minY) / cell) + 1;
        std::vector<std::vector<std::uint32_t>> cells(columns * rows);
        for (std::uint32_t i = 0; i < segments.size(); ++i)
        {
            const Segment& s = segments[i];
            for (std::size_t r = row(std::min(s.a.y, s.b.y)); r <= row(std::max(s.a.y, s.b.y)); ++r)
                for (std::size_t c = column(std::min(s.a.x, s.b.x)); c <= column(std::max(s.a.x, s.b.x)); ++c)
                    cells[r * columns + c].push_back(i);
        }
        for (const auto& list : cells)
        {
            cellSegments.insert(cellSegments.end(), list.begin(), list.end());
            cellOffsets.push_back(cellSegments.size());
        }
    }
};

Obstacles::Obstacles()
    : mIndex(std::make_unique<Index>())
{
}

Obstacles::Obstacles(std::vector<Segment> segments)
    : mSegments(std::move(segments))
    , mIndex(std::make_unique<Index>())
{
    std::vector<Entry> entries;
    entries.reserve(mSegments.size());
    for (std::size_t i = 0; i < mSegments.size(); ++i)
        entries.emplace_back(boxOf(mSegments[i].a, mSegments[i].b), i);
    mIndex->tree = decltype(mIndex->tree)(entries.begin(), entries.end()); // packing (STR) construction
    if (!mSegments.empty())
        mIndex->buildGrid(mSegments);
}

Obstacles::~Obstacles() = default;
Obstacles::Obstacles(Obstacles&&) noexcept = default;
Obstacles& Obstacles::operator=(Obstacles&&) noexcept = default;

std::vector<Segment> Obstacles::segmentsOfWkb(const unsigned char* wkb, std::size_t size)
{
    geos::Context context;
    context.clearError();
    const geos::GeometryPtr geometry = geos::own(context, GEOSGeomFromWKB_buf_r(context.handle(), wkb, size));
    if (!geometry)
        throw Error(Subject::Partition, "an obstacle geometry cannot be read: " + context.lastError());
    std::vector<Segment> segments;
    geos::forEachSegment(context.handle(), geometry.get(),
                         [&](const Point& a, const Point& b) {
                             segments.push_back({a, b});
                         });
    return segments;
}

bool Obstacles::empty() const
{
    return mSegments.empty();
}
std::size_t Obstacles::size() const
{
    return mSegments.size();
}
const std::vector<Segment>& Obstacles::segments() const
{
    return mSegments;
}

namespace
{
/**
 * Whether c and d lie strictly on the same side of the line through a and b, decided in double
 * precision when the orientations are clearly apart; nullopt when rounding could matter.
 */
std::optional<bool> clearlySameSide(const Point& a, const Point& b, const Point& c, const Point& d)
{
    const double ux = b.x - a.x, uy = b.y - a.y;
    const double oc = ux * (c.y - a.y) - uy * (c.x - a.x);
    const double od = ux * (d.y - a.y) - uy * (d.x - a.x);
    // A generous bound on the rounding error of these products (relative 1e-12 of their size).
    const double scale = (std::abs(ux) + std::abs(uy)) * (std::abs(c.x - a.x) + std::abs(c.y - a.y) +
                                                          std::abs(d.x - a.x) + std::abs(d.y - a.y));
    const double margin = 1e-12 * scale;
    if ((oc > margin && od > margin) || (oc < -margin && od < -margin))
        return true;
    if (std::abs(oc) > margin && std::abs(od) > margin)
        return false;
    return std::nullopt;
}
} // namespace

bool Obstacles::blocks(const Point& p, const Point& q) const
{
    if (mSegments.empty())
        return false;
    const auto crosses = [&](const Segment& s)
    {
        // Most candidates miss clearly: both ends of one segment on one side of the other.
        const std::optional<bool> sPastPath = clearlySameSide(p, q, s.a, s.b);
        if (sPastPath == true)
            return false;
        const std::optional<bool> pathPastS = clearlySameSide(s.a, s.b, p, q);
        if (pathPastS == true)
            return false;
        if (sPastPath == false && pathPastS == false)
            return true; // each separates the other's ends: a proper crossing
        const Kernel::Segment_2 path(Kernel::Point_2(p.x, p.y), Kernel::Point_2(q.x, q.y));
        return CGAL::do_intersect(
            path, Kernel::Segment_2(Kernel::Point_2(s.a.x, s.a.y), Kernel::Point_2(s.b.x, s.b.y)));
    };
    const Index& index = *mIndex;
    const std::size_t c0 = index.column(std::min(p.x, q.x)), c1 = index.column(std::max(p.x, q.x));
    const std::size_t r0 = index.row(std::min(p.y, q.y)), r1 = index.row(std::max(p.y, q.y));
    if ((c1 - c0 + 1) * (r1 - r0 + 1) <= Index::kMaxCellsPerQuery)
    {
        const double minX = std::min(p.x, q.x), maxX = std::max(p.x, q.x), minY = std::min(p.y, q.y),
                     maxY = std::max(p.y, q.y);
        for (std::size_t r = r0; r <= r1; ++r)
            for (std::size_t c = c0; c <= c1; ++c)
                for (std::size_t k = index.cellOffsets[r * index.columns + c];
                     k < index.cellOffsets[r * index.columns + c + 1]; ++k)
                {
                    const Segment& s = mSegments[index.cellSegments[k]];
                    if (std::max(s.a.x, s.b.x) < minX || std::min(s.a.x, s.b.x) > maxX ||
                        std::max(s.a.y, s.b.y) < minY || std::min(s.a.y, s.b.y) > maxY)
                        continue; // boxes apart: no contact (a segment in several cells is tested more than
                                  // once)
                    if (crosses(s))
                        return true;
                }
        return false;
    }
    for (auto it = index.tree.qbegin(bgi::intersects(boxOf(p, q))); it != index.tree.qend(); ++it)
        if (crosses(mSegments[it->second]))
            return true;
    return false;
}

} // namespace vbas

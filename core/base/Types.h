#pragma once

#include <cstdint>
#include <functional>
#include <limits>

/**
 * Plain value types shared by every stage of the engine.
 */
namespace vbas
{

/** Index of an initial region (small area) in a Dataset, 0-based, in input order. */
using RegionIndex = std::uint32_t;
/** Index of a Voronoi site; a site that receives regions defines one aggregate. */
using SiteIndex = std::uint32_t;
/** Dense id of an equivalence class (one combination of quasi-identifier values). */
using ClassId = std::uint32_t;
/** A record count; records may be weighted (pre-aggregated tables), so counts can be large. */
using Count = std::uint64_t;

inline constexpr RegionIndex kNoRegion = std::numeric_limits<RegionIndex>::max();
inline constexpr SiteIndex kNoSite = std::numeric_limits<SiteIndex>::max();

/** A point in a projected plane (metres or other planar units). */
struct Point
{
    double x = 0.0;
    double y = 0.0;
};

inline bool operator==(const Point& a, const Point& b)
{
    return a.x == b.x && a.y == b.y;
}
inline bool operator!=(const Point& a, const Point& b)
{
    return !(a == b);
}

/** Hash of a Point, equal for equal points (0 and -0 alike). */
struct PointHash
{
    std::size_t operator()(const Point& p) const
    {
        const std::size_t x = std::hash<double>()(p.x + 0.0), y = std::hash<double>()(p.y + 0.0);
        return x ^ (y + 0x9e3779b97f4a7c15ULL + (x << 6) + (x >> 2));
    }
};

/** Squared planar distance; exact ties are compared on this value. */
inline double squaredDistance(const Point& a, const Point& b)
{
    const double dx = a.x - b.x;
    const double dy = a.y - b.y;
    return dx * dx + dy * dy;
}

} // namespace vbas

#pragma once

#include "base/Types.h"

#include <memory>
#include <vector>

namespace vbas
{

/** A straight piece of a barrier. */
struct Segment
{
    Point a;
    Point b;
};

/**
 * Barriers to movement (rivers, motorways, lake shores: SPEC section 5, thesis section 3.2.3) as
 * segments in a spatial index. Lines are barriers along their length; polygons along their rings,
 * so a path that enters a lake crosses its shore. Zero-width lines need no buffering here because
 * paths are tested against the segments exactly, not through a graph of vertices.
 */
class Obstacles
{
public:
    Obstacles();
    explicit Obstacles(std::vector<Segment> segments);
    ~Obstacles();
    Obstacles(Obstacles&&) noexcept;
    Obstacles& operator=(Obstacles&&) noexcept;

    /** Segments of every line and polygon ring in a WKB geometry (any type; points are ignored). */
    static std::vector<Segment> segmentsOfWkb(const unsigned char* wkb, std::size_t size);

    bool empty() const;
    std::size_t size() const;
    const std::vector<Segment>& segments() const;
    /** Whether the straight path from p to q touches a barrier (exact predicates). */
    bool blocks(const Point& p, const Point& q) const;

private:
    struct Index;
    std::vector<Segment> mSegments;
    std::unique_ptr<Index> mIndex;
};

} // namespace vbas

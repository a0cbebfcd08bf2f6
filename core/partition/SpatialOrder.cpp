#include "SpatialOrder.h"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Spatial_sort_traits_adapter_2.h>
#include <CGAL/property_map.h>
#include <CGAL/spatial_sort.h>

#include <numeric>

namespace vbas
{

std::vector<std::size_t> spatialOrder(const std::vector<Point>& points)
{
    using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
    std::vector<Kernel::Point_2> cgalPoints;
    cgalPoints.reserve(points.size());
    for (const Point& p : points)
        cgalPoints.emplace_back(p.x, p.y);
    std::vector<std::size_t> order(points.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    using Traits =
        CGAL::Spatial_sort_traits_adapter_2<Kernel, CGAL::Pointer_property_map<Kernel::Point_2>::type>;
    CGAL::spatial_sort(order.begin(), order.end(), Traits(CGAL::make_property_map(cgalPoints)));
    return order;
}

} // namespace vbas

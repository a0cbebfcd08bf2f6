#include "SiteRefiner.h"

#include <algorithm>
#include <set>
#include <utility>

namespace vbas
{

std::vector<Point> distinctSites(const std::vector<Point>& seeds)
{
    std::set<std::pair<double, double>> seen;
    std::vector<Point> sites;
    for (const Point& p : seeds)
        if (seen.emplace(p.x, p.y).second)
            sites.push_back(p);
    return sites;
}

Count classCountIn(const RegionSet& regions, RegionIndex region, ClassId cls)
{
    const HistogramTable::Range entries = regions.histograms().entries(region);
    const ClassCount* found =
        std::lower_bound(entries.begin(), entries.end(), cls,
                         [](const ClassCount& entry, ClassId c) { return entry.cls < c; });
    return found != entries.end() && found->cls == cls ? found->count : 0;
}

} // namespace vbas

#include "NaiveAnonymitySites.h"

#include <algorithm>
#include <numeric>

namespace vbas
{

std::unique_ptr<SiteLocator> NaiveAnonymitySites::create(const StrategyOptions&)
{
    return std::make_unique<NaiveAnonymitySites>();
}

std::vector<Point> NaiveAnonymitySites::locate(const RegionSet& regions, std::size_t count, Feedback&) const
{
    const HistogramTable& histograms = regions.histograms();
    std::vector<RegionIndex> order(regions.size());
    std::iota(order.begin(), order.end(), RegionIndex(0));
    const auto riskier = [&](RegionIndex a, RegionIndex b)
    {
        const bool emptyA = histograms.total(a) == 0;
        const bool emptyB = histograms.total(b) == 0;
        if (emptyA != emptyB)
            return emptyB;
        if (histograms.anonymity(a) != histograms.anonymity(b))
            return histograms.anonymity(a) < histograms.anonymity(b);
        if (histograms.classesAtAnonymity(a) != histograms.classesAtAnonymity(b))
            return histograms.classesAtAnonymity(a) > histograms.classesAtAnonymity(b);
        return a < b;
    };
    const std::size_t chosen = std::min(count, order.size());
    std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(chosen), order.end(), riskier);
    std::vector<Point> sites;
    sites.reserve(chosen);
    for (std::size_t i = 0; i < chosen; ++i)
        sites.push_back(regions.point(order[i]));
    return sites;
}

} // namespace vbas

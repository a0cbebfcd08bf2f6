#include "SiteRefiner.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <unordered_set>
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

std::optional<Sites> SiteRefiner::resume(const RegionSet&, const PartitionInput&, const ReleaseRule&,
                                         const Partitioner&, const Sites&, const RefinementReport&,
                                         std::size_t, RefinementReport&, Feedback&) const
{
    return std::nullopt;
}

namespace
{
/** Tries at placing the added sites so that none empties an aggregate, each replacing the ones that did. */
constexpr int kPlacementTries = 4;
} // namespace

std::optional<ResizedSites> resizedSites(const RegionSet& regions, const PartitionInput& input,
                                         const Partitioner& partitioner, const Sites& sites,
                                         std::size_t count, Feedback& feedback)
{
    const std::size_t n = sites.points.size();
    if (!resizable(n, count))
        return std::nullopt;
    const Partition before = partitioner.partition(input, sites, feedback);
    const auto weightOf = [&](SiteIndex s)
    {
        return before.weights.empty() ? 0.0 : before.weights[s];
    };
    std::vector<Count> records(n, 0);
    std::vector<std::size_t> members(n, 0);
    std::vector<double> farthest(n, -1.0);
    std::vector<RegionIndex> farthestRegion(n, 0);
    for (RegionIndex r = 0; r < before.regionSite.size(); ++r)
    {
        const SiteIndex s = before.regionSite[r];
        records[s] += regions.records(r);
        ++members[s];
        const double distance = squaredDistance(regions.point(r), before.sites[s]);
        if (distance > farthest[s])
            farthest[s] = distance, farthestRegion[s] = r;
    }
    std::vector<SiteIndex> order(n);
    std::iota(order.begin(), order.end(), SiteIndex(0));
    // Per site of `before`: its index in the resized sites, n for a removed one.
    std::vector<SiteIndex> index(n);
    std::iota(index.begin(), index.end(), SiteIndex(0));
    ResizedSites resized;
    Partition after;
    if (count < n)
    {
        std::stable_sort(order.begin(), order.end(),
                         [&](SiteIndex a, SiteIndex b) { return records[a] < records[b]; });
        std::size_t removed = 0;
        for (const SiteIndex s : order)
            if (removed < n - count && records[s] > 0)
                index[s] = SiteIndex(n), ++removed;
        if (removed < n - count)
            return std::nullopt;
        for (SiteIndex s = 0; s < n; ++s)
            if (index[s] < n)
            {
                index[s] = SiteIndex(resized.sites.points.size());
                resized.sites.points.push_back(before.sites[s]);
                resized.sites.weights.push_back(weightOf(s));
            }
        after = partitioner.partition(input, resized.sites, feedback);
    }
    else
    {
        // The aggregates with the most records are split, each at its member region farthest from its site.
        std::stable_sort(order.begin(), order.end(),
                         [&](SiteIndex a, SiteIndex b) { return records[a] > records[b]; });
        std::unordered_set<Point, PointHash> taken(before.sites.begin(), before.sites.end());
        std::vector<char> rejected(n, 0);
        for (int attempt = 0; attempt < kPlacementTries; ++attempt)
        {
            resized.sites = Sites(before.sites, std::vector<double>(n));
            for (SiteIndex s = 0; s < n; ++s)
                resized.sites.weights[s] = weightOf(s);
            std::vector<SiteIndex> split;
            for (const SiteIndex s : order)
            {
                if (split.size() == count - n)
                    break;
                const Point& at = regions.point(farthestRegion[s]);
                if (rejected[s] || farthest[s] <= 0.0 || taken.count(at) > 0)
                    continue;
                split.push_back(s);
                resized.sites.points.push_back(at);
                // Its border with the site it splits three quarters of the way to it: with the site's own
                // weight it would reach past the site's cell as far as the site does.
                resized.sites.weights.push_back(weightOf(s) - farthest[s] / 2.0);
            }
            if (split.size() < count - n)
                return std::nullopt;
            after = partitioner.partition(input, resized.sites, feedback);
            // An added site that took every region of a small neighbour makes a region fewer, not one more:
            // the aggregate it split is skipped at the next try.
            std::vector<char> owns(count, 0);
            for (const SiteIndex s : after.regionSite)
                owns[s] = 1;
            bool emptied = false;
            for (RegionIndex r = 0; r < before.regionSite.size(); ++r)
                if (const SiteIndex t = before.regionSite[r]; !owns[t] && after.regionSite[r] >= n)
                    rejected[split[after.regionSite[r] - n]] = 1, emptied = true;
            if (!emptied)
                break;
        }
    }
    for (RegionIndex r = 0; r < before.regionSite.size(); ++r)
        if (after.regionSite[r] != index[before.regionSite[r]])
            resized.changedRegions.push_back(r);
    return resized;
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

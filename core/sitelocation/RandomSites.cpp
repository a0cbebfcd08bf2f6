#include "RandomSites.h"

#include "StrategyOptions.h"

#include <random>

namespace vbas
{

RandomSites::RandomSites(std::uint64_t seed)
    : mSeed(seed)
{
}

std::unique_ptr<SiteLocator> RandomSites::create(const StrategyOptions& options)
{
    return std::make_unique<RandomSites>(options.count(seedOption()));
}

std::vector<OptionSpec> RandomSites::options()
{
    return {seedOption()};
}

std::vector<Point> RandomSites::locate(const RegionSet& regions, std::size_t count, Feedback&) const
{
    const BoundingBox box = boundingBox(regions.points());
    std::mt19937_64 generator(mSeed);
    // Own mapping to [0, 1): std::uniform_real_distribution differs between standard libraries,
    // and the same seed must give the same release everywhere.
    const auto unit = [&generator]()
    {
        return static_cast<double>(generator() >> 11) * 0x1.0p-53;
    };
    std::vector<Point> sites(count);
    for (Point& site : sites)
    {
        site.x = box.minX + unit() * box.width();
        site.y = box.minY + unit() * box.height();
    }
    return sites;
}

} // namespace vbas

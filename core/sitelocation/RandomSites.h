#pragma once

#include "SiteLocator.h"

#include <cstdint>
#include <memory>

namespace vbas
{

struct OptionSpec;
class StrategyOptions;

/** sitelocation.random (thesis L1157): uniform in the bounding box of the region points, seeded. */
class RandomSites : public SiteLocator
{
public:
    explicit RandomSites(std::uint64_t seed);
    static std::unique_ptr<SiteLocator> create(const StrategyOptions& options);
    /** "seed". */
    static std::vector<OptionSpec> options();
    std::vector<Point> locate(const RegionSet& regions, std::size_t count, Feedback& feedback) const override;

private:
    std::uint64_t mSeed;
};

} // namespace vbas

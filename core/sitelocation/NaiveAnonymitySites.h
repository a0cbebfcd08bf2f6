#pragma once

#include "SiteLocator.h"

#include <memory>

namespace vbas
{

class StrategyOptions;

/**
 * sitelocation.naive_anonymity (thesis L566, L1119-1125): the points of the `count` regions with
 * the lowest anonymity. Ties: more classes at that cardinality first (more people at that risk),
 * then input order; regions without records come last.
 */
class NaiveAnonymitySites : public SiteLocator
{
public:
    static std::unique_ptr<SiteLocator> create(const StrategyOptions& options);
    std::vector<Point> locate(const RegionSet& regions, std::size_t count, Feedback& feedback) const override;
};

} // namespace vbas

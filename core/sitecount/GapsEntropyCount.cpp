#include "GapsEntropyCount.h"

#include <cmath>

namespace vbas
{

std::unique_ptr<SiteCounter> GapsEntropyCount::create(const StrategyOptions& options)
{
    return std::make_unique<GapsEntropyCount>(options);
}

double GapsEntropyCount::entropy(const std::vector<Count>& classTotals)
{
    Count n = 0;
    for (Count c : classTotals)
        n += c;
    if (n == 0)
        return 0.0;
    double h = 0.0;
    for (Count c : classTotals)
        if (c > 0)
        {
            const double p = static_cast<double>(c) / static_cast<double>(n);
            h -= p * std::log(p);
        }
    return h;
}

double GapsEntropyCount::modelInput(const RegionSet& regions) const
{
    return entropy(regions.classTotals());
}

} // namespace vbas

#include "SmallClassSuppression.h"

namespace vbas
{

std::unique_ptr<Suppressor> SmallClassSuppression::create(const StrategyOptions&)
{
    return std::make_unique<SmallClassSuppression>();
}

std::vector<bool> SmallClassSuppression::suppress(const HistogramTable& groups, Count k,
                                                  Feedback& feedback) const
{
    feedback.checkCanceled();
    const std::vector<ClassCount>& entries = groups.allEntries();
    std::vector<bool> suppressed(entries.size());
    for (std::size_t e = 0; e < entries.size(); ++e)
        suppressed[e] = entries[e].count < k;
    return suppressed;
}

} // namespace vbas

#pragma once

#include "Suppressor.h"

#include <memory>

namespace vbas
{

class StrategyOptions;

/**
 * suppression.small_classes: suppresses every record of every class smaller than k in its group
 * (thesis L911-923). Minimal for the guarantee when classes cannot be split: a class of fewer than
 * k records can only be released by moving records, which suppression does not do.
 */
class SmallClassSuppression : public Suppressor
{
public:
    static std::unique_ptr<Suppressor> create(const StrategyOptions& options);
    std::vector<bool> suppress(const HistogramTable& groups, Count k, Feedback& feedback) const override;
};

} // namespace vbas

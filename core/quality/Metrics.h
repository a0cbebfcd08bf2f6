#pragma once

#include "Metric.h"

#include <memory>

namespace vbas
{

class StrategyOptions;

/** Declares a built-in metric class; each is defined in its own .cpp and registered in Strategies.cpp. */
#define VBAS_DECLARE_METRIC(ClassName)                                                                       \
    class ClassName : public Metric                                                                          \
    {                                                                                                        \
    public:                                                                                                  \
        static std::unique_ptr<Metric> create(const StrategyOptions&)                                        \
        {                                                                                                    \
            return std::make_unique<ClassName>();                                                            \
        }                                                                                                    \
        double compute(const RatingInput& input) const override;                                             \
    };

/** quality.global_anonymity: alpha, smallest class of any aggregate before local suppression. */
VBAS_DECLARE_METRIC(GlobalAnonymityBefore)
/** quality.global_anonymity_after: smallest released class (>= k, or 0 when nothing is released). */
VBAS_DECLARE_METRIC(GlobalAnonymityAfter)
/** quality.anonymity_deviation: mean over aggregates with released records of (anonymity after - k). */
VBAS_DECLARE_METRIC(AnonymityDeviation)
/** quality.average_distance: mean over initial regions of the distance from its point to its site. */
VBAS_DECLARE_METRIC(AverageDistance)
/** quality.alternative_average_distance: the same, to the mean of the aggregate's member points (L1351). */
VBAS_DECLARE_METRIC(AlternativeAverageDistance)
/** quality.suppressed_global: records suppressed by global suppression. */
VBAS_DECLARE_METRIC(SuppressedGlobal)
/** quality.suppressed_local: records suppressed by local suppression. */
VBAS_DECLARE_METRIC(SuppressedLocal)
/** quality.suppressed_diversity: records in groups of k or more withheld for l-diversity (SPEC section 10).
 */
VBAS_DECLARE_METRIC(SuppressedDiversity)
/** quality.suppressed: all suppressed records (global, local and l-diversity). */
VBAS_DECLARE_METRIC(SuppressedTotal)
/**
 * quality.precision_loss: mean over aggregates of log2|A_i| / log2|R|, 0 when |R| = 1 (the thesis
 * formula at L953-965 prints 1 - this, its tables report this).
 */
VBAS_DECLARE_METRIC(PrecisionLoss)
/** quality.discernibility: DM = sum over released (aggregate, class) groups of |E|^2 (L977). */
VBAS_DECLARE_METRIC(Discernibility)
/** quality.discernibility_penalized: DM* = DM + N * suppressed records (penalises suppression). */
VBAS_DECLARE_METRIC(DiscernibilityPenalized)
/**
 * quality.non_uniform_entropy: -sum over released records of log2(n(r) / n(A(r))), n = released
 * records in the initial region and in its aggregate (L995-1007).
 */
VBAS_DECLARE_METRIC(NonUniformEntropy)

#undef VBAS_DECLARE_METRIC

} // namespace vbas

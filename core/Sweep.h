#pragma once

#include "Pipeline.h"

namespace vbas
{

/** Site counts s0 + j * ceil(fraction * s0) for j = -steps..steps (thesis L1199-1207). */
struct SweepOptions
{
    int steps = 2;
    double fraction = 0.1;
};

struct SweepRow
{
    std::uint64_t siteCount;
    PipelineResult result;
    bool paretoOptimal = false;
};

/**
 * The sweep's site counts around s0, ascending, without duplicates, each within [1, upper]
 * (upper: the regions that hold records).
 */
std::vector<std::uint64_t> sweepSiteCounts(std::uint64_t s0, const SweepOptions& options,
                                           std::uint64_t upper);

/**
 * Runs `pipeline` for every site count of the sweep around its estimate and marks the
 * Pareto-optimal rows. Only one of the rows may ever be released: two aggregations of the same
 * records can be intersected.
 */
std::vector<SweepRow> sweep(const Pipeline& pipeline, const PreparedData& data, const SweepOptions& options,
                            Feedback& feedback);

/** Marks the Pareto-optimal rows among `rows` by the registry's objectives. */
void markParetoOptimal(std::vector<SweepRow>& rows, const Registry& registry);

} // namespace vbas

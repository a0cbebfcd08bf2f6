#pragma once

#include "Pipeline.h"

namespace vbas
{

/**
 * The release of `job` with `pipeline` (SPEC sections 2 and 12): all stages, with the aggregates' polygons,
 * the cells when asked for and every record's fate. With hierarchies (the request's, else the
 * configuration's), the generalization levels are searched first (searchGeneralization()) and the release is
 * made of the records at the chosen levels, carrying the hierarchies it used.
 */
ReleaseResult release(const Pipeline& pipeline, const Job& job, const ReleaseRequest& request,
                      Feedback& feedback);

} // namespace vbas

#pragma once

#include "vbasconvert.h"
#include "vbasspatial.h"

#include <qgsprocessingutils.h>

#include <memory>
#include <optional>

/** What a job reads: the sources (kept to write results from), the frame and the engine's data. */
struct VbasJob
{
    std::unique_ptr<QgsProcessingFeatureSource> regions;
    std::unique_ptr<QgsProcessingFeatureSource> records;
    int regionIdField = -1;
    VbasRecordFields recordFields;
    std::optional<VbasPlanarFrame> frame;
    VbasJobData data;
    /** Obstacles, parents and adjacency, for the algorithms with partition parameters. */
    VbasSpatialJob spatial;
};

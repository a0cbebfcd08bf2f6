#pragma once

#include "Job.h"
#include "privacy/KMap.h"
#include "vbasjobloader.h"
#include "vbasspatial.h"

#include <qgsprocessingutils.h>

#include <memory>
#include <optional>

/** What a job reads: the sources (kept to write results from), the frame and the engine's data. */
struct VbasJob
{
    std::unique_ptr<QgsProcessingFeatureSource> regions;
    std::unique_ptr<QgsProcessingFeatureSource> records;
    /** The layer behind `records` when it is read whole (for GDAL's Arrow stream), else nullptr. */
    const QgsVectorLayer* recordsLayer = nullptr;
    int regionIdField = -1;
    VbasRecordFields recordFields;
    std::optional<VbasPlanarFrame> frame;
    VbasLoadedData data;
    /** Obstacles and parents, for the algorithms with partition parameters. */
    VbasSpatialInputs spatial;
    /** The earlier releases on this release's small areas that it is held to (the difference rule). */
    std::optional<vbas::Job::EarlierReleases> earlier;
    /** The population k counts under k-map (K_COUNTS population). */
    std::optional<vbas::PopulationTable> population;

    /** The engine's view of this job; it refers to this job's data, so this must outlive it. */
    vbas::Job engineJob() const
    {
        vbas::Job job(*data.dataset);
        job.geometries = data.geometries.get();
        job.spatial.obstacles = spatial.obstacles;
        job.regionParent = spatial.regionParent;
        job.earlier = earlier ? &*earlier : nullptr;
        job.population = population ? &*population : nullptr;
        return job;
    }
};

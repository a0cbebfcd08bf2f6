#pragma once

#include "Job.h"
#include "generalization/Hierarchy.h"
#include "vbasjobloader.h"
#include "vbasspatial.h"

#include <qgsprocessingutils.h>

#include <map>
#include <memory>
#include <optional>
#include <string>

/** How the quasi-identifiers may be generalized: the hierarchy specs and the ARX tables by field. */
struct VbasGeneralizationDefinition
{
    std::string text;
    std::map<std::string, std::string> tables;
    /** Numeric quasi-identifiers the text does not name get the automatic bands (GENERALIZATION's
     * default); a release at an earlier release's levels takes that one's text as it is. */
    bool bandNumbers = false;
    bool empty() const { return text.empty() && tables.empty(); }
};

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
    /**
     * The hierarchies the pipeline built from GENERALIZATION and HIERARCHY_TABLES
     * (Pipeline::prepareHierarchies()): a hierarchy per quasi-identifier, or none (empty: none); the release
     * is made and labelled with them.
     */
    vbas::Hierarchies hierarchies;
    /** What the hierarchies were built from, as a release's ledger entry keeps it. */
    VbasGeneralizationDefinition generalization;
    /** The earlier releases on this release's small areas that it is held to (the difference rule). */
    std::optional<vbas::Job::EarlierReleases> earlier;

    /** The engine's view of this job; it refers to this job's data, so this must outlive it. */
    vbas::Job engineJob() const
    {
        vbas::Job job(*data.dataset);
        job.geometries = data.geometries.get();
        job.spatial.obstacles = spatial.obstacles;
        job.regionParent = spatial.regionParent;
        job.earlier = earlier ? &*earlier : nullptr;
        return job;
    }
};

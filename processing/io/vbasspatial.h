#pragma once

#include "Feedback.h"
#include "partition/SpatialContext.h"
#include "vbasconvert.h"

#include <QList>

#include <vector>

class QgsMapLayer;

/** What an obstacle-aware or constrained partition needs, read into the engine's terms. */
struct VbasSpatialJob
{
    vbas::SpatialContext spatial;
    /** Parent code of each region (empty: no PARENT_FIELD). */
    std::vector<std::uint32_t> regionParent;
};

/**
 * Reads the obstacles (line and polygon layers in any CRS, transformed into the planar frame), the
 * PARENT_FIELD value of every region (NULL a parent of its own) and, when `needAdjacency`, builds
 * the region adjacency from the planar polygons with `tolerance` (0: a millionth of the extent).
 * Throws QgsProcessingException naming OBSTACLES or PARENT_FIELD for what a user must fix.
 */
VbasSpatialJob vbasLoadSpatial(const QList<QgsMapLayer*>& obstacleLayers, QgsFeatureSource& regions,
                               int parentField, const VbasJobData& data, const VbasPlanarFrame& frame,
                               bool needAdjacency, double tolerance, vbas::Feedback& feedback);

#pragma once

#include "base/Feedback.h"
#include "geometry/Obstacles.h"
#include "vbasjobloader.h"

#include <QList>

#include <memory>
#include <vector>

class QgsMapLayer;

/** What an obstacle-aware or constrained partition reads beyond the regions, in the engine's terms. */
struct VbasSpatialInputs
{
    std::shared_ptr<const vbas::Obstacles> obstacles; //!< none without OBSTACLES
    /** Parent code of each region (empty: no PARENT_FIELD). */
    std::vector<std::uint32_t> regionParent;
};

/**
 * Reads the obstacles (line and polygon layers in any CRS, transformed into the planar frame) and the
 * PARENT_FIELD value of every region (NULL a parent of its own). Throws QgsProcessingException naming
 * OBSTACLES or PARENT_FIELD for what a user must fix.
 */
VbasSpatialInputs vbasLoadSpatial(const QList<QgsMapLayer*>& obstacleLayers, QgsFeatureSource& regions,
                                  int parentField, const VbasLoadedData& data, const VbasPlanarFrame& frame,
                                  vbas::Feedback& feedback);

#pragma once

#include "ledger/ReleaseLedger.h"
#include "vbasjob.h"

#include <qgsfield.h>

#include <QVector>

#include <vector>

/**
 * An aggregation a release is given instead of making one: the region of every small area of a job, from a
 * field of the small areas or from an earlier release in the ledger. Regions are numbered in text order of
 * their ids, so that the release does not depend on the order of the features.
 */
struct VbasGivenAggregation
{
    /** The group (0..) of every region of the job. */
    std::vector<std::uint32_t> regionGroup;
    /** The id of every group, as published. */
    QVector<QVariant> groupIds;
    /** How the ids are published: aggregate_id of the field's type. */
    QgsField idField;
    /** Small area id -> region id, sorted by small area, as the ledger compares aggregations. */
    vbas::AreaRegions areas;

    std::size_t groups() const { return std::size_t(groupIds.size()); }

    /**
     * The aggregation in the field `field` of the job's small areas. Throws, naming `parameter`, for a small
     * area without one (NULL).
     */
    static VbasGivenAggregation fromField(const VbasJob& job, int field, const QString& parameter,
                                          QgsProcessingFeedback* feedback);
    /**
     * The aggregation `areas` of an earlier release (`entry` names it in errors). Throws, naming `parameter`,
     * for a small area of the job that it leaves out.
     */
    static VbasGivenAggregation fromAreas(const VbasJob& job, const vbas::AreaRegions& areas,
                                          const QString& entry, const QString& parameter);
};

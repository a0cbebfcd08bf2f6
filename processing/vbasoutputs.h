#pragma once

#include "Pipeline.h"
#include "Sweep.h"
#include "geometry/Dissolve.h"
#include "vbasconvert.h"

#include <qgsfeature.h>
#include <qgsfields.h>

#include <QVector>

class QgsFeatureSink;
class QgsFeatureSource;
class QgsProcessingFeedback;

/** An engine result with what its outputs need besides it. */
struct VbasRelease
{
    vbas::PipelineResult result;
    std::vector<vbas::DissolvedAggregate> polygons; //!< per aggregate, planar
    std::vector<std::vector<unsigned char>> cells;  //!< per site, planar (empty: none, or not asked for)
    QgsField aggregateIdField;                      //!< how aggregates are named in every output
    QVector<QVariant> aggregateIds;                 //!< per aggregate

    /** Numbers aggregates 1..n in an integer field aggregate_id. */
    void numberAggregates();
    /** Returns the aggregate of `site`, -1 when the site received no region. */
    int siteAggregate(std::size_t site) const;
    /** Returns the id of the aggregate of `site`, NULL when the site received no region. */
    QVariant siteAggregateId(std::size_t site) const;
};

/**
 * Adds features to a sink, stopping promptly when the user cancels and failing with a message that
 * names the output when the sink refuses a feature. Counts what it wrote for the run's VbasOutputGuard
 * (by `outputName`, the output parameter), which reads the file back before it is released.
 */
class VbasSink
{
public:
    VbasSink(QgsFeatureSink& sink, const QString& outputName, QgsProcessingFeedback& feedback);
    void add(QgsFeature& feature);

private:
    QgsFeatureSink& mSink;
    QString mOutputName;
    QgsProcessingFeedback& mFeedback;
};

/**
 * Writes the outputs of a release. Geometries go back to the source CRS; the field layouts
 * (the *Fields() functions) are what the sinks must be created with.
 */
namespace VbasOutputs
{
/** Returns the numeric output of metric `id`: quality.average_distance gives AVERAGE_DISTANCE. */
QString metricOutputName(const std::string& id);

/** Aggregated regions: the dissolved member polygons with the per-aggregate figures of SPEC section 7. */
QgsFields aggregateFields(const VbasRelease& release);
/** Returns the attributes of aggregate `a` in the layout of aggregateFields(). */
QgsAttributes aggregateAttributes(const VbasRelease& release, std::size_t a, const vbas::Dataset& dataset,
                                  const VbasPlanarFrame& frame);
void writeAggregates(VbasSink& sink, const VbasRelease& release, const vbas::Dataset& dataset,
                     const VbasPlanarFrame& frame);

/** The small areas with every field of theirs plus the id of their aggregate. */
QgsFields mappingFields(const QgsFields& regionFields, const VbasRelease& release);
void writeMapping(VbasSink& sink, QgsFeatureSource& regions, const VbasJobData& data,
                  const VbasRelease& release);

/**
 * The records with every field of theirs, the region field holding the aggregate id instead, no
 * geometry; suppressed and dropped rows are left out, or with `flagFates` kept with an empty
 * region and their fate in vbas_fate.
 */
QgsFields recordFields(const QgsFields& fields, int regionField, const VbasRelease& release, bool flagFates);
void writeRecords(VbasSink& sink, QgsFeatureSource& records, int regionField, const VbasJobData& data,
                  const VbasRelease& release, bool flagFates);

/**
 * Sites as points: site_id, and with a release also aggregate_id (NULL for a site that got no
 * region) and regions (the number of small areas it got).
 */
QgsFields siteFields(const VbasRelease* release);
void writeSites(VbasSink& sink, const std::vector<vbas::Point>& sites, const VbasPlanarFrame& frame,
                const VbasRelease* release);

/** Voronoi cells clipped to the study area: site_id and aggregate_id. */
QgsFields cellFields(const VbasRelease& release);
void writeCells(VbasSink& sink, const VbasRelease& release, const VbasPlanarFrame& frame);
/**
 * The comparison of several releases: site_count_method, site_location, refinement, site_count,
 * aggregates, every metric (its output name in lower case) and pareto_optimal.
 */
QgsFields comparisonFields();
/** Returns the attributes of sweep row `row`, made with `config`, in the layout of comparisonFields(). */
QgsAttributes comparisonAttributes(const vbas::SweepRow& row, const vbas::PipelineConfig& config);
/** Writes a row per sweep row, `rowConfigs[r]` being the configuration of row r; returns the Pareto-optimal
 * rows. */
qlonglong writeComparison(VbasSink& sink, const std::vector<vbas::SweepRow>& rows,
                          const std::vector<const vbas::PipelineConfig*>& rowConfigs);
} // namespace VbasOutputs

#pragma once

#include "Pipeline.h"
#include "Sweep.h"
#include "geometry/Dissolve.h"
#include "vbascodedrows.h"
#include "vbasjobloader.h"
#include "vbaswrittencounts.h"

#include <qgsexception.h>
#include <qgsfeature.h>
#include <qgsfields.h>

#include <QVector>

class QgsFeatureSink;
class QgsFeatureSource;
class QgsProcessingFeedback;
class VbasRecordSink;

/** The engine's release with how its outputs name the aggregates. */
struct VbasRelease : vbas::ReleaseResult
{
    /** The engine's release with its aggregates numbered 1..n in an integer field aggregate_id. */
    explicit VbasRelease(vbas::ReleaseResult whole);

    QgsField aggregateIdField;      //!< how aggregates are named in every output
    QVector<QVariant> aggregateIds; //!< per aggregate

    /** Returns the aggregate of `site`, -1 when the site received no region. */
    int siteAggregate(std::size_t site) const;
    /** Returns the id of the aggregate of `site`, NULL when the site received no region. */
    QVariant siteAggregateId(std::size_t site) const;
    /** " (distinct 2-diversity)": the criteria besides k the release was held to, empty when none was. */
    QString criteriaNote() const;
};

/**
 * Adds features to a QGIS sink, or rows to a record sink (vbasrecordstreams.h), stopping promptly when the
 * user cancels and failing with a message that names the output when the sink refuses a feature. Counts what
 * it wrote into `counts` (by `outputName`, the output parameter), the run's output guard's, which reads the
 * file back before it is released; nullptr for a sink no guard checks (a layer in memory).
 */
class VbasSink
{
public:
    /** The sink of the output `outputName`, writing `destination` (the layer source QGIS gave it). */
    VbasSink(QgsFeatureSink& sink, const QString& outputName, QgsProcessingFeedback& feedback,
             VbasWrittenCounts* counts, const QString& destination = QString());
    /** A sink of rows without geometry: addRows() converts each value once; add() writes one row. */
    VbasSink(VbasRecordSink& records, const QString& outputName, QgsProcessingFeedback& feedback,
             VbasWrittenCounts* counts, const QString& destination = QString());
    void add(QgsFeature& feature);
    /**
     * Adds every row of `rows` in their order (into a QGIS sink as features with `fields`); progress as
     * expect() set it.
     */
    void addRows(const VbasCodedRows& rows, const QgsFields& fields);

    /**
     * Progress of the output from `from` (0..1) to its end over the `features` add() calls to come, so that a
     * long write moves the bar; before it, a writer may report its own preparation with setProgress().
     */
    void expect(qint64 features, double from = 0.0);
    /** Progress of the output so far (0..1), stopping promptly when the user cancels. */
    void setProgress(double fraction);
    /** Features written so far. */
    qint64 written() const { return mWritten; }

private:
    VbasSink(QgsFeatureSink* sink, VbasRecordSink* records, const QString& outputName,
             QgsProcessingFeedback& feedback, VbasWrittenCounts* counts, const QString& destination);
    /** The error of a feature the sink refused. */
    QgsProcessingException refused() const;
    /** Counts `features` more written, moving the bar. */
    void advance(qint64 features);

    QgsFeatureSink* mSink = nullptr;
    VbasRecordSink* mRecords = nullptr;
    QString mOutputName;
    QString mDestination;
    QgsProcessingFeedback& mFeedback;
    VbasWrittenCounts* mCounts = nullptr;
    qint64 mWritten = 0;
    qint64 mExpected = 0;
    qint64 mBase = 0; //!< features written when expect() was called
    double mFrom = 0.0;
};

/**
 * Writes the outputs of a release. Geometries go back to the source CRS; the field layouts
 * (the *Fields() functions) are what the sinks must be created with.
 */
namespace VbasOutputs
{
/**
 * Who an output is for (SPEC section 10). Published outputs carry no count below k of anything and no count
 * of withheld records; the custodian's review may see both and is marked not for publication.
 */
enum class Audience
{
    Publication,
    Review,
};

/**
 * Returns the fields that only review outputs carry (withheld counts, the anonymity before suppression, the
 * fate of withheld records): a layer holding one is for review only.
 */
QStringList reviewOnlyFields();

/** Returns the numeric output of metric `id`: quality.average_distance gives AVERAGE_DISTANCE. */
QString metricOutputName(const std::string& id);

/**
 * Aggregated regions: the dissolved member polygons with the per-aggregate figures of SPEC section 7; for
 * Audience::Review also the withheld records (suppressed_local, suppressed_global, suppressed_diversity,
 * suppressed_difference) and
 * the anonymity before suppression.
 */
QgsFields aggregateFields(const VbasRelease& release, Audience audience);
/**
 * Returns what a field of aggregateFields() holds, in words, for map titles and legends ("anonymity after
 * suppression (k)" for anonymity_after); any other name as it is.
 */
QString aggregateFieldInWords(const QString& field);
/** Returns the attributes of aggregate `a` in the layout of aggregateFields(). */
QgsAttributes aggregateAttributes(const VbasRelease& release, std::size_t a, const VbasPlanarFrame& frame,
                                  Audience audience);
void writeAggregates(VbasSink& sink, const VbasRelease& release, const VbasPlanarFrame& frame,
                     Audience audience);

/**
 * The small areas with their id and the id of their aggregate (last): the public geography of the release,
 * none of the other fields of REGIONS, which may hold counts of the very records released.
 */
QgsFields mappingFields(const QgsFields& regionFields, int regionIdField, const VbasRelease& release);
void writeMapping(VbasSink& sink, QgsFeatureSource& regions, int regionIdField, const VbasLoadedData& data,
                  const VbasRelease& release);

/** How the records output is laid out. */
struct RecordLayout
{
    VbasRecordFields roles;
    bool rowId = false;     //!< a fresh row_id first, numbered in the published order
    bool flagFates = false; //!< withheld rows kept, with an empty region and their fate in vbas_fate (review)

    /** Returns the level quasi-identifier `j` is released at (0: as it is). */
    std::size_t level(const VbasRelease& release, std::size_t j) const;
    /**
     * Returns the values quasi-identifier `j` is published as, one per group of its released level: at level
     * 0 the values as the job read them (`read`, VbasLoadedData::RecordValues::values[j]), else the labels of
     * the groups; NULL a null QVariant. A category code's group is the hierarchy's group() at level().
     */
    QVector<QVariant> releasedValues(const VbasRelease& release, std::size_t j,
                                     const QVector<QVariant>& read) const;
};

/**
 * The released records, no geometry: aggregate_id (the id of the record's region, as in the regions layer),
 * then the quasi-identifiers (a generalized one as text: its labels), the sensitive and the released fields,
 * and for a pre-aggregated input its count field; no other field. `fields` are those of RECORDS.
 */
QgsFields recordFields(const QgsFields& fields, const RecordLayout& layout, const VbasRelease& release);
/**
 * Writes the released records from the values the job read (VbasLoadedData::recordValues; RECORDS is not read
 * again) in a uniformly random order drawn from the operating system's randomness (never the user's seed),
 * so that the order of the input (sorted by small area, say) tells nothing. A pre-aggregated input is
 * published merged: one row per distinct published row with its summed count. `fields` are those of
 * RECORDS.
 */
void writeRecords(VbasSink& sink, const QgsFields& fields, const RecordLayout& layout,
                  const VbasLoadedData& data, const VbasRelease& release);

/**
 * Sites as points: site_id, weight (the power weight in square metres of the computation plane, 0
 * for a plain Voronoi site), and with a release also aggregate_id (NULL for a site that got no
 * region) and regions (the number of small areas it got).
 */
QgsFields siteFields(const VbasRelease* release);
void writeSites(VbasSink& sink, const vbas::Sites& sites, const VbasPlanarFrame& frame,
                const VbasRelease* release);

/** Voronoi cells clipped to the study area: site_id and aggregate_id. */
QgsFields cellFields(const VbasRelease& release);
void writeCells(VbasSink& sink, const VbasRelease& release, const VbasPlanarFrame& frame);
/**
 * Returns a line for the log saying which sites have no cell and why, so that every site has its cell or is
 * explained; empty when every site has one.
 */
QString sitesWithoutCell(const VbasRelease& release);
/**
 * The generalization levels of the quasi-identifiers that have a hierarchy, by name: "age 10, education *"
 * (level 0: as they are).
 */
QString generalizationLevels(const vbas::Hierarchies& hierarchies, const std::vector<std::size_t>& levels);
/**
 * The comparison of several releases: site_count_method, site_location, refinement, generalization (the
 * levels, NULL when nothing was generalized), site_count, aggregates, every metric (its output name in lower
 * case), attribute_loss and pareto_optimal.
 */
QgsFields comparisonFields();
/** Returns the attributes of every row of `comparison`, made by `configs`, in the layout of
 * comparisonFields(). */
QList<QgsAttributes> comparisonTable(const vbas::ComparisonResult& comparison,
                                     const std::vector<vbas::PipelineConfig>& configs);
/** Writes the rows of comparisonTable(). */
void writeComparison(VbasSink& sink, const QList<QgsAttributes>& table);
} // namespace VbasOutputs

#pragma once

#include "generalization/Hierarchy.h"
#include "vbasjob.h"
#include "vbasqgiscompat.h"

#include <QString>

namespace vbas
{
class Pipeline;
}

class QgsFeatureSource;
class QgsProcessingFeedback;
class VbasAlgorithm;
class VbasParameterReader;

/**
 * The parameters of the data an algorithm runs the engine on, regions and records: addTo() declares them
 * on an algorithm, loadJob() reads them (failing fast on bad ones) and loads the job through the io
 * readers (vbasjobloader.h).
 */
namespace VbasDataParameters
{
/** What the quasi-identifiers are to an algorithm. */
enum class QuasiIdentifiers
{
    Required, //!< a release protects records against anyone who knows them: at least one
    Optional, //!< a stage or estimate may run without them
    None,     //!< a population floor: none (the algorithm says so)
};

/**
 * Adds REGIONS, REGION_ID_FIELD, RECORDS, RECORD_REGION_FIELD, QUASI_IDENTIFIERS (as `quasiIdentifiers`
 * says), COUNT_FIELD, K, MAX_RISK, SENSITIVE_FIELDS, L, L_MEASURE, GLOBAL_SUPPRESSION,
 * REPRESENTATIVE_POINT, UNKNOWN_REGIONS, MAX_DROPPED, NULL_COUNT_AS_ZERO, GROUP_RECORDS and
 * COMPUTATION_CRS.
 */
void addTo(VbasAlgorithm& algorithm, QuasiIdentifiers quasiIdentifiers = QuasiIdentifiers::Required);
/** Adds GENERALIZATION and HIERARCHY_TABLES (both optional: without them nothing is generalized). */
void addGeneralizationTo(VbasAlgorithm& algorithm);

/** Adds K, the required anonymity: an integer ≥ 2, default 5. */
void addKTo(VbasAlgorithm& algorithm);
/**
 * Adds QUASI_IDENTIFIERS: fields of the layer parameter `parentLayerParameter`, at least one when
 * `required`.
 */
void addQuasiIdentifiersTo(VbasAlgorithm& algorithm, const QString& parentLayerParameter, bool required);
/** Adds COUNT_FIELD: an optional field of `parentLayerParameter` holding each row's record count. */
void addCountFieldTo(VbasAlgorithm& algorithm, const QString& parentLayerParameter);
/**
 * Adds SENSITIVE_FIELDS (fields of `parentLayerParameter`), L (0: off) and L_MEASURE (distinct or
 * entropy); `verifying` words the help for a check of a release rather than for making one.
 */
void addDiversityTo(VbasAlgorithm& algorithm, const QString& parentLayerParameter, bool verifying);

/**
 * Returns the generalization GENERALIZATION and HIERARCHY_TABLES give (read once, into the pipeline's
 * configuration), numeric quasi-identifiers banded automatically unless named; empty without them.
 */
vbas::Generalization readGeneralization(const VbasParameterReader& read, QgsProcessingFeedback* feedback);
/**
 * Reads the data parameters, failing fast on bad ones, and loads regions, records, obstacles and
 * parents through the engine funnel, reporting progress to `feedback` (a step of the algorithm's).
 */
VbasJob loadJob(const VbasParameterReader& read, QgsProcessingFeedback* feedback);

/**
 * Throws, naming `parameter`, unless `source` holds geometries of `type` (`typeName` in the
 * message: "polygons", "points"); scripts and models can pass any layer.
 */
void requireGeometryType(const QgsFeatureSource& source, const QString& parameter,
                         decltype(VbasCompat::GeometryPolygon) type, const QString& typeName);
} // namespace VbasDataParameters

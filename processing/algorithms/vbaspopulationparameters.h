#pragma once

#include "MapRelease.h"
#include "privacy/KMap.h"

class QgsProcessingFeedback;
class VbasAlgorithm;
class VbasParameterReader;
struct VbasJob;

/**
 * The people and cases of a release for maps: POPULATION_FIELD on the small areas, or a population table per
 * small area and age band (and sex), long (a row per area and band: POPULATION_TABLE_BAND_FIELD and
 * POPULATION_TABLE_COUNT_FIELD) or wide (a row per area, a field per band: POPULATION_TABLE_BAND_FIELDS); the
 * cases per small area from the job's records, or per stratum with CASE_AGE_FIELD (and CASE_SEX_FIELD).
 */
namespace VbasPopulationParameters
{
/**
 * Adds POPULATION_FIELD, POPULATION_TABLE, POPULATION_TABLE_AREA_FIELD, POPULATION_TABLE_BAND_FIELD,
 * POPULATION_TABLE_SEX_FIELD, POPULATION_TABLE_COUNT_FIELD, POPULATION_TABLE_BAND_FIELDS, CASE_AGE_FIELD and
 * CASE_SEX_FIELD; among the advanced settings when `advanced` (a release of records, which needs them only
 * for k-map).
 */
void addTo(VbasAlgorithm& algorithm, bool advanced = false);
/**
 * Fills the small areas' ids, people and cases of `inputs` from `job` (its dataset's small areas, in its
 * order) and the parameters; throws naming the parameter to fix.
 */
void read(const VbasParameterReader& read, const VbasJob& job, vbas::MapReleaseInputs& inputs);
/**
 * Adds K_COUNTS (what k counts, as the engine's registry declares it) and the parameters of addTo(), all
 * advanced: a release of records that may hold k against the population (k-map).
 */
void addKMapTo(VbasAlgorithm& algorithm);
/**
 * The population table k-map counts, read as read() reads it, its bands and sexes describing the
 * quasi-identifiers CASE_AGE_FIELD and CASE_SEX_FIELD name; throws naming the parameter to fix when a
 * quasi-identifier is neither.
 */
vbas::PopulationTable readKMapTable(const VbasParameterReader& read, const VbasJob& job);
} // namespace VbasPopulationParameters

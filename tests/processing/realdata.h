#pragma once

// The repository's real data (data/README.md) and checks of a release that use none of VBAS's code:
// group recounts, and areas measured with QGIS's own QgsDistanceArea on the original polygons.

#include "vbasjobloader.h"

#include <qgsvectorlayer.h>

#include <QStringList>
#include <QVariantMap>

#include <memory>

/** The Olinda demo patients (data/README.md). */
inline const QStringList kOlindaQuasiIdentifiers{"age_band", "sex", "married", "ethnicity"};
constexpr qint64 kOlindaPatients = 18897;

/** The two Olinda layers of the demo and the parameters of a release of them, every output to memory. */
struct OlindaInput
{
    std::unique_ptr<QgsVectorLayer> tracts;
    std::unique_ptr<QgsVectorLayer> patients;

    OlindaInput();
    /** Naive anonymity-based site count, so that there are tens of aggregates and some suppression. */
    QVariantMap parameters(const QStringList& quasiIdentifiers = kOlindaQuasiIdentifiers) const;
};

/**
 * The job data of `records` over the Olinda tracts (unknown tracts dropped); with `wholeLayer` the records
 * may be read through GDAL (Arrow stream, or grouped by the database as `fields.grouping` says), else only
 * through QGIS. `log` receives the info lines.
 */
VbasLoadedData loadOlindaJob(const OlindaInput& olinda, QgsVectorLayer& records,
                             const VbasRecordFields& fields, bool wholeLayer, QStringList& log);
/** The roles of the fields named so in `fields` (count empty: every row is one record). */
VbasRecordFields recordRoles(const QgsFields& fields, const QString& region,
                             const QStringList& quasiIdentifiers, const QStringList& sensitive,
                             const QString& count = QString());
/**
 * The records of a job per group of identical records (small area, quasi-identifier codes, sensitive
 * codes): the same map whether the records were read one per row or grouped by a database.
 */
std::map<std::vector<std::uint32_t>, vbas::Count> recordsPerGroup(const VbasLoadedData& data);

/** Opens `path` (relative to the repository's data/ folder), optionally one `layer` of it; fails the test
 * when invalid. */
std::unique_ptr<QgsVectorLayer> openData(const QString& path, const QString& layer = QString());

/** Returns `layer` as a Processing parameter value. */
QVariant asParameter(QgsVectorLayer* layer);

/** Group sizes of a table, recounted with a plain map: records per distinct combination of `keyFields`. */
struct Recount
{
    qint64 records = 0;
    qint64 groups = 0;
    qint64 smallestGroup = 0; //!< 0 for an empty table
};
Recount recountGroups(QgsVectorLayer& table, const QStringList& keyFields,
                      const QString& countField = QString());

/** Returns how many features of `layer` have each value of `field` (as text; NULL as "NULL"). */
QMap<QString, qint64> countByValue(QgsVectorLayer& layer, const QString& field);

/** Returns the sum of `field` over `layer`. */
double sumOf(QgsVectorLayer& layer, const QString& field);

/**
 * Checks that every aggregated polygon's area equals the sum of the areas of its member small areas
 * (less where two members overlap), measured independently: members from `mapping` (field
 * `regionIdField` and `mappingAggregateField`), areas of the original polygons of `regions` (made valid
 * first), with QgsDistanceArea (on the ellipsoid for a geographic CRS, planar for a projected one). Also
 * compares the area_m2 attribute within `attributeTolerance` (relative). Returns the number of
 * aggregates checked.
 */
int expectAreasMatchMembers(QgsVectorLayer& aggregates, QgsVectorLayer& mapping, QgsVectorLayer& regions,
                            const QString& regionIdField, double attributeTolerance,
                            const QString& mappingAggregateField = QStringLiteral("aggregate_id"));

/**
 * Returns the VERDICT of vbas:checkanonymity, the independent verifier, on `records`; `personField`, when
 * given, identifies the person of each row (a record id in a test's own table).
 */
QString checkAnonymity(QgsVectorLayer* records, const QString& regionField,
                       const QStringList& quasiIdentifiers, int k, const QString& countField = QString(),
                       const QString& personField = QString());

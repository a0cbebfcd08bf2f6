#include "vbasdataparameters.h"

#include "vbasstrategyparameters.h"

#include "Pipeline.h"
#include "generalization/HierarchyKinds.h"
#include "vbasalgorithm.h"
#include "vbaschoiceparameter.h"
#include "vbasparameterreader.h"

#include <qgsprocessingparameters.h>
#include <qgsvectordataprovider.h>
#include <qgsvectorlayer.h>

#include <QFile>
#include <QFileInfo>
#include <QHash>

#include <algorithm>

using namespace VbasParameters;

namespace
{
const QString kCentroid = QStringLiteral("centroid");
const QString kPointOnSurface = QStringLiteral("point_on_surface");
const QString kUnknownFail = QStringLiteral("fail");
const QString kUnknownDrop = QStringLiteral("drop");
const QString kGroupAutomatic = QStringLiteral("auto");
const QString kGroupDatabase = QStringLiteral("database");
const QString kGroupRows = QStringLiteral("rows");

/** The layer behind RECORDS, given whole or as a source definition (selected features, feature limit). */
const QgsVectorLayer* recordsLayer(const VbasParameterReader& read)
{
    const QVariant given = read.parameters().value(kRecords);
    if (given.userType() == qMetaTypeId<QgsProcessingFeatureSourceDefinition>())
    {
        // QGIS 3.22 finds no layer behind a source definition (selected features, a feature limit): its
        // source names it.
        const auto definition = given.value<QgsProcessingFeatureSourceDefinition>();
        return qobject_cast<const QgsVectorLayer*>(QgsProcessingUtils::mapLayerFromString(
            definition.source.valueAsString(read.context().expressionContext()), read.context()));
    }
    return read.asVectorLayer(kRecords);
}

/**
 * The layer behind RECORDS when QGIS reads it whole (no selected features only, no feature limit), for
 * reading it through GDAL's Arrow stream; nullptr otherwise.
 */
const QgsVectorLayer* wholeRecordsLayer(const VbasParameterReader& read)
{
    const QVariant given = read.parameters().value(kRecords);
    if (given.userType() == qMetaTypeId<QgsProcessingFeatureSourceDefinition>())
    {
        const auto definition = given.value<QgsProcessingFeatureSourceDefinition>();
        if (definition.selectedFeaturesOnly || definition.featureLimit >= 0)
            return nullptr;
    }
    return recordsLayer(read);
}

/** Returns the text of every HIERARCHY_TABLES file by the field its name names. */
std::map<std::string, std::string> hierarchyTables(const VbasParameterReader& read)
{
    std::map<std::string, std::string> tables;
    if (!read.has(kHierarchyTables))
        return tables;
    for (const QString& path : read.asFileList(kHierarchyTables))
    {
        if (path.isEmpty())
            continue; // QGIS 3.22 gives one empty path for an unset parameter
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            throw parameterError(kHierarchyTables,
                                 QObject::tr("cannot read '%1': %2").arg(path, file.errorString()));
        const std::string field = QFileInfo(path).completeBaseName().toStdString();
        if (!tables.emplace(field, file.readAll().toStdString()).second)
            throw parameterError(kHierarchyTables,
                                 QObject::tr("two tables are named '%1'; give one table per field")
                                     .arg(QString::fromStdString(field)));
    }
    return tables;
}

/**
 * Refuses a field given two roles (region, count, quasi-identifier, sensitive, released) and a data
 * provider's key given to be published; logs the fields that are not published.
 */
void checkRoles(const VbasParameterReader& read, const VbasJob& job, QgsProcessingFeedback* feedback)
{
    const VbasRecordFields& roles = job.recordFields;
    const QgsFields& fields = job.records->fields();
    // Each field has one role: a field listed under two would be published by one and coarsened by the other.
    QHash<int, QString> roleOf{{roles.region, kRecordRegionField}};
    if (roles.count >= 0)
        roleOf.insert(roles.count, kParameterCountField);
    if (roles.recordId >= 0)
    {
        if (roles.count >= 0)
            throw parameterError(kRecordIdField,
                                 QObject::tr("a row of a table with counts (COUNT_FIELD) stands for several "
                                             "records, which have no one id; leave RECORD_ID_FIELD empty"));
        if (roleOf.contains(roles.recordId))
            throw parameterError(kRecordIdField,
                                 QObject::tr("'%1' is also given as %2; give each field one role")
                                     .arg(fields.at(roles.recordId).name(), roleOf.value(roles.recordId)));
        roleOf.insert(roles.recordId, kRecordIdField);
    }
    const std::pair<const QString&, const QList<int>&> lists[] = {
        {kParameterQuasiIdentifiers, roles.quasiIdentifiers},
        {kSensitiveFields, roles.sensitive},
        {kReleaseFields, roles.released}};
    for (const auto& [parameter, list] : lists)
    {
        for (const int field : list)
        {
            if (roleOf.contains(field))
                throw parameterError(parameter,
                                     QObject::tr("'%1' is also given as %2; give each field one role")
                                         .arg(fields.at(field).name(), roleOf.value(field)));
            roleOf.insert(field, parameter);
        }
    }
    // A key the data provider gives each row (a GeoPackage fid, a primary key) tells the row: never
    // published.
    if (const QgsVectorLayer* layer = read.asVectorLayer(kRecords); layer && layer->dataProvider())
    {
        for (const int key : layer->dataProvider()->pkAttributeIndexes())
        {
            const QString parameter = roleOf.value(key);
            if (parameter == kSensitiveFields || parameter == kReleaseFields)
                throw parameterError(
                    parameter,
                    QObject::tr("'%1' is the key the data source gives each row; keys tell the rows "
                                "apart and are never published: remove it from %2")
                        .arg(fields.at(key).name(), parameter));
        }
    }
    if (!read.has(kReleaseFields) || !feedback)
        return;
    QStringList unpublished;
    for (int i = 0; i < fields.count(); ++i)
        if (!roleOf.contains(i))
            unpublished << fields.at(i).name();
    if (!unpublished.isEmpty())
        feedback->pushInfo(QObject::tr("Not published (no role; give them as RELEASE_FIELDS or "
                                       "SENSITIVE_FIELDS to publish them): %1")
                               .arg(unpublished.join(QStringLiteral(", "))));
}

} // namespace

void VbasDataParameters::addTo(VbasAlgorithm& algorithm, QuasiIdentifiers quasiIdentifiers)
{
    algorithm.addParameter(vbasWithHelp(
        new QgsProcessingParameterFeatureSource(kRegions, QObject::tr("Small areas"),
                                                {static_cast<int>(VbasCompat::SourceTypeVectorPolygon)}),
        QObject::tr("The polygons of the small areas the records are coded by: census tracts, postal areas, "
                    "municipalities. Any CRS: a geographic one is projected for the computation, and the "
                    "results come back in it.")));
    // Field parameters start empty (the widget would offer a layer's first field, which is rarely the
    // right one): the user chooses, and the join check says when two fields do not correspond.
    algorithm.addParameter(
        vbasWithHelp(new QgsProcessingParameterField(kRegionIdField, QObject::tr("Small area id field"),
                                                     QStringLiteral(""), kRegions),
                     QObject::tr("The field of the small areas that holds their id, e.g. a tract code "
                                 "such as 260960005000213; the records name their small area by it.")));
    auto* records = new QgsProcessingParameterFeatureSource(kRecords, QObject::tr("Records"),
                                                            {static_cast<int>(VbasCompat::SourceTypeVector)});
    // Records of people are a table or points, but a table is no geometry type: in the dialog, the QGIS
    // plugin's wrapper keeps the input off the small areas (polygons), where QGIS would start it when they
    // are the active layer. A population floor's records are the small areas themselves.
    if (quasiIdentifiers != QuasiIdentifiers::None)
        records->setMetadata({{QStringLiteral("widget_wrapper"),
                               QVariantMap{{QStringLiteral("class"),
                                            QStringLiteral("vbas_processing.records_input.RecordsInput")}}}});
    algorithm.addParameter(vbasWithHelp(
        records,
        QObject::tr("The records to release, one row each (a case list, a patient table): any table QGIS "
                    "reads, a CSV, a GeoPackage, a PostgreSQL table. Their geometries are never used.")));
    algorithm.addParameter(vbasWithHelp(
        new QgsProcessingParameterField(kRecordRegionField, QObject::tr("Small area of each record"),
                                        QStringLiteral(""), kRecords),
        QObject::tr("The field of the records that names each record's small area, with the same values as "
                    "the small area id field (compared as text), e.g. 'tract'.")));
    if (quasiIdentifiers != QuasiIdentifiers::None)
        addQuasiIdentifiersTo(algorithm, kRecords, quasiIdentifiers == QuasiIdentifiers::Required);
    addCountFieldTo(algorithm, kRecords);
    addKTo(algorithm);
    algorithm.addParameter(VbasCompat::advanced(vbasWithHelp(
        new QgsProcessingParameterNumber(kMaxRisk, QObject::tr("Highest re-identification risk (0: use k)"),
                                         VbasCompat::NumberTypeDouble, 0.0, true, 0.0, 0.5),
        QObject::tr(
            "The policy form of k: the highest chance of re-identifying a released record, e.g. 0.2 for "
            "1 in 5. When set, k = ceil(1 / risk) replaces K: 0.2 gives k = 5, 0.09 gives k = 12; the "
            "log and the report show both."))));
    if (quasiIdentifiers != QuasiIdentifiers::None)
        addDiversityTo(algorithm, kRecords, false);
    algorithm.addParameter(VbasCompat::advanced(vbasWithHelp(
        new QgsProcessingParameterBoolean(
            kGlobalSuppression, QObject::tr("Withhold records rare in the whole table first"), true),
        QObject::tr("Withholds, before merging, the records whose quasi-identifier values occur "
                    "fewer than k times in the whole table: no region could hide them."))));
    algorithm.addParameter(VbasCompat::advanced(vbasWordChoice(
        kRepresentativePoint, QObject::tr("Representative point of a small area"),
        {kCentroid, kPointOnSurface}, kCentroid,
        QObject::tr(
            "centroid: the centre of mass (may fall outside concave areas); point_on_surface: a point always "
            "inside the area. Areas join the site nearest this point."))));
    algorithm.addParameter(VbasCompat::advanced(vbasWordChoice(
        kUnknownRegions, QObject::tr("Records naming unknown small areas"), {kUnknownFail, kUnknownDrop},
        kUnknownFail,
        QObject::tr("Fail: stop and name the first unknown id. Drop: leave those records out of the release "
                    "(counted in the log and the report), at most MAX_DROPPED percent of them."))));
    algorithm.addParameter(VbasCompat::advanced(vbasWithHelp(
        new QgsProcessingParameterNumber(kMaxDropped,
                                         QObject::tr("Most records to drop for unknown small areas (%)"),
                                         VbasCompat::NumberTypeDouble, 1.0, true, 0.0, 100.0),
        QObject::tr(
            "With UNKNOWN_REGIONS = drop: the run stops instead when more than this share of the "
            "records name small areas that do not exist, e.g. 1 (%). Many unknown ids mean the two id "
            "fields do not correspond, and dropping them would release the wrong records."))));
    // Optional, like every parameter added after the first release: a saved model without it stays valid
    // (QGIS 3.22 refuses a model whose step lacks a mandatory parameter, default or not).
    algorithm.addParameter(VbasCompat::advanced(vbasWithHelp(
        new QgsProcessingParameterBoolean(kNullCountAsZero, QObject::tr("Read NULL counts as 0 (no records)"),
                                          false, true),
        QObject::tr("With COUNT_FIELD: a row whose count is NULL is refused (how many records it holds is "
                    "unknown); checked, it is read as 0 and holds no records, and the log says how many rows "
                    "were. Rows of count 0 always hold no records."))));
    algorithm.addParameter(VbasCompat::advanced(vbasWordChoice(
        kGroupRecords, QObject::tr("Where the records are counted"),
        {kGroupAutomatic, kGroupDatabase, kGroupRows}, kGroupAutomatic,
        QObject::tr(
            "auto: a PostgreSQL/PostGIS table streams the small area and the fields the release reads (COPY, "
            "the layer's filter applies) and identical records are counted as they come (35 M records over "
            "56 k areas: 12 s; PostgreSQL's own GROUP BY of them took 58 s); a SpatiaLite table is grouped "
            "by "
            "its database (GROUP BY with COUNT(*)); files are read row by row, which GDAL does faster than "
            "SQLite groups them (2.85 M records of a GeoPackage: 1.2 s read, 4.1 s grouped). database: group "
            "in the database whenever the records are in PostgreSQL, SpatiaLite, a GeoPackage or an SQLite "
            "file, so that only counts travel: for a server far away over a slow network. rows: read every "
            "row through QGIS or GDAL. The release is the same, with COUNT_FIELD too (identical rows, counts "
            "included, are grouped alike)."),
        true)));
    algorithm.addParameter(VbasCompat::advanced(vbasWithHelp(
        new QgsProcessingParameterCrs(kComputationCrs, QObject::tr("Computation CRS (projected, in metres)"),
                                      QVariant(), true),
        QObject::tr("the plane distances, nearest sites and areas are computed in. Empty: the CRS of REGIONS "
                    "when it is projected, else an azimuthal equidistant projection centred on the small "
                    "areas. The log warns when that plane distorts areas or distances by more than 1 % over "
                    "the data (a country or a continent in a geographic CRS): then choose a projected CRS in "
                    "metres made for the area, an equal-area or conformal projection of it."))));
}

void VbasDataParameters::addGeneralizationTo(VbasAlgorithm& algorithm)
{
    // One line per registered kind. QGIS shows the help as HTML in the tooltip: no '<' in it, which would
    // start a tag and hide the rest.
    QStringList kinds;
    for (const vbas::HierarchyKind& kind : vbas::hierarchyKinds())
        kinds << QString::fromUtf8(kind.help) + QLatin1Char('.');
    auto* generalization = new QgsProcessingParameterString(
        kGeneralization, QObject::tr("Generalize quasi-identifiers (hierarchies)"), QVariant(), true, true);
    algorithm.addParameter(vbasWithHelp(
        generalization,
        QObject::tr(
            "Coarser values for the quasi-identifiers, searched together with the geography: the release "
            "uses the levels that give the most regions within the suppression budget (SUPPRESSION_BUDGET), "
            "and of those the least attribute loss.\n"
            "Left empty, numeric quasi-identifiers (integer or real fields, or text holding only numbers) "
            "are banded automatically ('auto' below; the log shows the bands chosen), and the others stay "
            "as they are. No quasi-identifier is removed (all its values '*') unless its line allows it.\n"
            "One line (or ';'-separated part) per quasi-identifier, 'field: kind arguments', optionally "
            "ending in 'max LEVEL':\n%1\n"
            "none: the values as they are ('age: none' keeps exact ages).\n"
            "'max LEVEL' keeps at least that detail ('age: interval 5 10 20 max 10': bands of 5 or 10 "
            "years); levels are named as written (5, month, 3) or numbered (0: as they are). 'max *' allows "
            "removing the quasi-identifier where that gives more regions ('age: auto max *'). Without 'max', "
            "every level below removal may be used; when the budget cannot be met without removing one, the "
            "log says which one, why, and what else to do.\n"
            "Examples: 'age: auto max 10'; 'age: interval 5 10 20 bottom 20 top 85'; 'onset: date week "
            "month'; 'icd: prefix 3 1'; 'education: table' (education.csv in HIERARCHY_TABLES); 'age: none'. "
            "The released records carry the labels ('30-34', '85+', '2004-W21', 'J45'); the report lists "
            "every combination tried.")
            .arg(kinds.join(QLatin1Char('\n')))));
    algorithm.addParameter(VbasCompat::advanced(vbasWithHelp(
        new QgsProcessingParameterMultipleLayers(kHierarchyTables,
                                                 QObject::tr("Hierarchy tables (ARX CSV, one per field)"),
                                                 VbasCompat::SourceTypeFile, QVariant(), true),
        QObject::tr(
            "CSV files in ARX's format, one line per value: value;level 1;level 2;... Each file's name "
            "names its quasi-identifier (education.csv for 'education'); a table makes that field "
            "'field: table' unless GENERALIZATION says otherwise."))));
}

void VbasDataParameters::requireGeometryType(const QgsFeatureSource& source, const QString& parameter,
                                             decltype(VbasCompat::GeometryPolygon) type,
                                             const QString& typeName)
{
    if (QgsWkbTypes::geometryType(source.wkbType()) == type)
        return;
    const QString held =
        source.wkbType() == VbasCompat::WkbNoGeometry
            ? QObject::tr("the layer is a table without geometries")
            : QObject::tr("the layer holds %1 geometries").arg(QgsWkbTypes::displayString(source.wkbType()));
    throw parameterError(parameter,
                         QObject::tr("%1, but it must hold %2; choose a layer of %2").arg(held, typeName));
}

VbasJob VbasDataParameters::loadJob(const VbasParameterReader& read, QgsProcessingFeedback* feedback)
{
    VbasJob job;
    job.regions = read.source(kRegions);
    requireGeometryType(*job.regions, kRegions, VbasCompat::GeometryPolygon, QObject::tr("polygons"));
    job.regionIdField = read.fieldIndex(kRegionIdField, job.regions->fields());
    job.records = read.source(kRecords);
    const QgsFields& fields = job.records->fields();
    job.recordFields.region = read.fieldIndex(kRecordRegionField, fields);
    if (read.has(kParameterQuasiIdentifiers))
        job.recordFields.quasiIdentifiers = read.fieldIndices(kParameterQuasiIdentifiers, fields);
    job.recordFields.count = read.fieldIndex(kParameterCountField, fields);
    job.recordFields.nullCountAsZero = read.has(kNullCountAsZero) && read.asBoolean(kNullCountAsZero);
    const QString grouping = read.choiceId(kGroupRecords);
    job.recordFields.grouping = grouping == kGroupRows       ? VbasGrouping::Rows
                                : grouping == kGroupDatabase ? VbasGrouping::Database
                                                             : VbasGrouping::Automatic;
    if (read.has(kSensitiveFields))
        job.recordFields.sensitive = read.fieldIndices(kSensitiveFields, fields);
    if (read.has(kReleaseFields))
        job.recordFields.released = read.fieldIndices(kReleaseFields, fields);
    if (read.has(kRecordIdField))
        job.recordFields.recordId = read.fieldIndex(kRecordIdField, fields);
    // The configuration already said in the log which k a MAX_RISK gives.
    job.recordFields.k = read.requiredK();
    job.recordFields.emptyTextIsNull = vbasIsCsvFile(recordsLayer(read));
    checkRoles(read, job, feedback);
    const vbas::RepresentativePoint point = read.choiceId(kRepresentativePoint) == kPointOnSurface
                                                ? vbas::RepresentativePoint::PointOnSurface
                                                : vbas::RepresentativePoint::Centroid;
    vbas::DatasetOptions options;
    if (read.choiceId(kUnknownRegions) == kUnknownDrop)
        options.unknownRegions = vbas::UnknownRegionPolicy::Drop;
    options.maxDroppedShare = read.asDouble(kMaxDropped) / 100.0;

    const QgsCoordinateReferenceSystem computationCrs = read.asCrs(kComputationCrs);
    const QVariant givenCrs = read.parameters().value(kComputationCrs);
    if (!computationCrs.isValid() && givenCrs.isValid() && !givenCrs.isNull() &&
        !(givenCrs.canConvert<QString>() && givenCrs.toString().trimmed().isEmpty()))
        throw parameterError(kComputationCrs,
                             QObject::tr("'%1' is no CRS QGIS knows; give a projected CRS in metres (an "
                                         "authority code such as EPSG:3338), or leave it empty to let VBAS "
                                         "choose")
                                 .arg(givenCrs.toString()));
    job.frame.emplace(*job.regions, read.context().transformContext(), computationCrs);
    feedback->pushInfo(job.frame->description());
    if (const QString warning = job.frame->distortionWarning(); !warning.isEmpty())
        feedback->pushWarning(warning);
    job.recordsLayer = wholeRecordsLayer(read);
    job.data = read.runEngine(feedback,
                              [&](vbas::Feedback& engineFeedback)
                              {
                                  return loadJobData(*job.regions, job.regionIdField, *job.frame, point,
                                                     *job.records, job.recordsLayer, job.recordFields,
                                                     options, engineFeedback);
                              });
    if (read.has(kPartition))
    {
        const QList<QgsMapLayer*> obstacles = read.asLayerList(kObstacles);
        const int parentField = read.fieldIndex(kParentField, job.regions->fields());
        job.spatial = read.runEngine(feedback,
                                     [&](vbas::Feedback& engineFeedback) {
                                         return vbasLoadSpatial(obstacles, *job.regions, parentField,
                                                                job.data, *job.frame, engineFeedback);
                                     });
    }
    return job;
}

vbas::Generalization VbasDataParameters::readGeneralization(const VbasParameterReader& read,
                                                            QgsProcessingFeedback* feedback)
{
    if (!read.has(kGeneralization))
        return {};
    return read.runEngine(feedback,
                          [&](vbas::Feedback&)
                          {
                              return vbas::Generalization::parse(read.asString(kGeneralization).toStdString(),
                                                                 hierarchyTables(read), true);
                          });
}

void VbasDataParameters::addKTo(VbasAlgorithm& algorithm)
{
    auto* k = new QgsProcessingParameterNumber(kParameterK, QObject::tr("Smallest group k"),
                                               VbasCompat::NumberTypeInteger, 5, false, 2);
    k->setHelp(
        QObject::tr("Every group of released records that look alike (the same region and the same "
                    "values of every quasi-identifier) holds at least this many records, so that anyone "
                    "who knows a person's values finds at least k records that could be theirs: 5 is "
                    "common, 10 or more for rare conditions."));
    algorithm.addParameter(k);
}

void VbasDataParameters::addQuasiIdentifiersTo(VbasAlgorithm& algorithm, const QString& parentLayerParameter,
                                               bool required)
{
    auto* quasiIdentifiers = new QgsProcessingParameterField(
        kParameterQuasiIdentifiers, QObject::tr("Quasi-identifiers (what an attacker may know)"), QVariant(),
        parentLayerParameter, VbasCompat::FieldTypeAny, true, !required);
    quasiIdentifiers->setHelp(QObject::tr(
        "The fields someone could know about a person from elsewhere, e.g. age, sex, marital status: in "
        "every "
        "released region each combination of their values is shared by at least k records. Numbers such as "
        "age may be released in bands (see the generalization)."));
    algorithm.addParameter(quasiIdentifiers);
}

void VbasDataParameters::addCountFieldTo(VbasAlgorithm& algorithm, const QString& parentLayerParameter)
{
    auto* count =
        new QgsProcessingParameterField(kParameterCountField, QObject::tr("Records per row"), QVariant(),
                                        parentLayerParameter, VbasCompat::FieldTypeAny, false, true);
    count->setHelp(
        QObject::tr("Empty when every row is one record. For a table of counts (one row per small "
                    "area and combination of values, e.g. from GROUP BY), the field holding how many "
                    "records each row stands for, e.g. 'cases'."));
    algorithm.addParameter(count);
}

void VbasDataParameters::addDiversityTo(VbasAlgorithm& algorithm, const QString& parentLayerParameter,
                                        bool verifying)
{
    auto* sensitive = new QgsProcessingParameterField(
        kParameterSensitiveFields, QObject::tr("Sensitive fields (published, varied in every group)"),
        QVariant(), parentLayerParameter, VbasCompat::FieldTypeAny, true, true);
    sensitive->setHelp(
        verifying ? QObject::tr(
                        "Fields whose values every group must vary in when L or T is set (a diagnosis, say).")
                  : QObject::tr(
                        "Fields published as they are but protected by l-diversity (L) or t-closeness (T) "
                        "when set (a diagnosis, say): every released group must hold varied values of each. "
                        "Fields with no role (neither quasi-identifier, sensitive nor released) are not "
                        "published."));
    algorithm.addParameter(sensitive);
    // L, L_MEASURE, T...: what each registered criterion declares.
    VbasStrategyParameters::addCriteriaTo(algorithm);
}

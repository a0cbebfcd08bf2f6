#include "vbasjobloader.h"

#include "data/CategoryCoding.h"
#include "data/CodesByValueId.h"
#include "data/IdentifyingValues.h"
#include "data/RecordCount.h"
#include "vbasparameters.h"
#include "vbasqgiscompat.h"

#include <qgscurvepolygon.h>
#include <qgsexception.h>
#include <qgsfeatureiterator.h>
#include <qgsfeaturesource.h>
#include <qgsgeometrycollection.h>
#include <qgsmultipolygon.h>
#include <qgspoint.h>
#include <qgspolygon.h>
#include <qgsprocessingutils.h>
#include <qgsvectordataprovider.h>
#include <qgsvectorlayer.h>
#include <qgswkbtypes.h>

#include <QElapsedTimer>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>

namespace
{
/** The region key of a record whose region is NULL: beyond every key, so the Dataset reports it as unknown.
 */
constexpr std::uint32_t kNullRegionKey = std::numeric_limits<std::uint32_t>::max();
/** How many ids or values a message lists before "...". */
constexpr int kListed = 5;

/** Returns the first kListed of `texts`, quoted and joined, with the number of the others. */
QString listed(const QStringList& texts)
{
    QStringList shown;
    for (int i = 0; i < kListed && i < texts.size(); ++i)
        shown << QStringLiteral("'%1'").arg(texts.at(i));
    QString joined = shown.join(QStringLiteral(", "));
    if (texts.size() > kListed)
        joined += QObject::tr(" and %1 more").arg(texts.size() - kListed);
    return joined;
}

/** Reports the progress of a feature loop over `source` and stops it promptly on cancel. */
class FeatureLoop
{
public:
    /** Over `features` features (-1: unknown; then the bar stays, cancel still works). */
    FeatureLoop(long features, vbas::Feedback& feedback)
        : mFeedback(feedback)
        , mStep(features > 0 ? 1.0 / double(features) : 0.0)
    {
    }
    void next()
    {
        mFeedback.checkCanceled();
        mFeedback.setProgress(mStep * double(mDone++));
    }

private:
    vbas::Feedback& mFeedback;
    double mStep;
    std::size_t mDone = 0;
};

/**
 * Returns a region geometry of a curved type (CurvePolygon, MultiSurface, with arcs or not) as polygons,
 * arcs cut into straight segments of at most 1 degree of arc: the engine reads linear geometries only.
 * (QgsGeometry::convertToStraightSegment() keeps a MultiSurface without arcs as it is.)
 */
QgsGeometry linearized(const QgsGeometry& geometry)
{
    const QgsAbstractGeometry* curved = geometry.constGet();
    if (const auto* polygon = qgsgeometry_cast<const QgsCurvePolygon*>(curved))
        return QgsGeometry(polygon->toPolygon());
    if (const auto* collection = qgsgeometry_cast<const QgsGeometryCollection*>(curved))
    {
        auto polygons = std::make_unique<QgsMultiPolygon>();
        for (int i = 0; i < collection->numGeometries(); ++i)
            if (const auto* part = qgsgeometry_cast<const QgsCurvePolygon*>(collection->geometryN(i)))
                polygons->addGeometry(part->toPolygon());
        return QgsGeometry(std::move(polygons));
    }
    QgsGeometry straight = geometry;
    straight.convertToStraightSegment();
    return straight;
}

/**
 * Reads the regions with a polygon into `data`; the ids of those without one (NULL or empty geometry) go to
 * `withoutGeometry`, to be left out or refused once the records are known. Curved geometries are cut into
 * straight segments (at most 1 degree of arc each): the engine reads linear geometries only.
 */
std::vector<vbas::RegionInput> loadRegions(QgsFeatureSource& source, int idField,
                                           const VbasPlanarFrame& frame, vbas::RepresentativePoint pointMode,
                                           VbasLoadedData& data, QStringList& withoutGeometry,
                                           vbas::Feedback& feedback)
{
    const VbasPlanarReader reader(frame, source, VbasParameters::kRegions);
    data.geometries = std::make_unique<vbas::RegionGeometries>();
    std::vector<vbas::RegionInput> regions;
    FeatureLoop loop(source.featureCount(), feedback);
    QgsFeatureIterator features =
        source.getFeatures(QgsFeatureRequest().setSubsetOfAttributes(QgsAttributeList{idField}));
    QgsFeature feature;
    std::size_t curved = 0;
    while (features.nextFeature(feature))
    {
        loop.next();
        const QVariant id = feature.attribute(idField);
        if (VbasCompat::isNull(id))
            throw VbasParameters::parameterError(
                VbasParameters::kRegionIdField,
                QObject::tr("feature %1 of REGIONS has no id (NULL); every region needs a unique id: fill "
                            "it in or choose another field")
                    .arg(feature.id()));
        const std::string idText = vbasKeyText(id).toStdString();
        if (feature.geometry().isEmpty()) // NULL geometries too
        {
            withoutGeometry << vbasKeyText(id);
            continue;
        }
        if (QgsWkbTypes::isCurvedType(feature.geometry().wkbType()))
        {
            feature.setGeometry(linearized(feature.geometry()));
            ++curved;
        }
        const QgsGeometry geometry = reader.planarGeometry(feature);
        const QByteArray wkb = geometry.asWkb();
        data.geometries->addWkb(reinterpret_cast<const unsigned char*>(wkb.constData()),
                                std::size_t(wkb.size()), idText);
        regions.push_back({idText, {}});
        data.regionFeatures.push_back(feature.id());
    }
    for (std::size_t i = 0; i < regions.size(); ++i)
        regions[i].point = data.geometries->representativePoint(i, pointMode);
    if (data.geometries->repairedCount() > 0)
        feedback.warning(std::to_string(data.geometries->repairedCount()) +
                         " invalid region polygons were repaired before use (the inputs are unchanged)");
    if (curved > 0)
        feedback.info(QObject::tr("%1 region geometries of a curved type (CurvePolygon, MultiSurface) were "
                                  "read as polygons, arcs cut into straight segments of at most 1 degree of "
                                  "arc (the inputs are unchanged)")
                          .arg(curved)
                          .toStdString());
    return regions;
}

/**
 * Leaves out, with a warning, the regions without geometry that no record names; refuses those that hold
 * records (their records would otherwise count as naming unknown regions), and ids used twice.
 */
void checkRegionsWithoutGeometry(const QStringList& withoutGeometry,
                                 const std::vector<vbas::RegionInput>& kept, const vbas::RecordTable& table,
                                 vbas::Feedback& feedback)
{
    if (withoutGeometry.isEmpty())
        return;
    QHash<QString, int> leftOut;
    for (int i = 0; i < withoutGeometry.size(); ++i)
    {
        if (leftOut.contains(withoutGeometry.at(i)))
            throw VbasParameters::parameterError(
                VbasParameters::kRegions,
                QObject::tr("the id '%1' is used by two regions without geometry; region ids must be unique: "
                            "pick a unique id field or remove the duplicates first")
                    .arg(withoutGeometry.at(i)));
        leftOut.insert(withoutGeometry.at(i), i);
    }
    for (const vbas::RegionInput& region : kept)
        if (leftOut.contains(QString::fromStdString(region.id)))
            throw VbasParameters::parameterError(
                VbasParameters::kRegions,
                QObject::tr("the id '%1' is used by a region with a polygon and by one without geometry; "
                            "region ids must be unique: pick a unique id field or remove the duplicates "
                            "first")
                    .arg(QString::fromStdString(region.id)));
    std::vector<int> keyLeftOut(table.regionKeys.size(), -1);
    for (std::size_t key = 0; key < table.regionKeys.size(); ++key)
        keyLeftOut[key] = leftOut.value(QString::fromStdString(table.regionKeys[key]), -1);
    std::vector<vbas::Count> held(std::size_t(withoutGeometry.size()), 0);
    for (std::size_t row = 0; row < table.rows(); ++row)
    {
        const std::uint32_t key = table.regionKey[row];
        if (key < keyLeftOut.size() && keyLeftOut[key] >= 0)
            held[std::size_t(keyLeftOut[key])] += table.counts.empty() ? 1 : vbas::Count(table.counts[row]);
    }
    int holding = 0;
    int first = -1;
    for (int i = 0; i < withoutGeometry.size(); ++i)
        if (held[std::size_t(i)] > 0 && holding++ == 0)
            first = i;
    if (holding > 0)
        throw VbasParameters::parameterError(
            VbasParameters::kRegions,
            QObject::tr("%1 region(s) without geometry (NULL or empty) hold records (first: '%2', %3 "
                        "record(s)), which cannot be placed; give those regions their polygons, or remove "
                        "their records from RECORDS")
                .arg(holding)
                .arg(withoutGeometry.at(first))
                .arg(held[std::size_t(first)]));
    feedback.warning(
        QObject::tr("%1 region(s) have no geometry (NULL or empty) and no records; they are left "
                    "out of the release and the mapping: %2")
            .arg(withoutGeometry.size())
            .arg(listed(withoutGeometry))
            .toStdString());
}

/** The values of every field of `source` that holds a different one in each feature (an id), by name. */
QHash<QString, QSet<QString>> idFields(const QgsFeatureSource& source)
{
    QHash<QString, QSet<QString>> values;
    QgsFeatureRequest request;
    request.setFlags(VbasCompat::RequestNoGeometry);
    QgsFeatureIterator features = source.getFeatures(request);
    QgsFeature feature;
    const QgsFields fields = source.fields();
    QSet<QString> repeated;
    while (features.nextFeature(feature))
        for (int f = 0; f < fields.count(); ++f)
        {
            QSet<QString>& seen = values[fields.at(f).name()];
            const QVariant value = feature.attribute(f);
            if (VbasCompat::isNull(value) || !seen.contains(vbasKeyText(value)))
                seen.insert(VbasCompat::isNull(value) ? QString() : vbasKeyText(value));
            else
                repeated.insert(fields.at(f).name());
        }
    for (const QString& name : std::as_const(repeated))
        values.remove(name);
    return values;
}

/**
 * The pair of fields (small areas, records) whose values match best, when it matches at least nine in ten of
 * a sample of the records, as "REGION_ID_FIELD=... and RECORD_REGION_FIELD=..." advice; else empty. Read only
 * when the fields given do not correspond, so that the advice is checked on the data, never a guess. A small
 * area id is one per area, and a records' small area field repeats (many records per area): a record field
 * with a value of its own in every sampled record is a record id, whatever it happens to match.
 */
QString correspondingFields(const QgsFeatureSource& regions, const QgsFeatureSource& records)
{
    constexpr long kSample = 5000;
    const QHash<QString, QSet<QString>> areaIds = idFields(regions);
    QgsFeatureRequest request;
    request.setFlags(VbasCompat::RequestNoGeometry).setLimit(kSample);
    QgsFeatureIterator features = records.getFeatures(request);
    QgsFeature feature;
    const QgsFields recordFields = records.fields();
    QHash<QString, int> matches; // "area field\nrecord field" -> records matched
    std::vector<QSet<QString>> seen(std::size_t(recordFields.count()));
    int sampled = 0;
    while (features.nextFeature(feature))
    {
        ++sampled;
        for (int f = 0; f < recordFields.count(); ++f)
        {
            if (VbasCompat::isNull(feature.attribute(f)))
                continue;
            const QString text = vbasKeyText(feature.attribute(f));
            seen[std::size_t(f)].insert(text);
            for (auto area = areaIds.constBegin(); area != areaIds.constEnd(); ++area)
                if (area.value().contains(text))
                    ++matches[area.key() + '\n' + recordFields.at(f).name()];
        }
    }
    QString best;
    int most = 0;
    for (auto pair = matches.constBegin(); pair != matches.constEnd(); ++pair)
    {
        const int field = recordFields.lookupField(pair.key().section('\n', 1, 1));
        if (seen[std::size_t(field)].size() == sampled)
            continue; // a record id
        // Ties by name, so that the advice does not depend on hash order.
        if (pair.value() > most || (pair.value() == most && pair.key() < best))
        {
            best = pair.key();
            most = pair.value();
        }
    }
    if (sampled == 0 || most * 10 < sampled * 9)
        return QString();
    return QObject::tr("the small areas' '%1' matches the records' '%2' for %3 of the first %4 records: give "
                       "REGION_ID_FIELD=%1 and RECORD_REGION_FIELD=%2")
        .arg(best.section('\n', 0, 0), best.section('\n', 1, 1))
        .arg(most)
        .arg(sampled);
}

/**
 * Refuses records of which most name no small area: the two id fields do not hold the same codes (a record id
 * taken for its small area, say), and dropping unknown small areas would release the wrong records. The
 * error shows the values of both fields and, when another pair of fields matches, that pair.
 */
void checkRecordsMatchRegions(const QgsFeatureSource& regions, int regionIdField,
                              const std::vector<vbas::RegionInput>& kept, const QStringList& withoutGeometry,
                              const QgsFeatureSource& records, const VbasRecordFields& fields,
                              const vbas::RecordTable& table)
{
    if (table.regionKeys.empty() || kept.empty())
        return; // no record with a small area (said before), or no regions (the engine says so)
    QSet<QString> ids(withoutGeometry.cbegin(), withoutGeometry.cend());
    for (const vbas::RegionInput& region : kept)
        ids.insert(QString::fromStdString(region.id));
    std::vector<bool> known(table.regionKeys.size());
    QStringList recordValues;
    for (std::size_t key = 0; key < table.regionKeys.size(); ++key)
    {
        const QString text = QString::fromStdString(table.regionKeys[key]);
        known[key] = ids.contains(text);
        if (!known[key])
            recordValues << text;
    }
    vbas::Count matched = 0, total = 0;
    for (std::size_t row = 0; row < table.rows(); ++row)
    {
        const vbas::Count count = table.counts.empty() ? 1 : vbas::Count(table.counts[row]);
        total += count;
        const std::uint32_t key = table.regionKey[row];
        matched += key < known.size() && known[key] ? count : 0;
    }
    if (2 * matched >= total)
        return;
    QStringList regionIds;
    for (const vbas::RegionInput& region : kept)
        regionIds << QString::fromStdString(region.id);
    std::sort(regionIds.begin(), regionIds.end());
    std::sort(recordValues.begin(), recordValues.end());
    const QString advice = correspondingFields(regions, records);
    throw VbasParameters::parameterError(
        VbasParameters::kRecordRegionField,
        QObject::tr(
            "the records' '%1' and the small areas' '%2' do not correspond: only %3 of %4 records name a "
            "small area. '%1' holds %5; '%2' holds %6. %7")
            .arg(records.fields().at(fields.region).name(), regions.fields().at(regionIdField).name())
            .arg(matched)
            .arg(total)
            .arg(listed(recordValues), listed(regionIds))
            .arg(advice.isEmpty()
                     ? QObject::tr("Check that the two fields hold the same codes (leading zeros: "
                                   "'01001' is not '1001', and a code stored as a number has lost "
                                   "them), or choose the right fields.")
                     : QObject::tr("Choose the right fields: %1.").arg(advice)));
}

/**
 * Says what happens to the rows whose region is NULL: an error when they are all like that (the field is
 * the wrong one) or when unknown regions fail the run, else a warning that they are dropped with the
 * records of unknown regions.
 */
void reportNullRegions(const QgsFeatureSource& source, const VbasRecordFields& fields, std::size_t nullRows,
                       vbas::Count nullRecords, QgsFeatureId firstNull, std::size_t rows, bool grouped,
                       const vbas::DatasetOptions& options, vbas::Feedback& feedback)
{
    if (nullRows == 0)
        return;
    const QString field = source.fields().at(fields.region).name();
    if (nullRows == rows)
        throw VbasParameters::parameterError(
            VbasParameters::kRecordRegionField,
            QObject::tr("'%1' is NULL in every record, so no record has a small area; choose the field that "
                        "holds the small area of each record")
                .arg(field));
    // The database counted groups of rows, so no feature can be named: the filter finds them.
    const QString what =
        grouped
            ? QObject::tr(
                  "%1 record(s) have no small area ('%2' is NULL; the filter \"%2\" IS NULL shows them)")
                  .arg(nullRecords)
                  .arg(field)
            : QObject::tr("%1 record(s) in %2 row(s) have no small area ('%3' is NULL; first: feature %4)")
                  .arg(nullRecords)
                  .arg(nullRows)
                  .arg(field)
                  .arg(firstNull);
    if (options.unknownRegions == vbas::UnknownRegionPolicy::Fail)
        throw VbasParameters::parameterError(
            VbasParameters::kRecordRegionField,
            QObject::tr("%1; fill in their small area, or set %2 to drop to leave them out of the release")
                .arg(what, VbasParameters::kUnknownRegions));
    feedback.warning(QObject::tr("%1; they are dropped with the records of unknown small areas, not released")
                         .arg(what)
                         .toStdString());
}

/** Says in the log which quasi-identifiers hold NULL, in how many records, and how it is treated. */
void reportNullCategories(const QgsFeatureSource& source, const VbasRecordFields& fields,
                          const std::vector<vbas::Count>& nullRecords, vbas::Feedback& feedback)
{
    for (std::size_t j = 0; j < nullRecords.size(); ++j)
    {
        if (nullRecords[j] > 0)
            feedback.warning(
                QObject::tr("'%1' is NULL in %2 record(s); NULL is a category of its own, grouped "
                            "only with other NULLs (not with empty text)")
                    .arg(source.fields().at(fields.quasiIdentifiers.at(int(j))).name())
                    .arg(nullRecords[j])
                    .toStdString());
    }
}

/**
 * Refuses a published field whose values single records out or link them in small sets (SPEC section 10,
 * vbas::firstIdentifyingField()): an id, ids on part of the records beside a shared value, values shared by
 * pairs. `recordsPerValue` holds, per published field, the records holding each code of `categories`;
 * `ranks`, each code's rank.
 */
void refuseIdentifiers(const QgsFeatureSource& source, const VbasRecordFields& fields,
                       const std::vector<VbasCategoryCodes>& categories,
                       const std::vector<std::vector<vbas::Count>>& recordsPerValue,
                       const std::vector<std::vector<std::uint32_t>>& ranks)
{
    const std::optional<vbas::IdentifyingField> identifier =
        vbas::firstIdentifyingField(recordsPerValue, ranks, fields.k);
    if (!identifier)
        return;
    const vbas::IdentifyingValues& found = identifier->values;
    const int j = int(identifier->field);
    const QList<int> published = fields.publishedValues();
    const QString parameter =
        j < fields.sensitive.size() ? VbasParameters::kSensitiveFields : VbasParameters::kReleaseFields;
    QString larger = QObject::tr("and no value is held by %1 records or more").arg(found.smallSet);
    if (found.mostCommon >= found.smallSet)
    {
        const QVariant value = categories[std::size_t(j)].rankedValues().at(
            int(ranks[std::size_t(j)][identifier->mostCommonValue]));
        larger = QObject::tr("against %1 records in shared values other than its most common one ('%2', %3 "
                             "records)")
                     .arg(QString::number(found.inLargerGroups()),
                          VbasCompat::isNull(value) ? QStringLiteral("NULL") : vbasKeyText(value),
                          QString::number(found.mostCommon));
    }
    // Values that also group records in larger sets make a coded category with rare values (a diagnosis
    // code), which stays publishable coarser; an id does not.
    const QString coarser =
        found.inLargerGroups() > 0
            ? QObject::tr("; as a category with rare values, it can be published coarser instead, from a "
                          "field of its own (a diagnosis code generalized to its chapter, say)")
            : QString();
    throw VbasParameters::parameterError(
        parameter,
        QObject::tr("'%1' singles records out: %2 of %3 records carry a value that fewer than %4 records "
                    "share (%5 values, %6 of them held by one record), %7. An identifier is never "
                    "published: remove it from %8, or declare it a quasi-identifier (QUASI_IDENTIFIERS) "
                    "so that it is protected with the others%9")
            .arg(source.fields().at(published.at(j)).name(), QString::number(found.inSmallSets),
                 QString::number(found.records), QString::number(found.smallSet),
                 QString::number(found.valuesInSmallSets), QString::number(found.valuesHeldByOne), larger,
                 parameter, coarser));
}

/**
 * Returns the records a row stands for: 1 without a count field, else its count (0: the row holds no
 * records), or nothing when the count is NULL. Throws, naming COUNT_FIELD, for a count that is no whole
 * number of 0 or more (text holding one is accepted, as CSV files deliver it).
 */
std::optional<qint64> rowRecords(QgsFeatureId feature, const QVariant* countValue, const QString& countField,
                                 bool grouped)
{
    if (countValue == nullptr)
        return 1;
    const QVariant& value = *countValue;
    if (VbasCompat::isNull(value))
        return std::nullopt;
    bool isNumber = false;
    const double count = value.toDouble(&isNumber);
    const std::optional<vbas::Count> records = isNumber ? vbas::wholeRecordCount(count) : std::nullopt;
    if (!records)
        // Rows counted in groups have no feature id: the filter finds them.
        throw VbasParameters::countError(
            grouped
                ? QObject::tr("a row (the filter \"%1\" = '%2' shows it)").arg(countField, value.toString())
                : QObject::tr("feature %1").arg(feature),
            value.toString());
    return static_cast<qint64>(*records);
}

/** The rows skipped for holding no records: a count of 0, or NULL read as 0. */
struct EmptyRows
{
    std::size_t zero = 0;
    std::size_t null = 0;
    QgsFeatureId firstNull = 0;
};

/**
 * Refuses NULL counts unless they are to be read as 0, and a table whose rows all hold no records; says in
 * the log which rows were skipped.
 */
void reportEmptyRows(const QgsFeatureSource& source, const VbasRecordFields& fields, const EmptyRows& empty,
                     std::size_t rowsWithRecords, bool grouped, vbas::Feedback& feedback)
{
    if (fields.count < 0)
        return;
    const QString field = source.fields().at(fields.count).name();
    if (empty.null > 0)
    {
        const QString what = QObject::tr("'%1' is NULL in %2 row(s) (%3)")
                                 .arg(field)
                                 .arg(empty.null)
                                 .arg(grouped ? QObject::tr("the filter \"%1\" IS NULL shows them").arg(field)
                                              : QObject::tr("first: feature %1").arg(empty.firstNull));
        if (!fields.nullCountAsZero)
            throw VbasParameters::parameterError(
                VbasParameters::kParameterCountField,
                QObject::tr(
                    "%1, so how many records they hold is unknown; fill in their counts, or set %2 to "
                    "read NULL as 0 (no records)")
                    .arg(what, VbasParameters::kNullCountAsZero));
        feedback.warning(QObject::tr("%1; read as 0 (no records), as %2 asks")
                             .arg(what, VbasParameters::kNullCountAsZero)
                             .toStdString());
    }
    if (empty.zero > 0)
        feedback.info(QObject::tr("%1 row(s) have a count of 0 in '%2': they hold no records and are skipped")
                          .arg(empty.zero)
                          .arg(field)
                          .toStdString());
    if (rowsWithRecords == 0 && empty.zero + empty.null > 0)
        throw VbasParameters::parameterError(
            VbasParameters::kParameterCountField,
            QObject::tr("every row has a count of 0 in '%1' (NULL read as 0), so there are no records to "
                        "release; choose the field that holds the number of records of each row")
                .arg(field));
}

/**
 * Refuses a text value that did not decode: bytes that are not text in the encoding RECORDS is read with
 * (Latin-1 read as UTF-8) become U+FFFD, and two values that differ only there would be released as one.
 */
void refuseUndecodedText(const QVariant& value, const QgsFeatureSource& source, const QgsVectorLayer* layer,
                         int field, QgsFeatureId feature)
{
    if (value.userType() != QMetaType::QString || !value.toString().contains(QChar::ReplacementCharacter))
        return;
    const QString encoding = layer != nullptr && layer->dataProvider() != nullptr
                                 ? layer->dataProvider()->encoding()
                                 : QStringLiteral("UTF-8");
    throw VbasParameters::parameterError(
        VbasParameters::kRecords,
        QObject::tr(
            "the value of '%1' in feature %2 is not %3 text ('%4', its other bytes shown as ?): values "
            "that differ only in such bytes would be released as one. Give the file's encoding: in QGIS "
            "add the table as a delimited text layer with its Encoding (Layer > Add Layer > Add "
            "Delimited Text Layer); on the command line RECORDS=delimitedtext://file:///path/to/"
            "records.csv?type=csv&delimiter=,&geomType=none&encoding=ISO-8859-1 (the file's own "
            "encoding); or convert the file to UTF-8 (iconv -f ISO-8859-1 -t UTF-8)")
            .arg(source.fields().at(field).name())
            .arg(feature)
            .arg(encoding.isEmpty() ? QStringLiteral("UTF-8") : encoding,
                 value.toString().replace(QChar::ReplacementCharacter, QLatin1Char('?'))));
}

/** Reads every empty text of a row as NULL (VbasRecordFields::emptyTextIsNull). */
void readEmptyTextAsNull(QVector<QVariant>& values)
{
    for (QVariant& value : values)
        if (value.userType() == QMetaType::QString && value.toString().isEmpty())
            value = VbasCompat::nullOf(VbasCompat::FieldTypeString);
}

vbas::RecordTable loadRecords(QgsFeatureSource& source, const QgsVectorLayer* layer,
                              const VbasRecordFields& fields, const vbas::DatasetOptions& options,
                              VbasLoadedData& data, vbas::Feedback& feedback)
{
    const QList<int> published = fields.publishedValues();
    // Read in this order: the quasi-identifiers, the published values, the region, the count.
    QgsAttributeList attributes = fields.readFields();
    const int q = int(fields.quasiIdentifiers.size()), regionAt = int(attributes.size()) - 1;
    if (fields.count >= 0)
        attributes << fields.count;
    const int countAt = regionAt + 1;
    if (fields.recordId >= 0)
        attributes << fields.recordId;
    const int idAt = int(attributes.size()) - 1;
    // With COUNT_FIELD, identical rows (their counts included) are grouped alike: each holds its count.
    QString notGrouped;
    const std::unique_ptr<VbasRecordSource> rows =
        VbasRecordSource::open(source, layer, attributes, feedback, fields.grouping, notGrouped);
    feedback.info(
        (notGrouped.isEmpty()
             ? rows->description()
             : QObject::tr("%1 (not straight from the database: %2)").arg(rows->description(), notGrouped))
            .toStdString());
    data.recordsGrouped = rows->grouped();
    const QString countField = fields.count >= 0 ? source.fields().at(fields.count).name() : QString();
    const bool counted = fields.count >= 0 || rows->grouped();

    vbas::RecordTable table;
    table.quasiIdentifierCount = std::size_t(q);
    table.sensitiveCount = std::size_t(fields.sensitive.size());
    QHash<QString, std::uint32_t> regionKeys;
    std::vector<VbasCategoryCodes> categories(table.quasiIdentifierCount);
    std::vector<vbas::Count> nullCategoryRecords(table.quasiIdentifierCount, 0);
    // Sensitive values first, as publishedValues() lists them.
    std::vector<VbasCategoryCodes> publishedCategories(std::size_t(published.size()));
    // Per published field, the records holding each code: what the identifier guard weighs.
    std::vector<std::vector<vbas::Count>> publishedValueRecords(publishedCategories.size());
    std::vector<std::uint32_t>& publishedCodes = data.recordValues.publishedCodes;
    vbas::CodesByValueId byValueId(std::size_t(attributes.size()));
    const long expectedRows = rows->expectedRows();
    if (expectedRows > 0) // room made once, not by doubling and copying as the rows come
    {
        const auto rowCount = std::size_t(expectedRows);
        table.regionKey.reserve(rowCount);
        table.codes.reserve(rowCount * table.quasiIdentifierCount);
        publishedCodes.reserve(rowCount * std::size_t(published.size()));
        if (counted)
            table.counts.reserve(rowCount);
    }
    FeatureLoop loop(expectedRows, feedback);
    QgsFeatureId id = 0;
    QVector<QVariant> values;
    std::size_t nullRegionRows = 0;
    vbas::Count nullRegionRecords = 0;
    QgsFeatureId firstNullRegion = 0;
    EmptyRows empty;
    while (rows->next(id, values))
    {
        loop.next();
        if (fields.emptyTextIsNull)
            readEmptyTextAsNull(values);
        const qint64 identicalRows = rows->groupSize();
        const std::optional<qint64> read =
            rowRecords(id, fields.count >= 0 ? &values.at(countAt) : nullptr, countField, rows->grouped());
        if (!read)
        {
            empty.firstNull = empty.null == 0 ? id : empty.firstNull;
            empty.null += std::size_t(identicalRows);
        }
        const qint64 count = read.value_or(0) * identicalRows;
        if (count == 0)
        {
            empty.zero += read ? std::size_t(identicalRows) : 0;
            continue; // no records: in no output, whatever its other fields hold
        }
        const QVariant& region = values.at(regionAt);
        const std::uint32_t* ids = rows->valueIds();
        if (VbasCompat::isNull(region))
        {
            if (nullRegionRows++ == 0)
                firstNullRegion = id;
            nullRegionRecords += vbas::Count(count);
        }
        table.regionKey.push_back(byValueId.code(
            ids, std::size_t(regionAt),
            [&]
            {
                refuseUndecodedText(region, source, layer, fields.region, id);
                if (VbasCompat::isNull(region))
                    return kNullRegionKey;
                const QString text = vbasKeyText(region);
                std::uint32_t key = regionKeys.value(text, std::uint32_t(table.regionKeys.size()));
                if (key == table.regionKeys.size())
                {
                    regionKeys.insert(text, key);
                    table.regionKeys.push_back(text.toStdString());
                }
                return key;
            }));
        for (std::size_t j = 0; j < categories.size(); ++j)
        {
            const QVariant& value = values.at(int(j));
            if (VbasCompat::isNull(value))
                nullCategoryRecords[j] += vbas::Count(count);
            table.codes.push_back(byValueId.code(ids, j,
                                                 [&]
                                                 {
                                                     refuseUndecodedText(value, source, layer,
                                                                         attributes.at(int(j)), id);
                                                     return categories[j].code(value);
                                                 }));
        }
        for (std::size_t j = 0; j < publishedCategories.size(); ++j)
        {
            const std::uint32_t code =
                byValueId.code(ids, std::size_t(q) + j,
                               [&]
                               {
                                   const QVariant& value = values.at(q + int(j));
                                   refuseUndecodedText(value, source, layer, attributes.at(q + int(j)), id);
                                   return publishedCategories[j].code(value);
                               });
            publishedCodes.push_back(code);
            std::vector<vbas::Count>& held = publishedValueRecords[j];
            if (code >= held.size())
                held.resize(std::size_t(code) + 1, 0);
            held[code] += vbas::Count(count);
        }
        if (fields.recordId >= 0)
        {
            const QVariant& recordId = values.at(idAt);
            if (VbasCompat::isNull(recordId))
                throw VbasParameters::parameterError(
                    VbasParameters::kRecordIdField,
                    QObject::tr(
                        "record %1 has no id (NULL); every record needs its id for the release ledger to "
                        "tell new records from earlier ones, or leave RECORD_ID_FIELD empty")
                        .arg(id));
            refuseUndecodedText(recordId, source, layer, fields.recordId, id);
            data.recordIds.push_back(vbasKeyText(recordId).toStdString());
        }
        if (counted)
            table.counts.push_back(count);
    }
    // Rows of count 0 hold no records and are left out.
    const std::size_t rowsWithRecords = table.regionKey.size();
    reportEmptyRows(source, fields, empty, rowsWithRecords, rows->grouped(), feedback);
    std::vector<std::vector<std::uint32_t>> publishedRanks;
    for (const VbasCategoryCodes& codes : publishedCategories)
        publishedRanks.push_back(codes.ranks());
    refuseIdentifiers(source, fields, publishedCategories, publishedValueRecords, publishedRanks);
    reportNullRegions(source, fields, nullRegionRows, nullRegionRecords, firstNullRegion, rowsWithRecords,
                      rows->grouped(), options, feedback);
    reportNullCategories(source, fields, nullCategoryRecords, feedback);
    // Codes become ranks in text order: the same codes whatever order the rows come in (grouped or not).
    for (std::size_t j = 0; j < categories.size(); ++j)
    {
        table.quasiIdentifierValues.push_back(categories[j].values());
        data.recordValues.values.push_back(categories[j].rankedValues());
        vbas::rankCodes(categories[j].ranks(), table.codes, j, categories.size());
    }
    for (std::size_t j = 0; j < publishedCategories.size(); ++j)
    {
        // What each sensitive code stands for, so that t-closeness can order numbers by value.
        if (j < table.sensitiveCount)
            table.sensitiveValues.push_back(publishedCategories[j].values());
        data.recordValues.values.push_back(publishedCategories[j].rankedValues());
        vbas::rankCodes(publishedRanks[j], publishedCodes, j, publishedCategories.size());
    }
    if (fields.recordId >= 0)
    {
        // Rows of one person share a number: every group then counts distinct people.
        std::unordered_map<std::string_view, std::uint32_t> personOf;
        table.persons.reserve(data.recordIds.size());
        for (const std::string& recordId : data.recordIds)
            table.persons.push_back(
                personOf.try_emplace(recordId, std::uint32_t(personOf.size())).first->second);
        feedback.info(QObject::tr("'%1' (RECORD_ID_FIELD) names %2 people in %3 rows: every group counts "
                                  "its distinct people, and k is a number of people")
                          .arg(source.fields().at(fields.recordId).name())
                          .arg(personOf.size())
                          .arg(data.recordIds.size())
                          .toStdString());
    }
    const std::size_t width = publishedCategories.size();
    if (fields.count >= 0 && width > 0)
    {
        // A count table is published merged by everything but its count (VbasOutputs::writeRecords()): each
        // row's other published values as one key, so that the engine holds every published row to k.
        std::unordered_map<std::string, std::uint32_t> keys;
        table.publishedRowKeys.reserve(rowsWithRecords);
        for (std::size_t i = 0; i < publishedCodes.size(); i += width)
            table.publishedRowKeys.push_back(
                keys.try_emplace(std::string(reinterpret_cast<const char*>(&publishedCodes[i]),
                                             width * sizeof(std::uint32_t)),
                                 std::uint32_t(keys.size()))
                    .first->second);
    }
    table.sensitiveCodes.reserve(rowsWithRecords * table.sensitiveCount);
    for (std::size_t i = 0; i < publishedCodes.size(); i += width)
        table.sensitiveCodes.insert(table.sensitiveCodes.end(), publishedCodes.begin() + std::ptrdiff_t(i),
                                    publishedCodes.begin() + std::ptrdiff_t(i + table.sensitiveCount));
    return table;
}
} // namespace

bool vbasIsCsvFile(const QgsVectorLayer* layer)
{
    if (layer == nullptr || layer->dataProvider() == nullptr)
        return false;
    return layer->providerType() == QLatin1String("delimitedtext") ||
           (layer->providerType() == QLatin1String("ogr") &&
            layer->dataProvider()->storageType() == QLatin1String("CSV"));
}

VbasLoadedData loadJobData(QgsFeatureSource& regions, int regionIdField, const VbasPlanarFrame& frame,
                           vbas::RepresentativePoint pointMode, QgsFeatureSource& records,
                           const QgsVectorLayer* recordsLayer, const VbasRecordFields& recordFields,
                           const vbas::DatasetOptions& options, vbas::Feedback& feedback)
{
    VbasLoadedData data;
    std::vector<vbas::RegionInput> regionInputs;
    QStringList withoutGeometry;
    const auto seconds = [](const QElapsedTimer& timer)
    {
        return QString::number(double(timer.elapsed()) / 1000.0, 'f', 2);
    };
    QElapsedTimer timer;
    timer.start();
    {
        vbas::Feedback::Stage stage(feedback, 0.0, 0.4);
        regionInputs = loadRegions(regions, regionIdField, frame, pointMode, data, withoutGeometry, feedback);
    }
    vbas::RecordTable table;
    {
        vbas::Feedback::Stage stage(feedback, 0.4, 0.9);
        table = loadRecords(records, recordsLayer, recordFields, options, data, feedback);
    }
    feedback.info((data.recordsGrouped
                       ? QObject::tr("Read %1 small areas (REGIONS) and %2 groups of records "
                                     "(RECORDS) in %3 s")
                       : QObject::tr("Read %1 small areas (REGIONS) and %2 rows (RECORDS) in %3 s"))
                      .arg(data.regionFeatures.size())
                      .arg(table.regionKey.size())
                      .arg(seconds(timer))
                      .toStdString());
    checkRegionsWithoutGeometry(withoutGeometry, regionInputs, table, feedback);
    checkRecordsMatchRegions(regions, regionIdField, regionInputs, withoutGeometry, records, recordFields,
                             table);
    std::vector<vbas::QuasiIdentifier> quasiIdentifiers;
    for (const int field : recordFields.quasiIdentifiers)
        quasiIdentifiers.push_back({records.fields().at(field).name().toStdString(), 0});
    vbas::Feedback::Stage stage(feedback, 0.9, 1.0);
    data.dataset.emplace(vbas::Dataset::build(
        std::move(regionInputs), vbas::Schema(std::move(quasiIdentifiers)), table, options, feedback));
    data.recordValues.quasiIdentifierCodes = std::move(table.codes);
    return data;
}

vbas::Sites loadSites(QgsFeatureSource& source, const QString& parameter, const QString& weightField,
                      const VbasPlanarFrame& frame, vbas::Feedback& feedback)
{
    const VbasPlanarReader reader(frame, source, parameter);
    const int weightIndex = weightField.isEmpty() ? -1 : source.fields().lookupField(weightField);
    if (!weightField.isEmpty() && weightIndex < 0)
        throw QgsProcessingException(
            QObject::tr("%1: the weight field '%2' is not in the layer").arg(parameter, weightField));
    vbas::Sites sites;
    std::size_t withoutPoint = 0;
    FeatureLoop loop(source.featureCount(), feedback);
    QgsFeatureRequest request;
    if (weightIndex < 0)
        request.setNoAttributes();
    else
        request.setSubsetOfAttributes(QgsAttributeList{weightIndex});
    QgsFeatureIterator features = source.getFeatures(request);
    QgsFeature feature;
    while (features.nextFeature(feature))
    {
        loop.next();
        const QgsGeometry geometry = reader.planarGeometry(feature);
        if (geometry.isEmpty())
        {
            ++withoutPoint;
            continue;
        }
        double weight = 0.0;
        if (weightIndex >= 0)
        {
            const QVariant value = feature.attribute(weightIndex);
            bool ok = false;
            weight = value.toDouble(&ok);
            if (VbasCompat::isNull(value) || !ok || !std::isfinite(weight))
                throw QgsProcessingException(
                    QObject::tr(
                        "%1: site %2 has no number in its weight field '%3' (value: %4); give every site "
                        "a weight, 0 for none")
                        .arg(parameter)
                        .arg(feature.id())
                        .arg(weightField, value.toString()));
        }
        const QgsMultiPointXY parts =
            geometry.isMultipart() ? geometry.asMultiPoint() : QgsMultiPointXY{geometry.asPoint()};
        for (const QgsPointXY& point : parts)
        {
            sites.points.push_back({point.x(), point.y()});
            if (weightIndex >= 0)
                sites.weights.push_back(weight);
        }
    }
    if (withoutPoint > 0)
        feedback.warning(std::to_string(withoutPoint) + " features without a point were skipped");
    return sites;
}

#include "vbasconvert.h"

#include "vbasparameters.h"
#include "vbasqgiscompat.h"

#include <qgsexception.h>
#include <qgsfeatureiterator.h>
#include <qgsfeaturesource.h>
#include <qgsprocessingutils.h>
#include <qgsrectangle.h>
#include <qgsunittypes.h>

#include <QSet>

#include <algorithm>
#include <limits>

namespace
{
/** The region key of a record whose region is NULL: beyond every key, so the Dataset reports it as unknown.
 */
constexpr std::uint32_t kNullRegionKey = std::numeric_limits<std::uint32_t>::max();

/** Keeps the datum of a PROJ string (+datum, +ellps, +towgs84...), so that a projection on it needs no datum
 * shift. */
QString datumPart(const QString& proj)
{
    static const QStringList datumKeys{"+datum", "+ellps", "+towgs84", "+a",       "+b",
                                       "+rf",    "+R",     "+pm",      "+nadgrids"};
    QStringList kept;
    for (const QString& token : proj.split(' ', Qt::SkipEmptyParts))
    {
        if (datumKeys.contains(token.section('=', 0, 0)))
            kept << token;
    }
    return kept.isEmpty() ? QStringLiteral("+datum=WGS84") : kept.join(' ');
}

QgsCoordinateReferenceSystem planarCrsFor(const QgsCoordinateReferenceSystem& crs, const QgsRectangle& extent)
{
    if (!crs.isValid() || (!crs.isGeographic() && crs.mapUnits() == QgsUnitTypes::DistanceMeters))
        return crs;
    if (!crs.isGeographic())
    {
        // A projected CRS in feet or other units: the same projection, in metres (x_0/y_0 are
        // metres in PROJ whatever +units says).
        QStringList tokens = crs.toProj().split(' ', Qt::SkipEmptyParts);
        tokens.erase(std::remove_if(tokens.begin(), tokens.end(),
                                    [](const QString& token) {
                                        return token.startsWith(QLatin1String("+units=")) ||
                                               token.startsWith(QLatin1String("+to_meter="));
                                    }),
                     tokens.end());
        return QgsCoordinateReferenceSystem::fromProj(tokens.join(' ') + QStringLiteral(" +units=m"));
    }
    const QgsPointXY centre = extent.center();
    // Centred on the data, this projection is in no CRS database: skip PROJ's search for a match, the
    // slowest part of making it.
    QgsCoordinateReferenceSystem aeqd;
    aeqd.createFromProj(QStringLiteral("+proj=aeqd +lat_0=%1 +lon_0=%2 +x_0=0 +y_0=0 %3 +units=m +no_defs")
                            .arg(centre.y(), 0, 'f', 6)
                            .arg(centre.x(), 0, 'f', 6)
                            .arg(datumPart(crs.toProj())),
                        false);
    return aeqd;
}

/** Reports the progress of a feature loop over `source` and stops it promptly on cancel. */
class FeatureLoop
{
public:
    FeatureLoop(const QgsFeatureSource& source, vbas::Feedback& feedback)
        : mFeedback(feedback)
        , mStep(source.featureCount() > 0 ? 1.0 / double(source.featureCount()) : 0.0)
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

std::vector<vbas::RegionInput> loadRegions(QgsFeatureSource& source, int idField,
                                           const VbasPlanarFrame& frame, vbas::RepresentativePoint pointMode,
                                           VbasJobData& data, vbas::Feedback& feedback)
{
    const VbasPlanarReader reader(frame, source, VbasParameters::kRegions);
    data.geometries = std::make_unique<vbas::RegionGeometries>();
    std::vector<vbas::RegionInput> regions;
    FeatureLoop loop(source, feedback);
    QgsFeatureIterator features =
        source.getFeatures(QgsFeatureRequest().setSubsetOfAttributes(QgsAttributeList{idField}));
    QgsFeature feature;
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
        const QgsGeometry geometry = reader.planarGeometry(feature);
        if (geometry.isNull())
            throw VbasParameters::parameterError(
                VbasParameters::kRegions, QObject::tr("region '%1' has no geometry; give it its polygon or "
                                                      "remove it")
                                              .arg(vbasKeyText(id)));
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
    return regions;
}

/**
 * Says what happens to the rows whose region is NULL: an error when they are all like that (the field is
 * the wrong one) or when unknown regions fail the run, else a warning that they are dropped with the
 * records of unknown regions.
 */
void reportNullRegions(const QgsFeatureSource& source, const VbasRecordFields& fields, std::size_t nullRows,
                       vbas::Count nullRecords, QgsFeatureId firstNull, std::size_t rows,
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
    const QString what = QObject::tr("%1 record(s) in %2 row(s) have no small area ('%3' is NULL; first: "
                                     "feature %4)")
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

/** Says in the log which quasi-identifiers hold NULL and how it is treated. */
void reportNullCategories(const QgsFeatureSource& source, const VbasRecordFields& fields,
                          const std::vector<VbasCategoryCodes>& categories, vbas::Feedback& feedback)
{
    for (std::size_t j = 0; j < categories.size(); ++j)
    {
        if (categories[j].nullRows() > 0)
            feedback.warning(QObject::tr("'%1' is NULL in %2 row(s); NULL is a category of its own, grouped "
                                         "only with other NULLs (not with empty text)")
                                 .arg(source.fields().at(fields.quasiIdentifiers.at(int(j))).name())
                                 .arg(categories[j].nullRows())
                                 .toStdString());
    }
}

/**
 * Refuses a published field that is nearly unique per record: more distinct values than half the records
 * would let it single people out like an identifier (SPEC section 10).
 */
void refuseIdentifiers(const QgsFeatureSource& source, const VbasRecordFields& fields,
                       const std::vector<QSet<QString>>& distinct, vbas::Count records)
{
    const QList<int> published = fields.publishedValues();
    for (int j = 0; j < published.size(); ++j)
    {
        if (vbas::Count(distinct[std::size_t(j)].size()) * 2 <= records)
            continue;
        const bool sensitive = j < fields.sensitive.size();
        throw VbasParameters::parameterError(
            sensitive ? VbasParameters::kSensitiveFields : VbasParameters::kReleaseFields,
            QObject::tr("'%1' holds %2 different values among %3 records, so nearly every record has a value "
                        "of its own: published, it would single people out like an identifier. Remove it "
                        "from %4, or declare it a quasi-identifier (QUASI_IDENTIFIERS) so that it is "
                        "protected with the others")
                .arg(source.fields().at(published.at(j)).name())
                .arg(distinct[std::size_t(j)].size())
                .arg(records)
                .arg(sensitive ? VbasParameters::kSensitiveFields : VbasParameters::kReleaseFields));
    }
}

vbas::RecordTable loadRecords(QgsFeatureSource& source, const VbasRecordFields& fields,
                              const vbas::DatasetOptions& options, std::vector<QgsFeatureId>& rowFeatures,
                              vbas::Feedback& feedback)
{
    const QList<int> published = fields.publishedValues();
    QgsAttributeList attributes = fields.quasiIdentifiers + published;
    attributes << fields.region;
    if (fields.count >= 0)
        attributes << fields.count;
    QgsFeatureRequest request;
    request.setFlags(VbasCompat::RequestNoGeometry).setSubsetOfAttributes(attributes);

    vbas::RecordTable table;
    table.quasiIdentifierCount = std::size_t(fields.quasiIdentifiers.size());
    table.sensitiveCount = std::size_t(fields.sensitive.size());
    QHash<QString, std::uint32_t> regionKeys;
    std::vector<VbasCategoryCodes> categories(table.quasiIdentifierCount);
    std::vector<VbasCategoryCodes> sensitiveCategories(table.sensitiveCount);
    std::vector<QSet<QString>> distinct(std::size_t(published.size()));
    vbas::Count records = 0;
    FeatureLoop loop(source, feedback);
    QgsFeatureIterator features = source.getFeatures(request);
    QgsFeature feature;
    std::size_t nullRegionRows = 0;
    vbas::Count nullRegionRecords = 0;
    QgsFeatureId firstNullRegion = 0;
    while (features.nextFeature(feature))
    {
        loop.next();
        const QVariant region = feature.attribute(fields.region);
        const qint64 count = VbasParameters::recordCount(feature, fields.count);
        records += vbas::Count(count);
        std::uint32_t key = kNullRegionKey;
        if (VbasCompat::isNull(region))
        {
            if (nullRegionRows++ == 0)
                firstNullRegion = feature.id();
            nullRegionRecords += vbas::Count(count);
        }
        else
        {
            const QString text = vbasKeyText(region);
            key = regionKeys.value(text, std::uint32_t(table.regionKeys.size()));
            if (key == table.regionKeys.size())
            {
                regionKeys.insert(text, key);
                table.regionKeys.push_back(text.toStdString());
            }
        }
        table.regionKey.push_back(key);
        for (std::size_t j = 0; j < categories.size(); ++j)
            table.codes.push_back(categories[j].code(feature.attribute(fields.quasiIdentifiers.at(int(j)))));
        for (std::size_t j = 0; j < sensitiveCategories.size(); ++j)
            table.sensitiveCodes.push_back(
                sensitiveCategories[j].code(feature.attribute(fields.sensitive.at(int(j)))));
        for (std::size_t j = 0; j < distinct.size(); ++j)
            distinct[j].insert(vbasValueKey(feature.attribute(published.at(int(j)))));
        if (fields.count >= 0)
            table.counts.push_back(count);
        rowFeatures.push_back(feature.id());
    }
    refuseIdentifiers(source, fields, distinct, records);
    reportNullRegions(source, fields, nullRegionRows, nullRegionRecords, firstNullRegion, rowFeatures.size(),
                      options, feedback);
    reportNullCategories(source, fields, categories, feedback);
    const std::size_t q = categories.size();
    for (std::size_t j = 0; j < q; ++j)
    {
        const std::vector<std::uint32_t> rank = categories[j].ranks();
        for (std::size_t i = j; i < table.codes.size(); i += q)
            table.codes[i] = rank[table.codes[i]];
    }
    return table;
}
} // namespace

VbasPlanarFrame::VbasPlanarFrame(const QgsCoordinateReferenceSystem& sourceCrs,
                                 const QgsRectangle& sourceExtent,
                                 const QgsCoordinateTransformContext& transformContext)
    : mSourceCrs(sourceCrs)
    , mPlanarCrs(planarCrsFor(sourceCrs, sourceExtent))
    , mTransformContext(transformContext)
{
    if (sourceCrs.isGeographic() && !sourceExtent.isEmpty() &&
        !QgsRectangle(-360.0, -90.0, 360.0, 90.0).contains(sourceExtent))
        throw VbasParameters::parameterError(
            VbasParameters::kRegions,
            QObject::tr("the layer is in %1 (degrees), but its coordinates reach %2, beyond any longitude "
                        "and latitude; set the CRS its coordinates are really in (Layer Properties > Source)")
                .arg(sourceCrs.userFriendlyIdentifier(), sourceExtent.toString(0)));
    if (!mPlanarCrs.isValid() && sourceCrs.isValid())
        throw VbasParameters::parameterError(
            VbasParameters::kRegions,
            QObject::tr("no planar projection in metres could be made for the CRS of REGIONS (%1); "
                        "reproject REGIONS to a projected CRS in metres first")
                .arg(sourceCrs.userFriendlyIdentifier()));
    if (mPlanarCrs != mSourceCrs)
        mToSource.emplace(mPlanarCrs, mSourceCrs, mTransformContext);
}

QString VbasPlanarFrame::description() const
{
    if (!mSourceCrs.isValid())
        return QObject::tr("REGIONS have no CRS: distances and areas are in their own coordinate units");
    if (!mToSource)
        return QObject::tr(
                   "computing in the CRS of REGIONS (%1): distances in metres, areas in square metres")
            .arg(mSourceCrs.userFriendlyIdentifier());
    return QObject::tr("REGIONS are in %1; computing in %2 (distances in metres, areas in square metres), "
                       "results written back in %1")
        .arg(mSourceCrs.userFriendlyIdentifier(), mPlanarCrs.toProj());
}

QgsGeometry VbasPlanarFrame::toSource(QgsGeometry planar) const
{
    if (!mToSource)
        return planar;
    try
    {
        planar.transform(*mToSource);
    }
    catch (const QgsCsException& error)
    {
        throw QgsProcessingException(QObject::tr("a result cannot be transformed back to %1: %2")
                                         .arg(mSourceCrs.userFriendlyIdentifier(), error.what()));
    }
    return planar;
}

QgsPointXY VbasPlanarFrame::toSource(const vbas::Point& planar) const
{
    return toSource(QgsGeometry::fromPointXY(QgsPointXY(planar.x, planar.y))).asPoint();
}

VbasPlanarReader::VbasPlanarReader(const VbasPlanarFrame& frame, const QgsFeatureSource& source,
                                   const QString& parameter)
    : mTransform(source.sourceCrs(), frame.planarCrs(), frame.transformContext())
    , mSourceName(source.sourceName())
    , mParameter(parameter)
{
    const QgsCoordinateReferenceSystem crs = source.sourceCrs();
    if (!crs.isValid() && frame.sourceCrs().isValid())
        throw VbasParameters::parameterError(
            parameter, QObject::tr("'%1' has no CRS, so it cannot be placed on REGIONS (%2); set its CRS "
                                   "(Layer Properties > Source) or reproject it")
                           .arg(mSourceName, frame.sourceCrs().userFriendlyIdentifier()));
    if (crs.isValid() && !frame.sourceCrs().isValid())
        throw VbasParameters::parameterError(
            parameter,
            QObject::tr("REGIONS have no CRS, so '%1' (%2) cannot be placed on them; set the CRS of REGIONS")
                .arg(mSourceName, crs.userFriendlyIdentifier()));
}

QgsGeometry VbasPlanarReader::planarGeometry(const QgsFeature& feature) const
{
    QgsGeometry geometry = feature.geometry();
    if (geometry.isEmpty() || mTransform.isShortCircuited())
        return geometry;
    try
    {
        if (geometry.transform(mTransform) == Qgis::GeometryOperationResult::Success &&
            geometry.boundingBox().isFinite())
            return geometry;
    }
    catch (const QgsCsException&)
    {
        // Said below, naming the feature and the layer, like a transform that gave infinities.
    }
    throw VbasParameters::parameterError(
        mParameter,
        QObject::tr("feature %1 of '%2' cannot be transformed from %3 into the plane of the computation; "
                    "check that the layer's CRS is the one its coordinates are in, or reproject it")
            .arg(feature.id())
            .arg(mSourceName, mTransform.sourceCrs().userFriendlyIdentifier()));
}

QHash<QgsFeatureId, std::size_t> vbasFeatureRows(const std::vector<QgsFeatureId>& features)
{
    QHash<QgsFeatureId, std::size_t> rows;
    rows.reserve(int(features.size()));
    for (std::size_t row = 0; row < features.size(); ++row)
        rows.insert(features[row], row);
    return rows;
}

QString vbasKeyText(const QVariant& value)
{
    return value.toString();
}

std::uint32_t VbasCategoryCodes::code(const QVariant& value)
{
    if (VbasCompat::isNull(value))
    {
        if (!mNull)
            mNull = mSize++;
        ++mNullRows;
        return *mNull;
    }
    const QString text = vbasKeyText(value);
    const auto found = mText.constFind(text);
    if (found != mText.constEnd())
        return found.value();
    mText.insert(text, mSize);
    return mSize++;
}

std::vector<std::uint32_t> VbasCategoryCodes::ranks() const
{
    std::vector<std::pair<QString, std::uint32_t>> sorted;
    for (auto it = mText.constBegin(); it != mText.constEnd(); ++it)
        sorted.emplace_back(it.key(), it.value());
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::uint32_t> rank(mSize);
    std::uint32_t next = 0;
    if (mNull)
        rank[*mNull] = next++;
    for (const auto& entry : sorted)
        rank[entry.second] = next++;
    return rank;
}

QString vbasValueKey(const QVariant& value)
{
    // NULL is a value of its own, apart from empty text: a control character no field value starts with.
    return VbasCompat::isNull(value) ? QStringLiteral("\x1e") : vbasKeyText(value);
}

VbasJobData loadJobData(QgsFeatureSource& regions, int regionIdField, const VbasPlanarFrame& frame,
                        vbas::RepresentativePoint pointMode, QgsFeatureSource& records,
                        const VbasRecordFields& recordFields, const vbas::DatasetOptions& options,
                        vbas::Feedback& feedback)
{
    VbasJobData data;
    std::vector<vbas::RegionInput> regionInputs;
    {
        vbas::Feedback::Stage stage(feedback, 0.0, 0.4);
        regionInputs = loadRegions(regions, regionIdField, frame, pointMode, data, feedback);
    }
    vbas::RecordTable table;
    {
        vbas::Feedback::Stage stage(feedback, 0.4, 0.9);
        table = loadRecords(records, recordFields, options, data.recordFeatures, feedback);
    }
    std::vector<vbas::QuasiIdentifier> quasiIdentifiers;
    for (const int field : recordFields.quasiIdentifiers)
        quasiIdentifiers.push_back({records.fields().at(field).name().toStdString(), 0});
    vbas::Feedback::Stage stage(feedback, 0.9, 1.0);
    data.dataset.emplace(vbas::Dataset::build(
        std::move(regionInputs), vbas::Schema(std::move(quasiIdentifiers)), table, options, feedback));
    return data;
}

std::vector<vbas::Point> loadPoints(QgsFeatureSource& source, const QString& parameter,
                                    const VbasPlanarFrame& frame, vbas::Feedback& feedback)
{
    const VbasPlanarReader reader(frame, source, parameter);
    std::vector<vbas::Point> points;
    std::size_t withoutPoint = 0;
    FeatureLoop loop(source, feedback);
    QgsFeatureIterator features = source.getFeatures(QgsFeatureRequest().setNoAttributes());
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
        const QgsMultiPointXY parts =
            geometry.isMultipart() ? geometry.asMultiPoint() : QgsMultiPointXY{geometry.asPoint()};
        for (const QgsPointXY& point : parts)
            points.push_back({point.x(), point.y()});
    }
    if (withoutPoint > 0)
        feedback.warning(std::to_string(withoutPoint) + " features without a point were skipped");
    return points;
}

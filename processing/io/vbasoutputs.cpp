#include "vbasoutputs.h"

#include "vbasdisk.h"
#include "vbasfeaturerecords.h"
#include "vbasparameters.h"
#include "vbasqgiscompat.h"

#include <qgsfeatureiterator.h>
#include <qgsfeaturesink.h>
#include <qgsfeaturesource.h>
#include <qgsprocessingfeedback.h>
#include <qgsprocessingutils.h>
#include <qgsproviderregistry.h>

#include <QDir>
#include <QHash>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>

namespace
{
QgsField field(const QString& name, decltype(VbasCompat::FieldTypeInt) type)
{
    return QgsField(name, type);
}

/** Returns the geometry of engine WKB in the source CRS, as a multipolygon so every feature of a layer has
 * one type. */
QgsGeometry sourceMultiGeometry(const std::vector<unsigned char>& wkb, const VbasPlanarFrame& frame)
{
    QgsGeometry geometry;
    geometry.fromWkb(QByteArray(reinterpret_cast<const char*>(wkb.data()), int(wkb.size())));
    geometry = frame.toSource(geometry);
    geometry.convertToMultiType();
    return geometry;
}

/** The fields of the aggregated regions for review only, after the published ones. */
const char* const kReviewAggregateFields[] = {"suppressed_local", "suppressed_global", "suppressed_diversity",
                                              "anonymity_before", "suppressed_difference"};
/** The fate of each record, kept withheld ones (KEEP_SUPPRESSED) included. */
const QString kFateField = QStringLiteral("vbas_fate");

QString fateName(vbas::RecordFate fate)
{
    switch (fate)
    {
    case vbas::RecordFate::Released:
        return QStringLiteral("released");
    case vbas::RecordFate::SuppressedGlobally:
        return QStringLiteral("suppressed_global");
    case vbas::RecordFate::SuppressedLocally:
        return QStringLiteral("suppressed_local");
    case vbas::RecordFate::SuppressedDiversity:
        return QStringLiteral("suppressed_diversity");
    case vbas::RecordFate::SuppressedDifference:
        return QStringLiteral("suppressed_difference");
    case vbas::RecordFate::SuppressedSmallRow:
        return QStringLiteral("suppressed_row");
    case vbas::RecordFate::Dropped:
        break;
    }
    return QStringLiteral("dropped");
}
} // namespace

VbasRelease::VbasRelease(vbas::ReleaseResult whole)
    : vbas::ReleaseResult(std::move(whole))
    , aggregateIdField(QStringLiteral("aggregate_id"), VbasCompat::FieldTypeInt)
{
    for (std::size_t a = 0; a < result.aggregation.size(); ++a)
        aggregateIds.append(int(a + 1));
}

QString VbasRelease::criteriaNote() const
{
    return result.criteria.empty() ? QString()
                                   : QStringLiteral(" (%1)").arg(QString::fromStdString(result.criteria));
}

int VbasRelease::siteAggregate(std::size_t site) const
{
    const std::vector<vbas::SiteIndex>& aggregateSite = result.aggregation.aggregateSite;
    const auto found = std::find(aggregateSite.begin(), aggregateSite.end(), vbas::SiteIndex(site));
    return found == aggregateSite.end() ? -1 : int(found - aggregateSite.begin());
}

QVariant VbasRelease::siteAggregateId(std::size_t site) const
{
    const int aggregate = siteAggregate(site);
    return aggregate < 0 ? VbasCompat::nullOf(aggregateIdField.type()) : aggregateIds.at(aggregate);
}

VbasSink::VbasSink(QgsFeatureSink& sink, const QString& outputName, QgsProcessingFeedback& feedback,
                   VbasWrittenCounts* counts, const QString& destination)
    : VbasSink(&sink, nullptr, outputName, feedback, counts, destination)
{
}

VbasSink::VbasSink(VbasRecordSink& records, const QString& outputName, QgsProcessingFeedback& feedback,
                   VbasWrittenCounts* counts, const QString& destination)
    : VbasSink(nullptr, &records, outputName, feedback, counts, destination)
{
}

VbasSink::VbasSink(QgsFeatureSink* sink, VbasRecordSink* records, const QString& outputName,
                   QgsProcessingFeedback& feedback, VbasWrittenCounts* counts, const QString& destination)
    : mSink(sink)
    , mRecords(records)
    , mOutputName(outputName)
    , mDestination(destination)
    , mFeedback(feedback)
    , mCounts(counts)
{
    if (mCounts)
        mCounts->add(mOutputName, 0);
}

void VbasSink::add(QgsFeature& feature)
{
    // The algorithm's output guard removes what was written before the cancel.
    if (mFeedback.isCanceled())
        throw VbasParameters::canceledError();
    if (mRecords)
    {
        VbasCodedRows row; // one row, a value per column
        for (const QVariant& value : feature.attributes())
        {
            row.values.push_back({value});
            row.codes.push_back(0);
        }
        row.order.push_back(0);
        if (!mRecords->addRows(row, [](std::size_t) {}))
            throw refused();
    }
    else if (!mSink->addFeature(feature, QgsFeatureSink::FastInsert))
        throw refused();
    advance(1);
}

QgsProcessingException VbasSink::refused() const
{
    const QString file = QgsProviderRegistry::instance()
                             ->decodeUri(QStringLiteral("ogr"), mDestination)
                             .value(QStringLiteral("path"))
                             .toString();
    return QgsProcessingException(
        QObject::tr(
            "%1: could not write a feature to %2 (%3); is the disk full? Nothing was moved into place: "
            "the previous files are as they were")
            .arg(mOutputName,
                 file.isEmpty() ? QObject::tr("its destination") : QDir::toNativeSeparators(file),
                 VbasDisk::reason(mRecords ? mRecords->lastError() : mSink->lastError(), file)));
}

void VbasSink::advance(qint64 features)
{
    if (mCounts)
        mCounts->add(mOutputName, features);
    const qint64 before = mWritten;
    mWritten += features;
    // Every 4,096 features: the bar moves smoothly and costs nothing.
    if (mExpected > 0 && before / 4096 != mWritten / 4096)
        setProgress(mFrom + (1.0 - mFrom) * double(mWritten - mBase) / double(mExpected));
}

void VbasSink::addRows(const VbasCodedRows& rows, const QgsFields& fields)
{
    std::optional<VbasFeatureRecordSink> features;
    if (!mRecords)
        features.emplace(*mSink, fields);
    VbasRecordSink& records = mRecords ? *mRecords : *features;
    std::size_t reported = 0;
    const auto written = [&](std::size_t count)
    {
        if (mFeedback.isCanceled())
            throw VbasParameters::canceledError();
        advance(qint64(count - reported));
        reported = count;
    };
    if (!records.addRows(rows, written))
        throw refused();
}

void VbasSink::expect(qint64 features, double from)
{
    mExpected = features;
    mFrom = from;
    mBase = mWritten;
    setProgress(from);
}

void VbasSink::setProgress(double fraction)
{
    if (mFeedback.isCanceled())
        throw VbasParameters::canceledError();
    mFeedback.setProgress(100.0 * std::min(1.0, fraction));
}

QString VbasOutputs::metricOutputName(const std::string& id)
{
    return QString::fromStdString(id).section('.', -1).toUpper();
}

QgsFields VbasOutputs::aggregateFields(const VbasRelease& release, Audience audience)
{
    QgsFields fields;
    fields.append(release.aggregateIdField);
    for (const char* name : {"site_x", "site_y"})
        fields.append(field(name, VbasCompat::FieldTypeDouble));
    fields.append(field(QStringLiteral("regions"), VbasCompat::FieldTypeInt));
    for (const char* name : {"released", "classes", "anonymity_after"})
        fields.append(field(name, VbasCompat::FieldTypeLongLong));
    for (const char* name : {"mean_distance_m", "area_m2"})
        fields.append(field(name, VbasCompat::FieldTypeDouble));
    fields.append(field(QStringLiteral("parts"), VbasCompat::FieldTypeInt));
    fields.append(field(QStringLiteral("compactness"), VbasCompat::FieldTypeDouble));
    if (audience == Audience::Review)
        for (const char* name : kReviewAggregateFields)
            fields.append(field(name, VbasCompat::FieldTypeLongLong));
    return fields;
}

QString VbasOutputs::aggregateFieldInWords(const QString& field)
{
    static const QHash<QString, const char*> words{
        {QStringLiteral("site_x"), QT_TR_NOOP("x of the site")},
        {QStringLiteral("site_y"), QT_TR_NOOP("y of the site")},
        {QStringLiteral("regions"), QT_TR_NOOP("small areas")},
        {QStringLiteral("released"), QT_TR_NOOP("records released")},
        {QStringLiteral("classes"), QT_TR_NOOP("groups of look-alike records released")},
        {QStringLiteral("anonymity_after"), QT_TR_NOOP("anonymity after suppression (k)")},
        {QStringLiteral("mean_distance_m"), QT_TR_NOOP("mean distance to the site (m)")},
        {QStringLiteral("area_m2"), QT_TR_NOOP("area (m²)")},
        {QStringLiteral("parts"), QT_TR_NOOP("separate parts")},
        {QStringLiteral("compactness"), QT_TR_NOOP("compactness (Polsby-Popper, 1 for a disc)")},
        {QStringLiteral("suppressed_local"), QT_TR_NOOP("records withheld as too few in their region")},
        {QStringLiteral("suppressed_global"), QT_TR_NOOP("records withheld as rare in the whole data set")},
        {QStringLiteral("suppressed_diversity"), QT_TR_NOOP("records withheld for l-diversity")},
        {QStringLiteral("anonymity_before"), QT_TR_NOOP("anonymity before suppression")},
        {QStringLiteral("suppressed_difference"), QT_TR_NOOP("records withheld against earlier releases")}};
    const auto found = words.constFind(field);
    return found == words.constEnd() ? field : QObject::tr(found.value());
}

QStringList VbasOutputs::reviewOnlyFields()
{
    QStringList names{kFateField};
    for (const char* name : kReviewAggregateFields)
        names << QString::fromLatin1(name);
    return names;
}

QgsAttributes VbasOutputs::aggregateAttributes(const VbasRelease& release, std::size_t a,
                                               const VbasPlanarFrame& frame, Audience audience)
{
    const vbas::AggregateFigures& figures = release.result.aggregates[a];
    const vbas::DissolvedAggregate& polygon = release.polygons[a];
    const QgsPointXY site = frame.toSource(figures.sitePoint);
    QgsAttributes attributes(
        QVector<QVariant>{release.aggregateIds.at(int(a)), site.x(), site.y(), int(figures.memberRegions),
                          qlonglong(figures.recordsReleased), qlonglong(figures.classesReleased),
                          qlonglong(figures.anonymityAfter), figures.meanDistance,
                          frame.area(polygon.wkb, polygon.area), int(polygon.parts), polygon.compactness});
    if (audience == Audience::Publication)
        return attributes;
    const vbas::SuppressionOutcome& counts = release.result.suppression;
    // aggregateSuppressed counts every reason records are withheld in their aggregate: a group or a count
    // table's published row below k (suppressed_local), a group not l-diverse, or too close to an earlier
    // release's count.
    const vbas::Count diversity = counts.aggregateDiversitySuppressed[a];
    const vbas::Count difference = counts.aggregateDifferenceSuppressed[a];
    attributes << qlonglong(counts.aggregateSuppressed[a] - diversity - difference)
               << qlonglong(figures.recordsGloballySuppressed) << qlonglong(diversity)
               << qlonglong(figures.anonymityBefore) << qlonglong(difference);
    return attributes;
}

void VbasOutputs::writeAggregates(VbasSink& sink, const VbasRelease& release, const VbasPlanarFrame& frame,
                                  Audience audience)
{
    const QgsFields fields = aggregateFields(release, audience);
    sink.expect(qint64(release.result.aggregation.size()));
    for (std::size_t a = 0; a < release.result.aggregation.size(); ++a)
    {
        QgsFeature feature(fields);
        feature.setAttributes(aggregateAttributes(release, a, frame, audience));
        feature.setGeometry(sourceMultiGeometry(release.polygons[a].wkb, frame));
        sink.add(feature);
    }
}

QgsFields VbasOutputs::mappingFields(const QgsFields& regionFields, int regionIdField,
                                     const VbasRelease& release)
{
    QgsFields fields;
    fields.append(regionFields.at(regionIdField));
    fields.append(release.aggregateIdField);
    return fields;
}

void VbasOutputs::writeMapping(VbasSink& sink, QgsFeatureSource& regions, int regionIdField,
                               const VbasLoadedData& data, const VbasRelease& release)
{
    const QHash<QgsFeatureId, std::size_t> regionOf = vbasFeatureRows(data.regionFeatures);
    const QgsFields fields = mappingFields(regions.fields(), regionIdField, release);
    sink.expect(qint64(data.regionFeatures.size()));
    QgsFeatureIterator features =
        regions.getFeatures(QgsFeatureRequest().setSubsetOfAttributes(QgsAttributeList{regionIdField}));
    QgsFeature feature;
    while (features.nextFeature(feature))
    {
        const auto region = regionOf.constFind(feature.id());
        if (region == regionOf.constEnd())
            continue;
        QgsGeometry geometry = feature.geometry();
        geometry.convertToMultiType();
        QgsFeature out(fields);
        out.setAttributes(QVector<QVariant>{
            feature.attribute(regionIdField),
            release.aggregateIds.at(int(release.result.aggregation.regionAggregate[region.value()]))});
        out.setGeometry(geometry);
        sink.add(out);
    }
}

std::size_t VbasOutputs::RecordLayout::level(const VbasRelease& release, std::size_t j) const
{
    if (release.hierarchies() == nullptr || !(*release.hierarchies())[j])
        return 0;
    return release.generalization->levels[j];
}

QVector<QVariant> VbasOutputs::RecordLayout::releasedValues(const VbasRelease& release, std::size_t j,
                                                            const QVector<QVariant>& read) const
{
    const std::size_t at = level(release, j);
    if (at == 0)
        return read;
    const vbas::Hierarchy& hierarchy = (*release.hierarchies())[j]->hierarchy;
    QVector<QVariant> values;
    for (std::uint32_t group = 0; group < hierarchy.groups(at); ++group)
        values << (hierarchy.isNull(at, group)
                       ? QVariant()
                       : QVariant(QString::fromStdString(hierarchy.label(at, group))));
    return values;
}

QgsFields VbasOutputs::recordFields(const QgsFields& fields, const RecordLayout& layout,
                                    const VbasRelease& release)
{
    QgsFields published;
    if (layout.rowId)
        published.append(field(QStringLiteral("row_id"), VbasCompat::FieldTypeInt));
    // The region of each record, named as in the regions layer it joins (not as the small-area field it
    // replaces: it holds no small area).
    published.append(release.aggregateIdField);
    for (int j = 0; j < layout.roles.quasiIdentifiers.size(); ++j)
    {
        const QgsField& original = fields.at(layout.roles.quasiIdentifiers.at(j));
        published.append(layout.level(release, std::size_t(j)) > 0
                             ? field(original.name(), VbasCompat::FieldTypeString)
                             : original);
    }
    for (const int index : layout.roles.publishedValues())
        published.append(fields.at(index));
    if (layout.roles.count >= 0)
        published.append(field(fields.at(layout.roles.count).name(), VbasCompat::FieldTypeLongLong));
    if (layout.flagFates)
        published.append(field(kFateField, VbasCompat::FieldTypeString));
    return published;
}

void VbasOutputs::writeRecords(VbasSink& sink, const QgsFields& fields, const RecordLayout& layout,
                               const VbasLoadedData& data, const VbasRelease& release)
{
    const vbas::Dataset& dataset = *data.dataset;
    const VbasLoadedData::RecordValues& read = data.recordValues;
    const std::size_t q = std::size_t(layout.roles.quasiIdentifiers.size());
    const std::size_t p = std::size_t(layout.roles.publishedValues().size());
    const bool merged = layout.roles.count >= 0;
    static constexpr vbas::RecordFate kFates[] = {vbas::RecordFate::Released,
                                                  vbas::RecordFate::SuppressedGlobally,
                                                  vbas::RecordFate::SuppressedLocally,
                                                  vbas::RecordFate::Dropped,
                                                  vbas::RecordFate::SuppressedDiversity,
                                                  vbas::RecordFate::SuppressedDifference,
                                                  vbas::RecordFate::SuppressedSmallRow};

    // The columns as recordFields() lays them out (row_id aside): region, quasi-identifiers, published
    // values, count, fate.
    VbasCodedRows rows;
    rows.numbered = layout.rowId;
    QVector<QVariant> aggregates = release.aggregateIds;
    const auto withheld = std::uint32_t(aggregates.size());
    aggregates << VbasCompat::nullOf(release.aggregateIdField.type());
    rows.values.push_back(aggregates);
    // A generalized quasi-identifier: the labels of its groups at its level, then the text of each value as
    // read, for a dropped row (review only), which has no class to generalize.
    std::vector<std::size_t> levels(q);
    for (std::size_t j = 0; j < q; ++j)
    {
        levels[j] = layout.level(release, j);
        QVector<QVariant> column = layout.releasedValues(release, j, read.values[j]);
        if (levels[j] > 0)
            for (const QVariant& value : read.values[j])
                column << QVariant(vbasKeyText(value));
        rows.values.push_back(column);
    }
    for (std::size_t j = 0; j < p; ++j)
        rows.values.push_back(read.values[q + j]);
    const std::size_t countColumn = rows.columns();
    if (merged)
        rows.values.emplace_back(); // filled once the rows are merged
    if (layout.flagFates)
    {
        QVector<QVariant> fates;
        for (const vbas::RecordFate fate : kFates)
            fates << fateName(fate);
        rows.values.push_back(fates);
    }

    const std::size_t width = rows.columns();
    // A pre-aggregated input's rows merged by everything but the count.
    std::unordered_map<std::string, std::uint32_t> mergedRow;
    std::vector<qlonglong> counts;
    std::vector<std::uint32_t> row(width, 0);
    for (std::size_t r = 0; r < dataset.rows(); ++r)
    {
        if (r % 65536 == 0)
            sink.setProgress(0.1 * double(r) / double(dataset.rows()));
        const vbas::RecordFate fate = release.fates[r];
        if (fate != vbas::RecordFate::Released && !layout.flagFates)
            continue;
        row[0] = fate == vbas::RecordFate::Released
                     ? std::uint32_t(release.result.aggregation.regionAggregate[dataset.rowRegion(r)])
                     : withheld;
        for (std::size_t j = 0; j < q; ++j)
        {
            const std::uint32_t code = read.quasiIdentifierCodes[r * q + j];
            if (levels[j] == 0)
                row[1 + j] = code;
            else
            {
                const vbas::Hierarchy& hierarchy = (*release.hierarchies())[j]->hierarchy;
                row[1 + j] = dataset.rowClass(r) == vbas::kNoClass
                                 ? std::uint32_t(hierarchy.groups(levels[j])) + code
                                 : hierarchy.group(levels[j], code);
            }
        }
        std::copy_n(read.publishedCodes.begin() + std::ptrdiff_t(r * p), p,
                    row.begin() + std::ptrdiff_t(1 + q));
        if (layout.flagFates)
            row[width - 1] = std::uint32_t(std::find(std::begin(kFates), std::end(kFates), fate) - kFates);
        const auto index = std::uint32_t(rows.codes.size() / width);
        if (!merged)
        {
            // A group counted by the database is as many identical records.
            rows.codes.insert(rows.codes.end(), row.begin(), row.end());
            rows.order.insert(rows.order.end(), std::size_t(dataset.rowCount(r)), index);
            continue;
        }
        const auto [found, added] = mergedRow.try_emplace(
            std::string(reinterpret_cast<const char*>(row.data()), row.size() * sizeof(std::uint32_t)),
            index);
        if (!added)
        {
            counts[found->second] += qlonglong(dataset.rowCount(r));
            continue;
        }
        rows.codes.insert(rows.codes.end(), row.begin(), row.end());
        rows.order.push_back(index);
        counts.push_back(qlonglong(dataset.rowCount(r)));
    }
    if (merged)
    {
        // The summed counts as one more coded column.
        std::unordered_map<qlonglong, std::uint32_t> countCode;
        for (std::size_t i = 0; i < counts.size(); ++i)
        {
            const auto [found, added] = countCode.try_emplace(counts[i], std::uint32_t(countCode.size()));
            if (added)
                rows.values[countColumn] << counts[i];
            rows.codes[i * width + countColumn] = found->second;
        }
    }

    // The order of the input (sorted by small area, say) must not survive: shuffled from the operating
    // system's randomness, which no parameter can repeat.
    std::random_device entropy;
    std::seed_seq seed{entropy(), entropy(), entropy(), entropy(),
                       entropy(), entropy(), entropy(), entropy()};
    std::shuffle(rows.order.begin(), rows.order.end(), std::mt19937_64(seed));

    sink.expect(qint64(rows.order.size()), 0.1);
    sink.addRows(rows, recordFields(fields, layout, release));
}

QgsFields VbasOutputs::siteFields(const VbasRelease* release)
{
    QgsFields fields;
    fields.append(field(QStringLiteral("site_id"), VbasCompat::FieldTypeInt));
    fields.append(field(QStringLiteral("weight"), VbasCompat::FieldTypeDouble));
    if (release)
    {
        fields.append(release->aggregateIdField);
        fields.append(field(QStringLiteral("regions"), VbasCompat::FieldTypeInt));
    }
    return fields;
}

void VbasOutputs::writeSites(VbasSink& sink, const vbas::Sites& sites, const VbasPlanarFrame& frame,
                             const VbasRelease* release)
{
    const QgsFields fields = siteFields(release);
    sink.expect(qint64(sites.points.size()));
    for (std::size_t s = 0; s < sites.points.size(); ++s)
    {
        QgsAttributes attributes;
        attributes << int(s + 1) << (sites.weights.empty() ? 0.0 : sites.weights[s]);
        if (release)
        {
            const int aggregate = release->siteAggregate(s);
            attributes << release->siteAggregateId(s)
                       << (aggregate < 0
                               ? 0
                               : int(release->result.aggregation.memberCount(std::size_t(aggregate))));
        }
        QgsFeature feature(fields);
        feature.setAttributes(attributes);
        feature.setGeometry(QgsGeometry::fromPointXY(frame.toSource(sites.points[s])));
        sink.add(feature);
    }
}

QgsFields VbasOutputs::cellFields(const VbasRelease& release)
{
    QgsFields fields;
    fields.append(field(QStringLiteral("site_id"), VbasCompat::FieldTypeInt));
    fields.append(release.aggregateIdField);
    return fields;
}

void VbasOutputs::writeCells(VbasSink& sink, const VbasRelease& release, const VbasPlanarFrame& frame)
{
    const QgsFields fields = cellFields(release);
    const std::vector<std::vector<unsigned char>>& cells = release.cells.wkb;
    sink.expect(qint64(cells.size() - release.cells.withoutCell.size()));
    for (std::size_t s = 0; s < cells.size(); ++s)
    {
        if (cells[s].empty())
            continue;
        QgsFeature feature(fields);
        feature.setAttributes(QgsAttributes() << int(s + 1) << release.siteAggregateId(s));
        feature.setGeometry(sourceMultiGeometry(cells[s], frame));
        sink.add(feature);
    }
}

QString VbasOutputs::sitesWithoutCell(const VbasRelease& release)
{
    const std::vector<vbas::SiteWithoutCell>& without = release.cells.withoutCell;
    if (without.empty())
        return QString();
    QStringList reasons;
    for (const auto& [reason, text] :
         {std::pair(vbas::NoCell::SameLocation, QObject::tr("standing where another site stands")),
          std::pair(vbas::NoCell::Hidden, QObject::tr("outweighed by their neighbours' power weights")),
          std::pair(vbas::NoCell::OutsideArea, QObject::tr("with a cell outside the study area"))})
    {
        QStringList sites;
        for (const vbas::SiteWithoutCell& site : without)
            if (site.reason == reason)
                sites << QString::number(site.site + 1);
        if (sites.isEmpty())
            continue;
        const qsizetype count = sites.size();
        if (count > 10)
            sites = sites.mid(0, 10) << QStringLiteral("...");
        reasons
            << QObject::tr("%1: %2 (site_id %3)").arg(text).arg(count).arg(sites.join(QStringLiteral(", ")));
    }
    return QObject::tr(
               "%1 of %2 sites have no cell, as no point of the study area is nearest to them alone: %3")
        .arg(without.size())
        .arg(release.cells.wkb.size())
        .arg(reasons.join(QStringLiteral("; ")));
}

QString VbasOutputs::generalizationLevels(const vbas::Hierarchies& hierarchies,
                                          const std::vector<std::size_t>& levels)
{
    QStringList named;
    for (std::size_t j = 0; j < hierarchies.size(); ++j)
        if (hierarchies[j])
            named << QStringLiteral("%1 %2").arg(
                QString::fromStdString(hierarchies[j]->hierarchy.quasiIdentifier()),
                QString::fromStdString(hierarchies[j]->hierarchy.levelName(levels.at(j))));
    return named.join(QStringLiteral(", "));
}

QgsFields VbasOutputs::comparisonFields()
{
    QgsFields fields;
    for (const char* name : {"site_count_method", "site_location", "refinement", "generalization"})
        fields.append(field(name, VbasCompat::FieldTypeString));
    for (const char* name : {"site_count", "aggregates"})
        fields.append(field(name, VbasCompat::FieldTypeInt));
    for (const vbas::MetricEntry& metric : vbas::Registry::builtIn().metrics)
        fields.append(field(metricOutputName(metric.id).toLower(), VbasCompat::FieldTypeDouble));
    fields.append(field(QStringLiteral("attribute_loss"), VbasCompat::FieldTypeDouble));
    fields.append(field(QStringLiteral("pareto_optimal"), VbasCompat::FieldTypeBool));
    return fields;
}

namespace
{
QgsAttributes comparisonAttributes(const vbas::SweepRow& row, const vbas::PipelineConfig& config,
                                   const vbas::Hierarchies& hierarchies)
{
    QgsAttributes attributes;
    attributes << QString::fromStdString(config.siteCounter) << QString::fromStdString(config.siteLocator)
               << (config.siteRefiner.empty() ? QStringLiteral("none")
                                              : QString::fromStdString(config.siteRefiner))
               << (!hierarchies.empty() && !row.levels.empty()
                       ? QVariant(VbasOutputs::generalizationLevels(hierarchies, row.levels))
                       : VbasCompat::nullOf(VbasCompat::FieldTypeString))
               << int(row.siteCount) << int(row.result.aggregation.size());
    for (const vbas::MetricValue& metric : row.result.metrics)
        attributes << metric.value;
    attributes << row.attributeLoss << row.paretoOptimal;
    return attributes;
}
} // namespace

QList<QgsAttributes> VbasOutputs::comparisonTable(const vbas::ComparisonResult& comparison,
                                                  const std::vector<vbas::PipelineConfig>& configs)
{
    QList<QgsAttributes> table;
    for (std::size_t r = 0; r < comparison.rows.size(); ++r)
        table << comparisonAttributes(comparison.rows[r], configs[comparison.rowConfig[r]],
                                      comparison.hierarchies);
    return table;
}

void VbasOutputs::writeComparison(VbasSink& sink, const QList<QgsAttributes>& table)
{
    const QgsFields fields = comparisonFields();
    for (const QgsAttributes& attributes : table)
    {
        QgsFeature feature(fields);
        feature.setAttributes(attributes);
        sink.add(feature);
    }
}

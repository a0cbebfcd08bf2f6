#include "vbasoutputs.h"

#include "vbasarrowrecords.h"
#include "vbasoutputguard.h"
#include "vbasparameters.h"
#include "vbasqgiscompat.h"

#include <qgsfeatureiterator.h>
#include <qgsfeaturesink.h>
#include <qgsfeaturesource.h>
#include <qgsprocessingfeedback.h>
#include <qgsprocessingutils.h>

#include <numeric>
#include <random>

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

int VbasRelease::siteAggregate(std::size_t site) const
{
    const std::vector<vbas::SiteIndex>& aggregateSite = result.aggregation.aggregateSite;
    const auto found = std::find(aggregateSite.begin(), aggregateSite.end(), vbas::SiteIndex(site));
    return found == aggregateSite.end() ? -1 : int(found - aggregateSite.begin());
}

QVariant VbasRelease::siteAggregateId(std::size_t site) const
{
    const int aggregate = siteAggregate(site);
    return aggregate < 0 ? QVariant(aggregateIdField.type()) : aggregateIds.at(aggregate);
}

VbasSink::VbasSink(QgsFeatureSink& sink, const QString& outputName, QgsProcessingFeedback& feedback)
    : mSink(sink)
    , mOutputName(outputName)
    , mFeedback(feedback)
{
    VbasOutputGuard::countWritten(mOutputName, 0);
}

void VbasSink::add(QgsFeature& feature)
{
    // The algorithm's output guard removes what was written before the cancel.
    if (mFeedback.isCanceled())
        throw VbasParameters::canceledError();
    if (!mSink.addFeature(feature, QgsFeatureSink::FastInsert))
        throw QgsProcessingException(
            QObject::tr(
                "%1: could not write a feature (%2); is the disk full? Nothing was moved into place: the "
                "previous files are as they were")
                .arg(mOutputName, mSink.lastError()));
    VbasOutputGuard::countWritten(mOutputName, 1);
    // Every 4,096 features: the bar moves smoothly and costs nothing.
    if (++mWritten % 4096 == 0 && mExpected > 0)
        setProgress(mFrom + (1.0 - mFrom) * double(mWritten - mBase) / double(mExpected));
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
        for (const char* name :
             {"suppressed_local", "suppressed_global", "suppressed_diversity", "anonymity_before"})
            fields.append(field(name, VbasCompat::FieldTypeLongLong));
    return fields;
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
    const vbas::Release& counts = release.result.release;
    // aggregateSuppressed counts both reasons a group is withheld in its aggregate: below k, or not
    // l-diverse.
    const vbas::Count diversity = counts.aggregateDiversitySuppressed[a];
    attributes << qlonglong(counts.aggregateSuppressed[a] - diversity)
               << qlonglong(figures.recordsGloballySuppressed) << qlonglong(diversity)
               << qlonglong(figures.anonymityBefore);
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
                               const VbasJobData& data, const VbasRelease& release)
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
    if (hierarchies == nullptr || !release.generalization || !(*hierarchies)[j])
        return 0;
    return release.generalization->levels[j];
}

QgsFields VbasOutputs::recordFields(const QgsFields& fields, const RecordLayout& layout,
                                    const VbasRelease& release)
{
    QgsFields published;
    if (layout.rowId)
        published.append(field(QStringLiteral("row_id"), VbasCompat::FieldTypeInt));
    QgsField aggregate = release.aggregateIdField;
    aggregate.setName(fields.at(layout.roles.region).name());
    published.append(aggregate);
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
        published.append(field(QStringLiteral("vbas_fate"), VbasCompat::FieldTypeString));
    return published;
}

void VbasOutputs::writeRecords(VbasSink& sink, QgsFeatureSource& records, const QgsVectorLayer* recordsLayer,
                               const RecordLayout& layout, const VbasJobData& data,
                               const VbasRelease& release)
{
    const vbas::Dataset& dataset = *data.dataset;
    const std::vector<vbas::RecordFate>& fates = release.fates;
    const QHash<QgsFeatureId, std::size_t> rowOf = vbasFeatureRows(data.recordFeatures);
    const QList<int> values = layout.roles.quasiIdentifiers + layout.roles.publishedValues();
    const bool merged = layout.roles.count >= 0;

    // The published rows, without row_id; a pre-aggregated input's rows merged by everything but the count.
    std::vector<QgsAttributes> rows;
    std::vector<qlonglong> counts;
    QHash<QString, std::size_t> mergedRow;
    // Reading the records again is half the work, writing them the other half. Grouped by the database
    // when the job's were: read in the job's order, so that the rows are numbered alike.
    VbasRecordRows features(records, recordsLayer, layout.roles.readFields(),
                            data.recordsGrouped ? VbasGrouping::Database : VbasGrouping::Rows);
    if (features.grouped() != data.recordsGrouped)
        throw QgsProcessingException(
            QObject::tr("RECORDS: the database no longer groups the records as it did when they were read"));
    const long expected = features.expectedRows();
    const double perFeature = expected > 0 ? 0.5 / double(expected) : 0.0;
    qint64 read = 0;
    QgsFeatureId id = 0;
    QVector<QVariant> feature;
    while (features.next(id, feature))
    {
        if (++read % 4096 == 0)
            sink.setProgress(perFeature * double(read));
        const auto row = rowOf.constFind(id);
        if (row == rowOf.constEnd())
            continue;
        const vbas::RecordFate fate = fates[row.value()];
        if (fate != vbas::RecordFate::Released && !layout.flagFates)
            continue;
        QgsAttributes attributes;
        attributes << (fate == vbas::RecordFate::Released
                           ? release.aggregateIds.at(int(
                                 release.result.aggregation.regionAggregate[dataset.rowRegion(row.value())]))
                           : QVariant(release.aggregateIdField.type()));
        const std::size_t q = std::size_t(layout.roles.quasiIdentifiers.size());
        for (int i = 0; i < values.size(); ++i)
        {
            const std::size_t level = std::size_t(i) < q ? layout.level(release, std::size_t(i)) : 0;
            const QVariant& value = feature.at(i);
            const vbas::ClassId cls = dataset.rowClass(row.value());
            if (level == 0 || cls == vbas::kNoClass)
            {
                // A dropped row (review only) has no class: its value as it is.
                attributes << (level == 0 ? value : QVariant(vbasKeyText(value)));
                continue;
            }
            const vbas::Hierarchy& hierarchy = (*layout.hierarchies)[std::size_t(i)]->hierarchy;
            const std::uint32_t group = hierarchy.group(level, dataset.classes().codes(cls)[i]);
            attributes << (hierarchy.isNull(level, group)
                               ? QVariant()
                               : QVariant(QString::fromStdString(hierarchy.label(level, group))));
        }
        if (layout.flagFates)
            attributes << fateName(fate);
        if (!merged)
        {
            // A group counted by the database is as many identical records.
            rows.insert(rows.end(), std::size_t(dataset.rowCount(row.value())), attributes);
            continue;
        }
        QStringList key;
        for (const QVariant& value : attributes)
            key << vbasValueKey(value);
        const QString joined = key.join(QChar(0x1f));
        const auto found = mergedRow.constFind(joined);
        if (found != mergedRow.constEnd())
        {
            counts[found.value()] += qlonglong(dataset.rowCount(row.value()));
            continue;
        }
        mergedRow.insert(joined, rows.size());
        rows.push_back(attributes);
        counts.push_back(qlonglong(dataset.rowCount(row.value())));
    }

    if (features.digest() != data.recordsDigest)
        throw QgsProcessingException(
            QObject::tr("RECORDS changed while the release ran (the database's groups differ from those the "
                        "release was computed on); nothing is written: run it again on a table no one edits "
                        "meanwhile"));

    // The order of the input (sorted by small area, say) must not survive: shuffled from the operating
    // system's randomness, which no parameter can repeat.
    std::vector<std::size_t> order(rows.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::random_device entropy;
    std::seed_seq seed{entropy(), entropy(), entropy(), entropy(),
                       entropy(), entropy(), entropy(), entropy()};
    std::shuffle(order.begin(), order.end(), std::mt19937_64(seed));

    const QgsFields fields = recordFields(records.fields(), layout, release);
    sink.expect(qint64(order.size()), 0.5);
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        QgsAttributes& published = rows[order[i]];
        if (merged)
        {
            // The count goes before vbas_fate, as recordFields() lays it out.
            const int at = layout.flagFates ? published.size() - 1 : published.size();
            published.insert(at, counts[order[i]]);
        }
        if (layout.rowId)
            published.prepend(int(i + 1));
        QgsFeature out(fields);
        out.setAttributes(published);
        sink.add(out);
    }
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
    sink.expect(qint64(release.cells.size()));
    for (std::size_t s = 0; s < release.cells.size(); ++s)
    {
        if (release.cells[s].empty())
            continue;
        QgsFeature feature(fields);
        feature.setAttributes(QgsAttributes() << int(s + 1) << release.siteAggregateId(s));
        feature.setGeometry(sourceMultiGeometry(release.cells[s], frame));
        sink.add(feature);
    }
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
                                   const vbas::Hierarchies* hierarchies)
{
    QgsAttributes attributes;
    attributes << QString::fromStdString(config.siteCounter) << QString::fromStdString(config.siteLocator)
               << (config.siteRefiner.empty() ? QStringLiteral("none")
                                              : QString::fromStdString(config.siteRefiner))
               << (hierarchies != nullptr && !row.levels.empty()
                       ? QVariant(VbasOutputs::generalizationLevels(*hierarchies, row.levels))
                       : QVariant(QVariant::String))
               << int(row.siteCount) << int(row.result.aggregation.size());
    for (const vbas::MetricValue& metric : row.result.metrics)
        attributes << metric.value;
    attributes << row.attributeLoss << row.paretoOptimal;
    return attributes;
}
} // namespace

QList<QgsAttributes> VbasOutputs::comparisonTable(const vbas::ComparisonResult& comparison,
                                                  const std::vector<vbas::PipelineConfig>& configs,
                                                  const vbas::Hierarchies* hierarchies)
{
    QList<QgsAttributes> table;
    for (std::size_t r = 0; r < comparison.rows.size(); ++r)
        table << comparisonAttributes(comparison.rows[r], configs[comparison.rowConfig[r]], hierarchies);
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

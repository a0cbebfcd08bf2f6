#include "vbasoutputs.h"

#include "vbasalgorithmbase.h"
#include "vbasoutputguard.h"
#include "vbasqgiscompat.h"

#include <qgsfeatureiterator.h>
#include <qgsfeaturesink.h>
#include <qgsfeaturesource.h>
#include <qgsprocessingfeedback.h>
#include <qgsprocessingutils.h>

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
    case vbas::RecordFate::Dropped:
        break;
    }
    return QStringLiteral("dropped");
}
} // namespace

void VbasRelease::numberAggregates()
{
    aggregateIdField = QgsField(QStringLiteral("aggregate_id"), VbasCompat::FieldTypeInt);
    aggregateIds.clear();
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
        throw VbasAlgorithmBase::canceledError();
    if (!mSink.addFeature(feature, QgsFeatureSink::FastInsert))
        throw QgsProcessingException(
            QObject::tr("%1: could not write a feature: %2").arg(mOutputName, mSink.lastError()));
    VbasOutputGuard::countWritten(mOutputName, 1);
}

QString VbasOutputs::metricOutputName(const std::string& id)
{
    return QString::fromStdString(id).section('.', -1).toUpper();
}

QgsFields VbasOutputs::aggregateFields(const VbasRelease& release)
{
    QgsFields fields;
    fields.append(release.aggregateIdField);
    for (const char* name : {"site_x", "site_y"})
        fields.append(field(name, VbasCompat::FieldTypeDouble));
    fields.append(field(QStringLiteral("regions"), VbasCompat::FieldTypeInt));
    for (const char* name : {"released", "suppressed_local", "suppressed_global", "classes",
                             "anonymity_before", "anonymity_after"})
        fields.append(field(name, VbasCompat::FieldTypeLongLong));
    for (const char* name : {"mean_distance_m", "area_m2"})
        fields.append(field(name, VbasCompat::FieldTypeDouble));
    fields.append(field(QStringLiteral("parts"), VbasCompat::FieldTypeInt));
    fields.append(field(QStringLiteral("compactness"), VbasCompat::FieldTypeDouble));
    return fields;
}

QgsAttributes VbasOutputs::aggregateAttributes(const VbasRelease& release, std::size_t a,
                                               const vbas::Dataset& dataset, const VbasPlanarFrame& frame)
{
    const vbas::Aggregation& aggregation = release.result.aggregation;
    const vbas::AggregateFigures& figures = release.result.aggregates[a];
    const vbas::DissolvedAggregate& polygon = release.polygons[a];
    vbas::Count loaded = 0; // records of the members before any suppression
    for (std::size_t m = aggregation.memberOffsets[a]; m < aggregation.memberOffsets[a + 1]; ++m)
        loaded += dataset.regionHistograms().total(aggregation.members[m]);
    const QgsPointXY site = frame.toSource(figures.sitePoint);
    return QVector<QVariant>{release.aggregateIds.at(int(a)),
                             site.x(),
                             site.y(),
                             int(figures.memberRegions),
                             qlonglong(figures.recordsReleased),
                             qlonglong(figures.recordsSuppressed),
                             qlonglong(loaded - figures.recordsBefore),
                             qlonglong(figures.classesReleased),
                             qlonglong(figures.anonymityBefore),
                             qlonglong(figures.anonymityAfter),
                             figures.meanDistance,
                             polygon.area,
                             int(polygon.parts),
                             polygon.compactness};
}

void VbasOutputs::writeAggregates(VbasSink& sink, const VbasRelease& release, const vbas::Dataset& dataset,
                                  const VbasPlanarFrame& frame)
{
    const QgsFields fields = aggregateFields(release);
    for (std::size_t a = 0; a < release.result.aggregation.size(); ++a)
    {
        QgsFeature feature(fields);
        feature.setAttributes(aggregateAttributes(release, a, dataset, frame));
        feature.setGeometry(sourceMultiGeometry(release.polygons[a].wkb, frame));
        sink.add(feature);
    }
}

QgsFields VbasOutputs::mappingFields(const QgsFields& regionFields, const VbasRelease& release)
{
    QgsFields added;
    added.append(release.aggregateIdField);
    return QgsProcessingUtils::combineFields(regionFields, added);
}

void VbasOutputs::writeMapping(VbasSink& sink, QgsFeatureSource& regions, const VbasJobData& data,
                               const VbasRelease& release)
{
    const QHash<QgsFeatureId, std::size_t> regionOf = vbasFeatureRows(data.regionFeatures);
    const QgsFields fields = mappingFields(regions.fields(), release);
    QgsFeatureIterator features = regions.getFeatures();
    QgsFeature feature;
    while (features.nextFeature(feature))
    {
        const auto region = regionOf.constFind(feature.id());
        if (region == regionOf.constEnd())
            continue;
        QgsAttributes attributes = feature.attributes();
        attributes.append(
            release.aggregateIds.at(int(release.result.aggregation.regionAggregate[region.value()])));
        QgsGeometry geometry = feature.geometry();
        geometry.convertToMultiType();
        QgsFeature out(fields);
        out.setAttributes(attributes);
        out.setGeometry(geometry);
        sink.add(out);
    }
}

QgsFields VbasOutputs::recordFields(const QgsFields& fields, int regionField, const VbasRelease& release,
                                    bool flagFates)
{
    QgsField aggregate = release.aggregateIdField;
    aggregate.setName(fields.at(regionField).name());
    QgsFields replaced;
    for (int i = 0; i < fields.count(); ++i)
        replaced.append(i == regionField ? aggregate : fields.at(i));
    if (!flagFates)
        return replaced;
    QgsFields fate;
    fate.append(field(QStringLiteral("vbas_fate"), VbasCompat::FieldTypeString));
    return QgsProcessingUtils::combineFields(replaced, fate);
}

void VbasOutputs::writeRecords(VbasSink& sink, QgsFeatureSource& records, int regionField,
                               const VbasJobData& data, const VbasRelease& release, bool flagFates)
{
    const vbas::Dataset& dataset = *data.dataset;
    const std::vector<vbas::RecordFate> fates = vbas::recordFates(dataset, release.result);
    const QHash<QgsFeatureId, std::size_t> rowOf = vbasFeatureRows(data.recordFeatures);
    const QgsFields fields = recordFields(records.fields(), regionField, release, flagFates);
    QgsFeatureRequest request;
    request.setFlags(VbasCompat::RequestNoGeometry);
    QgsFeatureIterator features = records.getFeatures(request);
    QgsFeature feature;
    while (features.nextFeature(feature))
    {
        const auto row = rowOf.constFind(feature.id());
        if (row == rowOf.constEnd())
            continue;
        const vbas::RecordFate fate = fates[row.value()];
        if (fate != vbas::RecordFate::Released && !flagFates)
            continue;
        QgsAttributes attributes = feature.attributes();
        attributes[regionField] =
            fate == vbas::RecordFate::Released
                ? release.aggregateIds.at(
                      int(release.result.aggregation.regionAggregate[dataset.rowRegion(row.value())]))
                : QVariant(release.aggregateIdField.type());
        if (flagFates)
            attributes.append(fateName(fate));
        QgsFeature out(fields);
        out.setAttributes(attributes);
        sink.add(out);
    }
}

QgsFields VbasOutputs::siteFields(const VbasRelease* release)
{
    QgsFields fields;
    fields.append(field(QStringLiteral("site_id"), VbasCompat::FieldTypeInt));
    if (release)
    {
        fields.append(release->aggregateIdField);
        fields.append(field(QStringLiteral("regions"), VbasCompat::FieldTypeInt));
    }
    return fields;
}

void VbasOutputs::writeSites(VbasSink& sink, const std::vector<vbas::Point>& sites,
                             const VbasPlanarFrame& frame, const VbasRelease* release)
{
    const QgsFields fields = siteFields(release);
    for (std::size_t s = 0; s < sites.size(); ++s)
    {
        QgsAttributes attributes;
        attributes << int(s + 1);
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
        feature.setGeometry(QgsGeometry::fromPointXY(frame.toSource(sites[s])));
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

QgsFields VbasOutputs::comparisonFields()
{
    QgsFields fields;
    for (const char* name : {"site_count_method", "site_location", "refinement"})
        fields.append(field(name, VbasCompat::FieldTypeString));
    for (const char* name : {"site_count", "aggregates"})
        fields.append(field(name, VbasCompat::FieldTypeInt));
    for (const vbas::MetricEntry& metric : vbas::Registry::builtIn().metrics)
        fields.append(field(metricOutputName(metric.id).toLower(), VbasCompat::FieldTypeDouble));
    fields.append(field(QStringLiteral("pareto_optimal"), VbasCompat::FieldTypeBool));
    return fields;
}

QgsAttributes VbasOutputs::comparisonAttributes(const vbas::SweepRow& row, const vbas::PipelineConfig& config)
{
    QgsAttributes attributes;
    attributes << QString::fromStdString(config.siteCounter) << QString::fromStdString(config.siteLocator)
               << (config.siteRefiner.empty() ? QStringLiteral("none")
                                              : QString::fromStdString(config.siteRefiner))
               << int(row.siteCount) << int(row.result.aggregation.size());
    for (const vbas::MetricValue& metric : row.result.metrics)
        attributes << metric.value;
    attributes << row.paretoOptimal;
    return attributes;
}

qlonglong VbasOutputs::writeComparison(VbasSink& sink, const std::vector<vbas::SweepRow>& rows,
                                       const std::vector<const vbas::PipelineConfig*>& rowConfigs)
{
    const QgsFields fields = comparisonFields();
    qlonglong paretoRows = 0;
    for (std::size_t r = 0; r < rows.size(); ++r)
    {
        paretoRows += rows[r].paretoOptimal ? 1 : 0;
        QgsFeature feature(fields);
        feature.setAttributes(comparisonAttributes(rows[r], *rowConfigs[r]));
        sink.add(feature);
    }
    return paretoRows;
}

#include "vbasalgorithmrate.h"

#include <qgsfeatureiterator.h>

#include <QMap>

void VbasAlgorithmRate::initAlgorithm(const QVariantMap&)
{
    addDataParameters();
    auto* aggregate = new QgsProcessingParameterField(
        kAggregateField, QObject::tr("Aggregate of each small area"), QVariant(), kRegions);
    aggregate->setHelp(
        QObject::tr("A field of the small areas naming the region each belongs to (a town, a "
                    "health district, an earlier release). Compared as text; NULL is not allowed."));
    addParameter(aggregate);
    addReleaseOutputs(false);
}

QString VbasAlgorithmRate::name() const
{
    return QStringLiteral("rateaggregation");
}

QString VbasAlgorithmRate::displayName() const
{
    return QObject::tr("Rate an existing aggregation");
}

QStringList VbasAlgorithmRate::tags() const
{
    return QObject::tr("k-anonymity,rate,quality,metrics,aggregation,regions,districts,suppression")
        .split(',');
}

QString VbasAlgorithmRate::group() const
{
    return QObject::tr("Evaluation");
}

QString VbasAlgorithmRate::groupId() const
{
    return QStringLiteral("evaluation");
}

QString VbasAlgorithmRate::shortHelpString() const
{
    return QObject::tr(
        "Rates any aggregation of the small areas, for example towns or health districts, the way VBAS rates "
        "its own: the records that stay in groups smaller than k inside their aggregate are suppressed, and "
        "every quality metric is computed, so the aggregation can be compared with a VBAS release.\n\n"
        "AGGREGATE_FIELD names the aggregate of each small area; every small area needs one. An aggregation "
        "has no sites: distances are measured to the mean of each aggregate's small-area points, and "
        "site_x/site_y hold that mean.\n\n"
        "Publishable outputs: the aggregated regions with their figures (aggregate_id holds the field's "
        "values), the anonymized records (only fields with a role, in a random order) and a map image. For "
        "review only: OUTPUT_REVIEW with the withheld counts, and the HTML report. Release only one "
        "aggregation of the same records, ever.");
}

QString VbasAlgorithmRate::shortDescription() const
{
    return QObject::tr(
        "Rates any aggregation (towns, districts, an earlier release) the way VBAS rates its own.");
}

VbasAlgorithmRate* VbasAlgorithmRate::createInstance() const
{
    return new VbasAlgorithmRate();
}

VbasRelease VbasAlgorithmRate::computeRelease(const vbas::Pipeline& pipeline, const Job& job,
                                              const vbas::ReleaseRequest& request,
                                              const QVariantMap& parameters, QgsProcessingContext& context,
                                              QgsProcessingFeedback* feedback) const
{
    const int field = parameterAsFieldIndex(parameters, kAggregateField, job.regions->fields(), context);

    // Aggregates are numbered in text order of their values, so results do not depend on feature order.
    const QHash<QgsFeatureId, std::size_t> regionOf = vbasFeatureRows(job.data.regionFeatures);
    VbasCategoryCodes codes;
    std::vector<std::uint32_t> regionGroup(job.data.regionFeatures.size());
    QVector<QVariant> valueOfCode;
    QgsFeatureRequest valuesRequest;
    valuesRequest.setFlags(VbasCompat::RequestNoGeometry).setSubsetOfAttributes(QgsAttributeList{field});
    QgsFeatureIterator features = job.regions->getFeatures(valuesRequest);
    QgsFeature feature;
    while (features.nextFeature(feature))
    {
        if (feedback->isCanceled())
            throw canceledError();
        const auto region = regionOf.constFind(feature.id());
        if (region == regionOf.constEnd())
            continue; // left out: no geometry and no records
        const QVariant value = feature.attribute(field);
        if (VbasCompat::isNull(value))
            throw parameterError(
                kAggregateField,
                QObject::tr("feature %1 of REGIONS has no aggregate (NULL); give every small area "
                            "one, or choose another field")
                    .arg(feature.id()));
        const std::uint32_t code = codes.code(value);
        if (code == std::uint32_t(valueOfCode.size()))
            valueOfCode << value;
        regionGroup[region.value()] = code;
    }
    const std::vector<std::uint32_t> rank = codes.ranks();
    for (std::uint32_t& group : regionGroup)
        group = rank[group];
    QVector<QVariant> aggregateIds(valueOfCode.size());
    for (int code = 0; code < valueOfCode.size(); ++code)
        aggregateIds[int(rank[std::size_t(code)])] = valueOfCode[code];

    VbasRelease release =
        runEngine(feedback,
                  [&](vbas::Feedback& engineFeedback)
                  {
                      return VbasRelease(pipeline.releaseGroups(
                          job.engineJob(), regionGroup, std::size_t(codes.size()), request, engineFeedback));
                  });
    release.aggregateIdField = job.regions->fields().at(field);
    release.aggregateIdField.setName(QStringLiteral("aggregate_id"));
    release.aggregateIds = aggregateIds;
    return release;
}

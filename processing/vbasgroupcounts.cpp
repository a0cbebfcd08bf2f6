#include "vbasgroupcounts.h"

#include "vbasalgorithmbase.h"
#include "vbasqgiscompat.h"

#include <qgsfeatureiterator.h>
#include <qgsfeaturesource.h>
#include <qgsprocessingfeedback.h>
#include <qgsprocessingutils.h>

VbasGroupCounts VbasGroupCounts::count(QgsFeatureSource& source, const QList<int>& keyFields, int countField,
                                       QgsProcessingFeedback& feedback)
{
    QgsAttributeList attributes = keyFields;
    if (countField >= 0)
        attributes.append(countField);
    QgsFeatureRequest request;
    request.setFlags(VbasCompat::RequestNoGeometry).setSubsetOfAttributes(attributes);
    const double total = static_cast<double>(source.featureCount());
    const double percentPerFeature = total > 0 ? 100.0 / total : 0.0;

    VbasGroupCounts counts;
    QgsFields keys;
    for (const int field : keyFields)
        keys.append(source.fields().at(field));
    QgsFields size;
    size.append(QgsField(QStringLiteral("group_size"), VbasCompat::FieldTypeLongLong));
    counts.mFields = QgsProcessingUtils::combineFields(keys, size);

    QgsFeatureIterator features = source.getFeatures(request);
    QgsFeature feature;
    for (double done = 0; features.nextFeature(feature); ++done)
    {
        if (feedback.isCanceled())
            throw VbasAlgorithmBase::canceledError();
        Key key;
        QgsAttributes values;
        for (const int field : keyFields)
        {
            const QVariant value = feature.attribute(field);
            key.push_back(VbasCompat::isNull(value) ? std::nullopt
                                                    : std::optional<QString>(value.toString()));
            values.append(value);
        }
        const qint64 records = VbasAlgorithmBase::recordCount(feature, countField);
        Group& group = counts.mGroups[key];
        if (group.records == 0)
            group.values = values;
        group.records += records;
        counts.mRecords += records;
        feedback.setProgress(done * percentPerFeature);
    }
    return counts;
}

QVariant VbasGroupCounts::minGroupSize() const
{
    QVariant smallest;
    for (const auto& entry : mGroups)
    {
        if (smallest.isNull() || entry.second.records < smallest.toLongLong())
            smallest = entry.second.records;
    }
    return smallest;
}

std::vector<VbasGroupCounts::Group> VbasGroupCounts::groupsBelow(qint64 k) const
{
    std::vector<Group> below;
    for (const auto& entry : mGroups)
    {
        if (entry.second.records < k)
            below.push_back(entry.second);
    }
    return below;
}

#include "vbasgroupcounts.h"

#include "vbasparameters.h"
#include "vbasqgiscompat.h"

#include <qgsfeatureiterator.h>
#include <qgsfeaturesource.h>
#include <qgsprocessingfeedback.h>
#include <qgsprocessingutils.h>

#include <algorithm>
#include <cmath>

namespace
{
VbasGroupCounts::Value valueOf(const QVariant& value)
{
    return VbasCompat::isNull(value) ? std::nullopt : VbasGroupCounts::Value(value.toString());
}
} // namespace

qint64 VbasGroupCounts::Group::distinctValues() const
{
    qint64 fewest = 0;
    for (std::size_t field = 0; field < sensitive.size(); ++field)
        fewest =
            field == 0 ? qint64(sensitive[field].size()) : std::min(fewest, qint64(sensitive[field].size()));
    return fewest;
}

double VbasGroupCounts::Group::entropy() const
{
    double lowest = 0;
    for (std::size_t field = 0; field < sensitive.size(); ++field)
    {
        double entropy = 0;
        for (const auto& [value, count] : sensitive[field])
        {
            const double share = double(count) / double(records);
            entropy -= share * std::log(share);
        }
        lowest = field == 0 ? entropy : std::min(lowest, entropy);
    }
    return lowest;
}

QgsAttributes VbasGroupCounts::Group::row() const
{
    QgsAttributes attributes = QgsAttributes(values) << records;
    if (!sensitive.empty())
        attributes << distinctValues() << entropy();
    return attributes;
}

VbasGroupCounts VbasGroupCounts::count(QgsFeatureSource& source, const QList<int>& keyFields,
                                       const QList<int>& sensitiveFields, int countField, int personField,
                                       QgsProcessingFeedback& feedback)
{
    QgsAttributeList attributes = keyFields + sensitiveFields;
    if (countField >= 0)
        attributes.append(countField);
    if (personField >= 0)
        attributes.append(personField);
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
    if (!sensitiveFields.isEmpty())
    {
        size.append(QgsField(QStringLiteral("distinct_values"), VbasCompat::FieldTypeLongLong));
        size.append(QgsField(QStringLiteral("entropy"), VbasCompat::FieldTypeDouble));
    }
    counts.mFields = QgsProcessingUtils::combineFields(keys, size);

    QgsFeatureIterator features = source.getFeatures(request);
    QgsFeature feature;
    for (double done = 0; features.nextFeature(feature); ++done)
    {
        if (feedback.isCanceled())
            throw VbasParameters::canceledError();
        Key key;
        QgsAttributes values;
        for (const int field : keyFields)
        {
            const QVariant value = feature.attribute(field);
            key.push_back(valueOf(value));
            values.append(value);
        }
        const qint64 records = VbasParameters::recordCount(feature, countField);
        if (records == 0)
            continue; // a row of no records is no group
        Group& group = counts.mGroups[key];
        if (group.records == 0)
        {
            group.values = values;
            group.sensitive.resize(std::size_t(sensitiveFields.size()));
        }
        group.records += records;
        if (personField >= 0)
            group.persons.insert(valueOf(feature.attribute(personField)));
        for (int field = 0; field < sensitiveFields.size(); ++field)
            group.sensitive[std::size_t(field)][valueOf(feature.attribute(sensitiveFields.at(field)))] +=
                records;
        counts.mRecords += records;
        feedback.setProgress(done * percentPerFeature);
    }
    if (personField >= 0)
    {
        // Every count is of people: a person with rows in two groups counts in both.
        counts.mRecords = 0;
        for (auto& [key, group] : counts.mGroups)
        {
            group.records = qint64(group.persons.size());
            counts.mRecords += group.records;
        }
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

std::vector<VbasGroupCounts::Group> VbasGroupCounts::groupsFailing(qint64 k,
                                                                   const vbas::Criteria& criteria) const
{
    // The table's values, numbered per sensitive field, and their order when they are all numbers.
    const std::size_t fields = mGroups.empty() ? 0 : mGroups.begin()->second.sensitive.size();
    std::vector<std::map<Value, std::uint32_t>> codes(fields);
    vbas::TableValues table;
    table.counts.resize(fields);
    for (const auto& [key, group] : mGroups)
        for (std::size_t field = 0; field < fields; ++field)
            for (const auto& [value, records] : group.sensitive[field])
            {
                const auto [found, added] = codes[field].emplace(value, std::uint32_t(codes[field].size()));
                if (added)
                    table.counts[field].push_back(0);
                table.counts[field][found->second] += vbas::Count(records);
            }
    table.records = vbas::Count(mRecords);
    for (std::size_t field = 0; field < fields; ++field)
    {
        std::vector<vbas::CategoryValue> values(codes[field].size());
        for (const auto& [value, code] : codes[field])
        {
            bool number = false;
            const double parsed = value ? value->toDouble(&number) : 0.0;
            values[code] = {!value, value ? value->toStdString() : std::string(),
                            number ? std::optional<double>(parsed) : std::nullopt, std::nullopt};
        }
        table.order.push_back(vbas::numericOrder(values));
    }
    std::vector<Group> failing;
    for (const auto& [key, group] : mGroups)
    {
        bool fails = group.records < k;
        if (!fails && !criteria.empty())
        {
            vbas::GroupValues values;
            values.records = vbas::Count(group.records);
            values.fields.resize(fields);
            for (std::size_t field = 0; field < fields; ++field)
                for (const auto& [value, records] : group.sensitive[field])
                    values.fields[field].emplace_back(codes[field].at(value), vbas::Count(records));
            fails = !criteria.passes(values, table);
        }
        if (fails)
            failing.push_back(group);
    }
    return failing;
}

#include "vbascolumnfigures.h"

#include "vbasparameters.h"
#include "vbasqgiscompat.h"

#include <qgsfeatureiterator.h>
#include <qgsfeaturesource.h>
#include <qgsprocessingfeedback.h>

#include <map>
#include <set>

namespace
{
QString textOf(const QVariant& value)
{
    return VbasCompat::isNull(value) ? QStringLiteral("\x1e") : value.toString();
}

/** One row as read: its group key, its column values, who it counts for and how much. */
struct Row
{
    QStringList key;
    QStringList values;
    QString person;
    QString smallArea;
    qint64 weight = 1;
};
} // namespace

std::vector<VbasColumnFigures> VbasColumnFigures::count(QgsFeatureSource& source, const QList<int>& keyFields,
                                                        const QList<int>& columns, int personField,
                                                        int countField, int smallAreaField, qint64 k,
                                                        QgsProcessingFeedback& feedback)
{
    QgsAttributeList attributes = keyFields + columns;
    for (const int field : {personField, countField, smallAreaField})
        if (field >= 0)
            attributes.append(field);
    QgsFeatureRequest request;
    request.setFlags(VbasCompat::RequestNoGeometry).setSubsetOfAttributes(attributes);
    std::vector<Row> rows;
    QgsFeatureIterator features = source.getFeatures(request);
    QgsFeature feature;
    qint64 total = 0;
    while (features.nextFeature(feature))
    {
        if (feedback.isCanceled())
            throw VbasParameters::canceledError();
        Row row;
        row.weight = VbasParameters::recordCount(feature, countField);
        if (row.weight == 0)
            continue;
        for (const int field : keyFields)
            row.key << textOf(feature.attribute(field));
        for (const int field : columns)
            row.values << textOf(feature.attribute(field));
        row.person = personField >= 0 ? textOf(feature.attribute(personField)) : QString::number(rows.size());
        row.smallArea = smallAreaField >= 0 ? textOf(feature.attribute(smallAreaField)) : QString();
        total += row.weight;
        rows.push_back(std::move(row));
    }

    std::vector<VbasColumnFigures> figures;
    for (int c = 0; c < columns.size(); ++c)
    {
        VbasColumnFigures figure;
        figure.name = source.fields().at(columns.at(c)).name();
        // Groups: people (or weighted rows) of each key and value.
        std::map<std::pair<QStringList, QString>, std::pair<std::set<QString>, qint64>> groups;
        for (const Row& row : rows)
        {
            auto& group = groups[{row.key, row.values.at(c)}];
            group.first.insert(row.person);
            group.second += row.weight;
        }
        qint64 belowK = 0, unique = 0;
        for (const auto& [key, group] : groups)
        {
            const qint64 size = personField >= 0 ? qint64(group.first.size()) : group.second;
            belowK += size < k ? group.second : 0;
            unique += size == 1 ? group.second : 0;
        }
        figure.shareBelowK = total > 0 ? double(belowK) / double(total) : 0.0;
        figure.shareUnique = total > 0 ? double(unique) / double(total) : 0.0;
        if (smallAreaField >= 0)
        {
            // Rows per small area of each region, and of each (region, value).
            std::map<QString, std::map<QString, qint64>> ofRegion;
            std::map<std::pair<QString, QString>, std::map<QString, qint64>> ofValue;
            for (const Row& row : rows)
            {
                ofRegion[row.key.at(0)][row.smallArea] += row.weight;
                ofValue[{row.key.at(0), row.values.at(c)}][row.smallArea] += row.weight;
            }
            double placed = 0.0, placeable = 0.0, byLargest = 0.0;
            std::map<QString, std::pair<qint64, int>>
                largest; // per region: its largest area's rows, and ties
            for (const auto& [region, areas] : ofRegion)
            {
                if (areas.size() < 2)
                    continue;
                qint64 most = 0;
                int ties = 0;
                for (const auto& [area, count] : areas)
                {
                    placeable += double(count);
                    if (count > most)
                    {
                        most = count;
                        ties = 1;
                    }
                    else if (count == most)
                        ++ties;
                }
                largest[region] = {most, ties};
                byLargest += double(most);
            }
            for (const auto& [regionValue, areas] : ofValue)
            {
                const auto region = largest.find(regionValue.first);
                if (region == largest.end())
                    continue;
                qint64 groupRows = 0;
                for (const auto& [area, count] : areas)
                    groupRows += count;
                // Each record guesses the area most of the others of its region and value are in (records of
                // one area guess alike).
                for (const auto& [area, count] : areas)
                {
                    if (groupRows == 1)
                    {
                        if (ofRegion[regionValue.first][area] == region->second.first)
                            placed += 1.0 / region->second.second;
                        continue;
                    }
                    qint64 best = -1;
                    int ties = 0;
                    bool own = false;
                    for (const auto& [other, otherCount] : areas)
                    {
                        const qint64 others = other == area ? otherCount - 1 : otherCount;
                        if (others > best)
                        {
                            best = others;
                            ties = 1;
                            own = other == area;
                        }
                        else if (others == best)
                        {
                            ++ties;
                            own = own || other == area;
                        }
                    }
                    placed += own ? double(count) / ties : 0.0;
                }
            }
            figure.placement = placeable > byLargest ? (placed - byLargest) / (placeable - byLargest) : 0.0;
        }
        figures.push_back(figure);
    }
    return figures;
}

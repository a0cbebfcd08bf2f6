#include "vbasgivenaggregation.h"

#include "data/CategoryCoding.h"
#include "vbasparameters.h"
#include "vbasqgiscompat.h"

#include <qgsfeatureiterator.h>
#include <qgsprocessingfeedback.h>

#include <algorithm>
#include <unordered_map>

namespace
{
/** Groups from a code per region (VbasCategoryCodes), renumbered in text order, with the value of each code.
 */
VbasGivenAggregation ranked(const VbasJob& job, std::vector<std::uint32_t> regionCode,
                            const VbasCategoryCodes& codes, const QVector<QVariant>& valueOfCode,
                            const QgsField& idField)
{
    VbasGivenAggregation given;
    const std::vector<std::uint32_t> rank = codes.ranks();
    vbas::rankCodes(rank, regionCode);
    given.regionGroup = std::move(regionCode);
    given.groupIds.resize(valueOfCode.size());
    for (int code = 0; code < valueOfCode.size(); ++code)
        given.groupIds[int(rank[std::size_t(code)])] = valueOfCode[code];
    given.idField = idField;
    given.idField.setName(QStringLiteral("aggregate_id"));
    const vbas::Dataset& dataset = *job.data.dataset;
    for (vbas::RegionIndex r = 0; r < dataset.regionCount(); ++r)
        given.areas.emplace_back(dataset.regionId(r),
                                 vbasKeyText(given.groupIds.at(int(given.regionGroup[r]))).toStdString());
    std::sort(given.areas.begin(), given.areas.end());
    return given;
}
} // namespace

VbasGivenAggregation VbasGivenAggregation::fromField(const VbasJob& job, int field, const QString& parameter,
                                                     QgsProcessingFeedback* feedback)
{
    const QHash<QgsFeatureId, std::size_t> regionOf = vbasFeatureRows(job.data.regionFeatures);
    VbasCategoryCodes codes;
    std::vector<std::uint32_t> regionCode(job.data.regionFeatures.size());
    QVector<QVariant> valueOfCode;
    QgsFeatureRequest valuesRequest;
    valuesRequest.setFlags(VbasCompat::RequestNoGeometry).setSubsetOfAttributes(QgsAttributeList{field});
    QgsFeatureIterator features = job.regions->getFeatures(valuesRequest);
    QgsFeature feature;
    while (features.nextFeature(feature))
    {
        if (feedback && feedback->isCanceled())
            throw VbasParameters::canceledError();
        const auto region = regionOf.constFind(feature.id());
        if (region == regionOf.constEnd())
            continue; // left out: no geometry and no records
        const QVariant value = feature.attribute(field);
        if (VbasCompat::isNull(value))
            throw VbasParameters::parameterError(
                parameter, QObject::tr("feature %1 of REGIONS has no aggregate (NULL); give every small area "
                                       "one, or choose another field")
                               .arg(feature.id()));
        const std::uint32_t code = codes.code(value);
        if (code == std::uint32_t(valueOfCode.size()))
            valueOfCode << value;
        regionCode[region.value()] = code;
    }
    return ranked(job, std::move(regionCode), codes, valueOfCode, job.regions->fields().at(field));
}

VbasGivenAggregation VbasGivenAggregation::fromAreas(const VbasJob& job, const vbas::AreaRegions& areas,
                                                     const QString& entry, const QString& parameter)
{
    std::unordered_map<std::string, std::string> regionOfArea(areas.begin(), areas.end());
    // Region ids published as whole numbers stay whole numbers.
    const bool whole = std::all_of(areas.begin(), areas.end(),
                                   [](const auto& area)
                                   {
                                       bool number = false;
                                       QString::fromStdString(area.second).toLongLong(&number);
                                       return number;
                                   });
    const vbas::Dataset& dataset = *job.data.dataset;
    VbasCategoryCodes codes;
    std::vector<std::uint32_t> regionCode(dataset.regionCount());
    QVector<QVariant> valueOfCode;
    for (vbas::RegionIndex r = 0; r < dataset.regionCount(); ++r)
    {
        const auto found = regionOfArea.find(dataset.regionId(r));
        if (found == regionOfArea.end())
            throw VbasParameters::parameterError(
                parameter,
                QObject::tr("the small area '%1' is not in the aggregation of %2; release on the small "
                            "areas that release was made of")
                    .arg(QString::fromStdString(dataset.regionId(r)), entry));
        const QString text = QString::fromStdString(found->second);
        const QVariant value = whole ? QVariant(text.toLongLong()) : QVariant(text);
        const std::uint32_t code = codes.code(value);
        if (code == std::uint32_t(valueOfCode.size()))
            valueOfCode << value;
        regionCode[r] = code;
    }
    return ranked(job, std::move(regionCode), codes, valueOfCode,
                  QgsField(QString(), whole ? VbasCompat::FieldTypeLongLong : VbasCompat::FieldTypeString));
}

#include "vbasmapoutputs.h"

#include "vbasplanarframe.h"
#include "vbasqgiscompat.h"

#include <qgsfeaturerequest.h>
#include <qgsfeaturesource.h>

#include <cmath>

namespace
{
QVariant number(double value)
{
    return std::isnan(value) ? QVariant() : QVariant(value);
}

/** The reasons of every figure flagged or withheld, each once. */
QString reasons(const vbas::RegionRates& region)
{
    QStringList texts;
    for (const vbas::FigureStatus& status : region.status)
        for (const QString& reason : QString::fromStdString(status.reasons).split(QStringLiteral("; ")))
            if (!reason.isEmpty() && !texts.contains(reason))
                texts << reason;
    return texts.join(QStringLiteral("; "));
}

QString adjacencyText(const vbas::MapRelease& release, bool gal)
{
    const std::size_t regions = release.regionNeighbours.size();
    QString text = gal ? QStringLiteral("0 %1\n").arg(regions) : QStringLiteral("%1\n").arg(regions);
    for (std::size_t r = 0; r < regions; ++r)
    {
        const std::vector<std::size_t>& neighbours = release.regionNeighbours[r];
        QStringList ids;
        for (const std::size_t n : neighbours)
            ids << QString::number(n + 1);
        text += QStringLiteral("%1 %2").arg(r + 1).arg(neighbours.size());
        text += gal ? QStringLiteral("\n%1\n").arg(ids.join(QLatin1Char(' ')))
                    : (ids.isEmpty() ? QStringLiteral("\n") : QStringLiteral(" %1\n").arg(ids.join(' ')));
    }
    return text;
}
} // namespace

QStringList VbasMapOutputs::rateFields()
{
    return {QStringLiteral("crude_rate"), QStringLiteral("adjusted_rate"), QStringLiteral("eb_global_rate"),
            QStringLiteral("eb_local_rate"), QStringLiteral("sir")};
}

QgsFields VbasMapOutputs::regionFields()
{
    QgsFields fields;
    fields.append(QgsField(QStringLiteral("region_id"), VbasCompat::FieldTypeInt));
    fields.append(QgsField(QStringLiteral("areas"), VbasCompat::FieldTypeInt));
    for (const char* name : {"population", "cases", "crude_rate", "crude_lower", "crude_upper",
                             "adjusted_rate", "adjusted_lower", "adjusted_upper", "expected", "sir",
                             "sir_lower", "sir_upper", "eb_global_rate", "eb_local_rate"})
        fields.append(QgsField(QString::fromLatin1(name), VbasCompat::FieldTypeDouble));
    for (const char* name : {"at_floor", "unstable", "withheld"})
        fields.append(QgsField(QString::fromLatin1(name), VbasCompat::FieldTypeInt));
    fields.append(QgsField(QStringLiteral("note"), VbasCompat::FieldTypeString));
    return fields;
}

void VbasMapOutputs::writeRegions(VbasSink& sink, const vbas::MapRelease& release,
                                  const VbasPlanarFrame& frame)
{
    const vbas::FloorRegions& regions = release.regions;
    std::vector<int> areas(regions.regionCount, 0);
    for (const std::uint32_t r : regions.regionOfArea)
        ++areas[r];
    const QgsFields fields = regionFields();
    sink.expect(qint64(regions.regionCount));
    for (std::size_t r = 0; r < regions.regionCount; ++r)
    {
        const vbas::RegionRates& all = release.rates.regions[r];
        const vbas::RegionRates shown = all.published();
        const double nan = std::nan("");
        bool flagged = false, withheld = false;
        for (const vbas::FigureStatus& status : all.status)
            flagged = flagged || status.flagged, withheld = withheld || status.suppressed;
        QgsFeature feature(fields);
        QgsAttributes attributes(
            QVector<QVariant>{int(r + 1),
                              areas[r],
                              number(shown.population),
                              number(shown.cases),
                              number(shown.crudeRate),
                              number(shown.crudeInterval.lower),
                              number(shown.crudeInterval.upper),
                              shown.adjusted ? number(shown.adjusted->rate) : QVariant(),
                              shown.adjusted ? number(shown.adjusted->interval.lower) : QVariant(),
                              shown.adjusted ? number(shown.adjusted->interval.upper) : QVariant(),
                              number(shown.ratio ? shown.ratio->expected : nan),
                              number(shown.ratio ? shown.ratio->ratio : nan),
                              number(shown.ratio ? shown.ratio->interval.lower : nan),
                              number(shown.ratio ? shown.ratio->interval.upper : nan),
                              number(shown.globalSmoothedRate),
                              number(shown.localSmoothedRate),
                              regions.regionAtFloor[r] ? 1 : 0,
                              flagged ? 1 : 0,
                              withheld ? 1 : 0,
                              reasons(all)});
        feature.setAttributes(attributes);
        QgsGeometry geometry;
        geometry.fromWkb(QByteArray(reinterpret_cast<const char*>(release.polygons[r].wkb.data()),
                                    int(release.polygons[r].wkb.size())));
        geometry = frame.toSource(geometry);
        geometry.convertToMultiType();
        feature.setGeometry(geometry);
        sink.add(feature);
    }
}

QgsFields VbasMapOutputs::crosswalkFields(const QgsField& idField)
{
    QgsFields fields;
    fields.append(idField);
    fields.append(QgsField(QStringLiteral("flag"), VbasCompat::FieldTypeInt));
    fields.append(QgsField(QStringLiteral("flag_reason"), VbasCompat::FieldTypeString));
    // Last, as VbasStyling::styleMapping() reads it.
    fields.append(QgsField(QStringLiteral("region_id"), VbasCompat::FieldTypeInt));
    return fields;
}

void VbasMapOutputs::writeCrosswalk(VbasSink& sink, const QgsFeatureSource& areas, int idField,
                                    const std::vector<QgsFeatureId>& features,
                                    const vbas::MapRelease& release)
{
    const QgsFields fields = crosswalkFields(areas.fields().at(idField));
    QHash<QgsFeatureId, std::size_t> areaOf;
    for (std::size_t a = 0; a < features.size(); ++a)
        areaOf.insert(features[a], a);
    QgsFeatureIds ids(areaOf.keyBegin(), areaOf.keyEnd());
    sink.expect(qint64(features.size()));
    QgsFeatureIterator it = areas.getFeatures(QgsFeatureRequest().setFilterFids(ids));
    QgsFeature input;
    while (it.nextFeature(input))
    {
        const std::size_t a = areaOf.value(input.id());
        const vbas::FloorFlag flag = release.regions.flags[a];
        const QString reason =
            flag == vbas::FloorFlag::JoinedNearest
                ? QObject::tr("no neighbour could reach the floor with it: joined the nearest region")
            : flag == vbas::FloorFlag::BelowFloor
                ? QObject::tr("its parent holds fewer than the floor: its region is below it")
                : QString();
        QgsFeature feature(fields);
        feature.setAttributes(QgsAttributes(QVector<QVariant>{
            input.attribute(idField), int(flag), reason.isEmpty() ? QVariant() : QVariant(reason),
            int(release.regions.regionOfArea[a] + 1)}));
        QgsGeometry geometry = input.geometry();
        geometry.convertToMultiType();
        feature.setGeometry(geometry);
        sink.add(feature);
    }
}

QString VbasMapOutputs::galText(const vbas::MapRelease& release)
{
    return adjacencyText(release, true);
}

QString VbasMapOutputs::inlaGraphText(const vbas::MapRelease& release)
{
    return adjacencyText(release, false);
}

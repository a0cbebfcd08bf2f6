#include "realdata.h"

#include "processingtestutils.h"

#include <qgscoordinatetransformcontext.h>
#include <qgsdistancearea.h>
#include <qgsfeatureiterator.h>
#include <qgsprocessing.h>
#include <qgsproject.h>

#include <gtest/gtest.h>

#include <QMap>

#include <cmath>

std::unique_ptr<QgsVectorLayer> openData(const QString& path, const QString& layer)
{
    QString uri = QStringLiteral(VBAS_SOURCE_DIR "/data/") + path;
    if (!layer.isEmpty())
        uri += QStringLiteral("|layername=") + layer;
    auto opened =
        std::make_unique<QgsVectorLayer>(uri, layer.isEmpty() ? path : layer, QStringLiteral("ogr"));
    EXPECT_TRUE(opened->isValid()) << uri.toStdString();
    return opened;
}

QVariant asParameter(QgsVectorLayer* layer)
{
    return QVariant::fromValue<QgsMapLayer*>(layer);
}

OlindaInput::OlindaInput()
    : tracts(openData(QStringLiteral("demo/olinda.gpkg"), QStringLiteral("tracts")))
    , patients(openData(QStringLiteral("demo/olinda_patients.csv")))
{
}

VbasLoadedData loadOlindaJob(const OlindaInput& olinda, QgsVectorLayer& records,
                             const VbasRecordFields& fields, bool wholeLayer, QStringList& log)
{
    struct Lines : vbas::Feedback
    {
        QStringList lines;
        void info(const std::string& message) override { lines << QString::fromStdString(message); }
    };
    const VbasPlanarFrame frame(*olinda.tracts, QgsCoordinateTransformContext());
    Lines lines;
    VbasLoadedData data =
        loadJobData(*olinda.tracts, olinda.tracts->fields().lookupField("CD_GEOCODI"), frame,
                    vbas::RepresentativePoint::Centroid, records, wholeLayer ? &records : nullptr, fields,
                    vbas::DatasetOptions{vbas::UnknownRegionPolicy::Drop}, lines);
    log = lines.lines;
    return data;
}

VbasRecordFields recordRoles(const QgsFields& fields, const QString& region,
                             const QStringList& quasiIdentifiers, const QStringList& sensitive,
                             const QString& count)
{
    VbasRecordFields roles;
    roles.region = fields.lookupField(region);
    for (const QString& name : quasiIdentifiers)
        roles.quasiIdentifiers << fields.lookupField(name);
    for (const QString& name : sensitive)
        roles.sensitive << fields.lookupField(name);
    roles.count = count.isEmpty() ? -1 : fields.lookupField(count);
    return roles;
}

std::map<std::vector<std::uint32_t>, vbas::Count> recordsPerGroup(const VbasLoadedData& data)
{
    const vbas::Dataset& dataset = *data.dataset;
    std::map<std::vector<std::uint32_t>, vbas::Count> groups;
    for (std::size_t row = 0; row < dataset.rows(); ++row)
    {
        std::vector<std::uint32_t> key{std::uint32_t(dataset.rowRegion(row))};
        const vbas::ClassId cls = dataset.rowClass(row);
        if (cls != vbas::kNoClass)
        {
            const std::uint32_t* codes = dataset.classes().codes(cls);
            key.insert(key.end(), codes, codes + dataset.schema().size());
        }
        for (std::size_t f = 0; f < dataset.sensitiveCount(); ++f)
            key.push_back(std::uint32_t(dataset.rowSensitive(row, f)));
        groups[key] += dataset.rowCount(row);
    }
    return groups;
}

QVariantMap OlindaInput::parameters(const QStringList& quasiIdentifiers) const
{
    const QString temporary = QgsProcessing::TEMPORARY_OUTPUT;
    return {{"REGIONS", asParameter(tracts.get())},
            {"REGION_ID_FIELD", "CD_GEOCODI"},
            {"RECORDS", asParameter(patients.get())},
            {"RECORD_REGION_FIELD", "tract"},
            {"QUASI_IDENTIFIERS", quasiIdentifiers},
            {"K", 5},
            {"SITE_COUNT_METHOD", "sitecount.naive_anonymity"},
            {"OUTPUT", temporary},
            {"OUTPUT_MAPPING", temporary},
            {"OUTPUT_RECORDS", temporary},
            {"OUTPUT_SITES", temporary}};
}

Recount recountGroups(QgsVectorLayer& table, const QStringList& keyFields, const QString& countField)
{
    QMap<QStringList, qint64> groups;
    Recount recount;
    QgsFeature feature;
    QgsFeatureIterator features = table.getFeatures();
    while (features.nextFeature(feature))
    {
        QStringList key;
        for (const QString& field : keyFields)
        {
            const QVariant value = feature.attribute(field);
            key << (value.isNull() ? QStringLiteral("\\N") : QStringLiteral("=") + value.toString());
        }
        const qint64 count = countField.isEmpty() ? 1 : feature.attribute(countField).toLongLong();
        groups[key] += count;
        recount.records += count;
    }
    recount.groups = groups.size();
    for (const qint64 size : groups)
        recount.smallestGroup = recount.smallestGroup == 0 ? size : std::min(recount.smallestGroup, size);
    return recount;
}

QMap<QString, qint64> countByValue(QgsVectorLayer& layer, const QString& field)
{
    QMap<QString, qint64> counts;
    QgsFeature feature;
    QgsFeatureIterator features = layer.getFeatures();
    while (features.nextFeature(feature))
    {
        const QVariant value = feature.attribute(field);
        ++counts[value.isNull() ? QStringLiteral("NULL") : value.toString()];
    }
    return counts;
}

double sumOf(QgsVectorLayer& layer, const QString& field)
{
    double sum = 0.0;
    QgsFeature feature;
    QgsFeatureIterator features = layer.getFeatures();
    while (features.nextFeature(feature))
        sum += feature.attribute(field).toDouble();
    return sum;
}

int expectAreasMatchMembers(QgsVectorLayer& aggregates, QgsVectorLayer& mapping, QgsVectorLayer& regions,
                            const QString& regionIdField, double attributeTolerance,
                            const QString& mappingAggregateField)
{
    EXPECT_EQ(aggregates.crs(), regions.crs());
    QgsDistanceArea measure;
    measure.setSourceCrs(regions.crs(), QgsProject::instance()->transformContext());
    measure.setEllipsoid(regions.crs().isGeographic() ? regions.crs().ellipsoidAcronym()
                                                      : QStringLiteral("NONE"));

    QMap<QString, QgsGeometry> regionGeometry;
    QgsFeature feature;
    QgsFeatureIterator regionFeatures = regions.getFeatures();
    while (regionFeatures.nextFeature(feature))
        regionGeometry[feature.attribute(regionIdField).toString()] = feature.geometry().makeValid();

    QMap<QString, QList<QgsGeometry>> members;
    int mapped = 0;
    QgsFeatureIterator mappingFeatures = mapping.getFeatures();
    while (mappingFeatures.nextFeature(feature))
    {
        const QString region = feature.attribute(regionIdField).toString();
        EXPECT_TRUE(regionGeometry.contains(region)) << region.toStdString();
        members[feature.attribute(mappingAggregateField).toString()] << regionGeometry.value(region);
        ++mapped;
    }
    EXPECT_EQ(mapped, regionGeometry.size()) << "every small area must be mapped exactly once";

    int checked = 0;
    QgsFeatureIterator aggregateFeatures = aggregates.getFeatures();
    while (aggregateFeatures.nextFeature(feature))
    {
        // The union of the members: their areas less the areas where two of them overlap (ny8 has two
        // such pairs; no point lies in three members in these data).
        const QString id = feature.attribute(QStringLiteral("aggregate_id")).toString();
        const QList<QgsGeometry>& parts = members.value(id);
        double expected = 0.0;
        for (int i = 0; i < parts.size(); ++i)
        {
            expected += measure.measureArea(parts.at(i));
            for (int j = i + 1; j < parts.size(); ++j)
            {
                if (parts.at(i).boundingBoxIntersects(parts.at(j)))
                    expected -= measure.measureArea(parts.at(i).intersection(parts.at(j)));
            }
        }
        const double measured = measure.measureArea(feature.geometry());
        EXPECT_NEAR(measured, expected, 1e-6 * expected) << "aggregate " << id.toStdString();
        const double attribute = feature.attribute(QStringLiteral("area_m2")).toDouble();
        EXPECT_NEAR(attribute, expected, attributeTolerance * expected)
            << "area_m2 of aggregate " << id.toStdString();
        ++checked;
    }
    EXPECT_EQ(checked, members.size());
    return checked;
}

QString checkAnonymity(QgsVectorLayer* records, const QString& regionField,
                       const QStringList& quasiIdentifiers, int k, const QString& countField,
                       const QString& personField)
{
    QVariantMap parameters{{QStringLiteral("INPUT"), asParameter(records)},
                           {QStringLiteral("REGION_FIELD"), regionField},
                           {QStringLiteral("QUASI_IDENTIFIERS"), quasiIdentifiers},
                           {QStringLiteral("K"), k}};
    if (!countField.isEmpty())
        parameters.insert(QStringLiteral("COUNT_FIELD"), countField);
    if (!personField.isEmpty())
        parameters.insert(QStringLiteral("RECORD_ID_FIELD"), personField);
    const AlgorithmRun run = runAlgorithm(QStringLiteral("vbas:checkanonymity"), parameters);
    EXPECT_TRUE(run.ok) << run.errors.toStdString();
    return run.results.value(QStringLiteral("VERDICT")).toString();
}

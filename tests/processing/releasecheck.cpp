#include "releasecheck.h"

#include "realdata.h"

#include <qgsfeatureiterator.h>

#include <QHash>
#include <QSet>

#include <gtest/gtest.h>

namespace
{
/** A value as text, NULL apart from every text (the empty one included). */
QString keyText(const QVariant& value)
{
    return value.isNull() ? QStringLiteral("\\N") : QStringLiteral("=") + value.toString();
}

/** One input row: its small area, its quasi-identifier values and the records it stands for. */
struct InputRow
{
    QVariant region;
    QStringList quasiIdentifiers;
    qint64 count = 1;
};

QStringList quasiIdentifierValues(const QgsFeature& feature, const QStringList& fields)
{
    QStringList values;
    for (const QString& field : fields)
        values << keyText(feature.attribute(field));
    return values;
}

qint64 rowCount(const QgsFeature& feature, const QString& countField)
{
    return countField.isEmpty() ? 1 : feature.attribute(countField).toLongLong();
}

/** Returns the aggregate of every small area according to the mapping output. */
QHash<QString, QString> aggregateOfRegion(QgsVectorLayer& mapping, const ReleaseInput& input)
{
    QHash<QString, QString> aggregateOf;
    QgsFeature feature;
    QgsFeatureIterator features = mapping.getFeatures();
    while (features.nextFeature(feature))
    {
        const QString region = feature.attribute(input.regionIdField).toString();
        EXPECT_FALSE(aggregateOf.contains(region)) << "small area mapped twice: " << region.toStdString();
        aggregateOf.insert(region, feature.attribute(QStringLiteral("aggregate_id")).toString());
    }
    EXPECT_EQ(aggregateOf.size(), input.regions->featureCount()) << "every small area is mapped";
    return aggregateOf;
}
} // namespace

ReleaseRecount expectSoundRelease(const AlgorithmRun& run, const ReleaseInput& input)
{
    ReleaseRecount recount;
    QgsVectorLayer* released = outputLayer(run, QStringLiteral("OUTPUT_RECORDS"));
    QgsVectorLayer* mapping = outputLayer(run, QStringLiteral("OUTPUT_MAPPING"));
    if (!released || !mapping)
        return recount;
    // A record id the released table carries (a hand-made release's) is a person of its own each, no column.
    const QString personField =
        released->fields().lookupField(input.recordIdField) >= 0 ? input.recordIdField : QString();
    // Without quasi-identifiers the verifier checks the regions' sizes alone, and says so in its verdict.
    EXPECT_EQ(checkAnonymity(released, QStringLiteral("aggregate_id"), input.quasiIdentifiers, input.k,
                             input.countField, personField)
                  .toStdString(),
              input.quasiIdentifiers.isEmpty() ? "REGION_SIZES_PASS" : "PASS");

    QSet<QString> regionIds;
    QgsFeature feature;
    QgsFeatureIterator regions = input.regions->getFeatures();
    while (regions.nextFeature(feature))
        regionIds.insert(feature.attribute(input.regionIdField).toString());

    QHash<QString, InputRow> rows;
    QgsFeatureIterator records = input.records->getFeatures();
    while (records.nextFeature(feature))
    {
        const InputRow row{feature.attribute(input.recordRegionField),
                           quasiIdentifierValues(feature, input.quasiIdentifiers),
                           rowCount(feature, input.countField)};
        recount.input += row.count;
        if (row.region.isNull() || !regionIds.contains(row.region.toString()))
            recount.dropped += row.count;
        const QString id = feature.attribute(input.recordIdField).toString();
        EXPECT_FALSE(rows.contains(id)) << "record ids must be unique in the test input";
        rows.insert(id, row);
    }

    // Released rows carry no id of the input (SPEC section 10), so the check is by group: suppression
    // withholds whole (aggregate, class) groups, so every released group holds exactly the input's records of
    // that class in the small areas of that aggregate.
    const QHash<QString, QString> aggregateOf = aggregateOfRegion(*mapping, input);
    QHash<QString, qint64> inputGroups;
    for (const InputRow& row : rows)
    {
        if (!row.region.isNull() && regionIds.contains(row.region.toString()))
            inputGroups[aggregateOf.value(row.region.toString(), QStringLiteral("(none)")) + '|' +
                        row.quasiIdentifiers.join('|')] += row.count;
    }
    QHash<QString, qint64> releasedGroups;
    QgsFeatureIterator releasedRows = released->getFeatures();
    while (releasedRows.nextFeature(feature))
    {
        const qint64 count = rowCount(feature, input.countField);
        releasedGroups[feature.attribute(QStringLiteral("aggregate_id")).toString() + '|' +
                       quasiIdentifierValues(feature, input.quasiIdentifiers).join('|')] += count;
        recount.released += count;
    }
    for (auto group = releasedGroups.constBegin(); group != releasedGroups.constEnd(); ++group)
        EXPECT_EQ(group.value(), inputGroups.value(group.key()))
            << "released group " << group.key().toStdString() << " is not a whole group of the input";
    recount.suppressed = recount.input - recount.dropped - recount.released;
    EXPECT_GE(recount.suppressed, 0);
    EXPECT_EQ(number(run, "INPUT_RECORDS"), recount.input);
    EXPECT_EQ(number(run, "RECORDS_RELEASED"), recount.released);
    EXPECT_EQ(number(run, "RECORDS_DROPPED"), recount.dropped);
    EXPECT_EQ(number(run, "SUPPRESSED"), recount.suppressed);
    return recount;
}

void expectSameRelease(const AlgorithmRun& a, const AlgorithmRun& b, const QStringList& publishedFields)
{
    for (const char* result : {"AGGREGATES", "RECORDS_RELEASED", "SUPPRESSED", "RECORDS_DROPPED"})
        EXPECT_EQ(number(a, result), number(b, result)) << result;
    QMap<QStringList, qint64> published[2];
    for (int r = 0; r < 2; ++r)
    {
        QgsVectorLayer* records = outputLayer(r == 0 ? a : b, QStringLiteral("OUTPUT_RECORDS"));
        ASSERT_TRUE(records != nullptr);
        QgsFeature feature;
        QgsFeatureIterator features = records->getFeatures();
        while (features.nextFeature(feature))
            ++published[r][quasiIdentifierValues(feature, publishedFields)];
    }
    EXPECT_EQ(published[0], published[1]);
}

QVariantMap OutputFolder::release(QVariantMap parameters) const
{
    const QString gpkg = path(QStringLiteral("release.gpkg"));
    const auto table = [&](const char* name)
    {
        return QStringLiteral("ogr:dbname='%1' table=\"%2\" (geom)").arg(gpkg, name);
    };
    parameters.insert(QStringLiteral("OUTPUT"), table("aggregates"));
    parameters.insert(QStringLiteral("OUTPUT_MAPPING"), table("mapping"));
    parameters.insert(QStringLiteral("OUTPUT_SITES"), table("sites"));
    // A GeoPackage table rather than a CSV keeps NULL apart from empty text.
    parameters.insert(QStringLiteral("OUTPUT_RECORDS"),
                      QStringLiteral("ogr:dbname='%1' table=\"records\"").arg(gpkg));
    parameters.insert(QStringLiteral("OUTPUT_HTML_FILE"), path(QStringLiteral("report.html")));
    return parameters;
}

QVariantMap OutputFolder::output(QVariantMap parameters, const QString& fileName) const
{
    parameters.insert(QStringLiteral("OUTPUT"), path(fileName));
    return parameters;
}

QStringList OutputFolder::entries() const
{
    return QDir(mFolder.path())
        .entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

void expectRejected(const QString& algorithm, const QVariantMap& parameters, const OutputFolder& folder,
                    const std::string& message)
{
    const AlgorithmRun run = runAlgorithm(algorithm, parameters);
    EXPECT_FALSE(run.ok);
    EXPECT_TRUE(run.results.isEmpty());
    EXPECT_EQ(run.errors.toStdString(), message);
    EXPECT_EQ(folder.entries(), QStringList()) << "nothing is written";
}

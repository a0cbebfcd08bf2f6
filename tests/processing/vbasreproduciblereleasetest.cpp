// The demo release (scripts/demo.sh's parameters) publishes exactly what data/reference/olinda_demo.txt
// holds, on every QGIS the suite runs on (3.22 on Debian 12, 3.40 on Debian 13): the same regions, the same
// withheld records and the same published files, row for row and to the last bit of every number and
// coordinate. The reference was made on Debian 12 (data/reference/README.md); the Debian 13 suite checking it
// is the test that two platforms agree. Before VBAS projected geographic regions itself, PROJ 9.1 and 9.6
// gave planes 3 nm apart, and the demo 40 regions on one and 39 on the other.

#include "processingtestutils.h"

#include <qgsfeatureiterator.h>
#include <qgsgeometry.h>
#include <qgsvectorlayer.h>

#include <QDir>
#include <QFile>
#include <QMap>
#include <QTemporaryDir>
#include <QTextStream>

#include <gtest/gtest.h>

namespace
{
const QString kReference = QStringLiteral(VBAS_SOURCE_DIR "/tests/processing/data/reference/olinda_demo.txt");
const QString kData = QStringLiteral(VBAS_SOURCE_DIR "/data/demo/");

/** A value as text, every bit of a number kept: 17 significant digits. */
QString exact(const QVariant& value)
{
    if (value.isNull())
        return QStringLiteral("NULL");
    if (value.userType() == QMetaType::Double)
        return QString::number(value.toDouble(), 'g', 17);
    return value.toString();
}

/**
 * Returns the layer `source` as lines "field=value;...;geometry=WKT", each coordinate with 17 decimals,
 * sorted; identical lines are counted ("N x line"), since released records come in a random order.
 */
QStringList published(const QString& source)
{
    QgsVectorLayer layer(source, QStringLiteral("published"), QStringLiteral("ogr"));
    EXPECT_TRUE(layer.isValid()) << source.toStdString();
    QMap<QString, int> lines;
    QgsFeature feature;
    QgsFeatureIterator features = layer.getFeatures();
    while (features.nextFeature(feature))
    {
        QStringList values;
        for (int i = 0; i < layer.fields().count(); ++i)
            values << layer.fields().at(i).name() + QLatin1Char('=') + exact(feature.attribute(i));
        if (feature.hasGeometry())
            values << QStringLiteral("geometry=") + feature.geometry().asWkt(17);
        ++lines[values.join(QLatin1Char(';'))];
    }
    QStringList counted;
    for (auto it = lines.constBegin(); it != lines.constEnd(); ++it)
        counted << QStringLiteral("%1 x %2").arg(it.value()).arg(it.key());
    return counted;
}
} // namespace

TEST(ReproducibleRelease, TheDemoPublishesTheReferenceRowForRow)
{
    QTemporaryDir folder;
    const QString gpkg = folder.filePath(QStringLiteral("olinda-release.gpkg"));
    const QVariantMap parameters{
        {"REGIONS", kData + QStringLiteral("olinda.gpkg|layername=tracts")},
        {"REGION_ID_FIELD", "CD_GEOCODI"},
        {"RECORDS", kData + QStringLiteral("olinda_patients.csv")},
        {"RECORD_REGION_FIELD", "tract"},
        {"QUASI_IDENTIFIERS", QStringList{"age", "sex", "married"}},
        {"K", 5},
        {"SENSITIVE_FIELDS", QStringList{"education"}},
        {"L", 2},
        {"SUPPRESSION_BUDGET", 1},
        {"GENERALIZATION", "age: interval 5 10 20 max 10"},
        {"RECORD_ID_FIELD", "patient_id"},
        {"OUTPUT", QStringLiteral("ogr:dbname='%1' table=\"aggregates\" (geom)").arg(gpkg)},
        {"OUTPUT_MAPPING", QStringLiteral("ogr:dbname='%1' table=\"tracts\" (geom)").arg(gpkg)},
        {"OUTPUT_SITES", QStringLiteral("ogr:dbname='%1' table=\"sites\" (geom)").arg(gpkg)},
        {"OUTPUT_RECORDS", folder.filePath(QStringLiteral("released-patients.csv"))}};
    const AlgorithmRun run = runAlgorithm(QStringLiteral("vbas:aggregateregions"), parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();

    QStringList got;
    for (const QString& layer :
         {QStringLiteral("aggregates"), QStringLiteral("tracts"), QStringLiteral("sites")})
        got << QStringLiteral("[%1]").arg(layer) << published(gpkg + QStringLiteral("|layername=") + layer);
    got << QStringLiteral("[released-patients.csv]") << published(folder.filePath("released-patients.csv"));

    QStringList reference;
    QFile file(kReference);
    if (file.open(QIODevice::ReadOnly | QIODevice::Text))
        reference = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (got != reference)
    {
        // What this platform published, to compare with the reference (diff) or, when a change is meant to
        // alter the demo's release, to replace it.
        QFile out(QDir::temp().filePath(QStringLiteral("olinda_demo.got.txt")));
        if (out.open(QIODevice::WriteOnly | QIODevice::Text))
            out.write(got.join(QLatin1Char('\n')).toUtf8() + '\n');
        int first = 0;
        while (first < got.size() && first < reference.size() && got.at(first) == reference.at(first))
            ++first;
        FAIL() << "the demo's release differs from " << kReference.toStdString() << " from line " << first + 1
               << "\n  reference: " << reference.value(first).left(300).toStdString()
               << "\n  published: " << got.value(first).left(300).toStdString() << "\n(all of it in "
               << out.fileName().toStdString() << ")";
    }
}

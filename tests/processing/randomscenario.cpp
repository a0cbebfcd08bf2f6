#include "randomscenario.h"

#include "Registry.h"
#include "realdata.h"

#include <qgscoordinatetransform.h>
#include <qgsprocessing.h>
#include <qgsproject.h>

#include <QMap>

#include <gtest/gtest.h>

namespace
{
const QString kTemporary = QgsProcessing::TEMPORARY_OUTPUT;
/** A CRS the second inputs are sometimes given in, to exercise the transformation into the frame. */
const QString kOtherCrs = QStringLiteral("EPSG:3857");

/** Returns `layer`'s features transformed to `crs` in a new memory layer of `type`. */
std::unique_ptr<QgsVectorLayer> inCrs(const QString& type, const QString& crs, const QString& fromCrs,
                                      const QList<QgsGeometry>& geometries)
{
    auto layer = std::make_unique<QgsVectorLayer>(QStringLiteral("%1?crs=%2&field=id:integer").arg(type, crs),
                                                  QStringLiteral("random %1").arg(type.toLower()),
                                                  QStringLiteral("memory"));
    const QgsCoordinateTransform transform(QgsCoordinateReferenceSystem(fromCrs),
                                           QgsCoordinateReferenceSystem(crs),
                                           QgsProject::instance()->transformContext());
    QgsFeatureList features;
    for (QgsGeometry geometry : geometries)
    {
        geometry.transform(transform);
        QgsFeature feature(layer->fields());
        feature.setAttributes(QgsAttributes() << int(features.size() + 1));
        feature.setGeometry(geometry);
        features.append(feature);
    }
    EXPECT_TRUE(layer->dataProvider()->addFeatures(features));
    return layer;
}
} // namespace

RandomScenario::RandomScenario(std::uint64_t seed, const StrategyCombination& combination)
    : mSeed(seed)
    , mRandom(seed)
{
    drawRegions();
    drawRecords();
    drawParameters(combination);
}

QString RandomScenario::describe() const
{
    QStringList choices;
    for (auto it = parameters.constBegin(); it != parameters.constEnd(); ++it)
    {
        const QVariant& value = it.value();
        if (value.userType() == QMetaType::QStringList)
            choices << it.key() + '=' + value.toStringList().join(',');
        else if (value.userType() < QMetaType::User && value.userType() != QMetaType::QVariantList &&
                 value != kTemporary)
            choices << it.key() + '=' + value.toString();
    }
    return QStringLiteral("seed %1: %2, %3x%4 cells of %5, %6 small areas, %7 record rows; %8")
        .arg(mSeed)
        .arg(mCrs)
        .arg(mColumns)
        .arg(mRows)
        .arg(mCell)
        .arg(mRegionIds.size())
        .arg(records->featureCount())
        .arg(choices.join(' '));
}

void RandomScenario::drawRegions()
{
    const bool geographic = std::bernoulli_distribution(0.3)(mRandom);
    mCrs = geographic ? QStringLiteral("EPSG:4326") : QStringLiteral("EPSG:32633");
    mOriginX = geographic ? 10.0 : 500000.0;
    mOriginY = geographic ? 50.0 : 5000000.0;
    mCell = geographic ? std::uniform_real_distribution<double>(0.001, 0.05)(mRandom)
                       : std::uniform_real_distribution<double>(50.0, 2000.0)(mRandom);
    mColumns = std::uniform_int_distribution<int>(1, 6)(mRandom);
    mRows = std::uniform_int_distribution<int>(1, 6)(mRandom);

    // Cells go missing (gaps in the map) or join an earlier small area (multipart areas).
    QList<QgsGeometry> areas;
    for (int row = 0; row < mRows; ++row)
        for (int column = 0; column < mColumns; ++column)
        {
            if (!areas.isEmpty() && std::bernoulli_distribution(0.15)(mRandom))
                continue;
            const QgsGeometry cell = QgsGeometry::fromRect(
                QgsRectangle(mOriginX + column * mCell, mOriginY + row * mCell,
                             mOriginX + (column + 1) * mCell, mOriginY + (row + 1) * mCell));
            if (!areas.isEmpty() && std::bernoulli_distribution(0.1)(mRandom))
            {
                QgsGeometry& joined =
                    areas[std::uniform_int_distribution<int>(0, int(areas.size()) - 1)(mRandom)];
                joined = joined.combine(cell);
            }
            else
                areas.append(cell);
        }

    regions = std::make_unique<QgsVectorLayer>(
        QStringLiteral("MultiPolygon?crs=%1&field=id:string&field=parent:string").arg(mCrs),
        QStringLiteral("random areas"), QStringLiteral("memory"));
    QgsFeatureList features;
    for (QgsGeometry area : areas)
    {
        mRegionIds << QStringLiteral("a%1").arg(mRegionIds.size());
        const QVariant parent =
            std::bernoulli_distribution(0.1)(mRandom)
                ? nullText()
                : QVariant(QStringLiteral("P%1").arg(std::uniform_int_distribution<int>(0, 2)(mRandom)));
        area.convertToMultiType();
        QgsFeature feature(regions->fields());
        feature.setAttributes(QgsAttributes() << mRegionIds.last() << parent);
        feature.setGeometry(area);
        features.append(feature);
    }
    EXPECT_TRUE(regions->dataProvider()->addFeatures(features));
}

void RandomScenario::drawRecords()
{
    const int rows = std::uniform_int_distribution<int>(1, 150)(mRandom);
    const int quasiIdentifiers = std::uniform_int_distribution<int>(0, 3)(mRandom);
    const bool counted = std::bernoulli_distribution(0.5)(mRandom);
    // Now and then records whose small area is NULL or unknown.
    const double strayRate = std::bernoulli_distribution(0.25)(mRandom) ? 0.05 : 0.0;
    QStringList fields{"rid:integer", "area:string"};
    std::vector<int> categories;
    for (int q = 0; q < quasiIdentifiers; ++q)
    {
        input.quasiIdentifiers << QStringLiteral("q%1").arg(q);
        fields << input.quasiIdentifiers.last() + ":string";
        categories.push_back(std::uniform_int_distribution<int>(1, 4)(mRandom));
    }
    if (counted)
        fields << QStringLiteral("n:integer");

    QList<QVariantList> table;
    for (int i = 0; i < rows; ++i)
    {
        QVariantList row{i + 1};
        const double stray = std::uniform_real_distribution<double>(0.0, 1.0)(mRandom);
        row << (stray < strayRate / 2 ? nullText()
                : stray < strayRate   ? QVariant(QStringLiteral("unknown%1").arg(i % 3))
                                      : QVariant(mRegionIds.at(std::uniform_int_distribution<int>(
                                          0, int(mRegionIds.size()) - 1)(mRandom))));
        for (const int count : categories)
        {
            const double kind = std::uniform_real_distribution<double>(0.0, 1.0)(mRandom);
            row << (kind < 0.08   ? nullText()
                    : kind < 0.12 ? QVariant(QString(""))
                                  : QVariant(QStringLiteral("c%1").arg(
                                        std::uniform_int_distribution<int>(0, count - 1)(mRandom))));
        }
        if (counted)
            row << std::uniform_int_distribution<int>(1, 4)(mRandom);
        table.append(row);
    }
    records = makeTable(fields, table);
    input.regions = regions.get();
    input.regionIdField = QStringLiteral("id");
    input.records = records.get();
    input.recordRegionField = QStringLiteral("area");
    input.recordIdField = QStringLiteral("rid");
    input.countField = counted ? QStringLiteral("n") : QString();
}

void RandomScenario::drawParameters(const StrategyCombination& combination)
{
    input.k = std::uniform_int_distribution<int>(2, 5)(mRandom);
    const bool drop = std::bernoulli_distribution(0.7)(mRandom);
    // The default share of records that may be dropped, or all of them.
    const double maxDroppedPercent = std::bernoulli_distribution(0.5)(mRandom) ? 1.0 : 100.0;
    const bool mainJob = combination.algorithm == QLatin1String("vbas:aggregateregions");
    algorithm = mainJob && input.quasiIdentifiers.isEmpty() ? QStringLiteral("vbas:populationfloor")
                                                            : combination.algorithm;
    parameters = {
        {"REGIONS", asParameter(regions.get())},
        {"REGION_ID_FIELD", input.regionIdField},
        {"RECORDS", asParameter(records.get())},
        {"RECORD_REGION_FIELD", input.recordRegionField},
        {"QUASI_IDENTIFIERS", input.quasiIdentifiers},
        {"COUNT_FIELD", input.countField},
        {"K", input.k},
        {"GLOBAL_SUPPRESSION", std::bernoulli_distribution(0.7)(mRandom)},
        {"REPRESENTATIVE_POINT", std::bernoulli_distribution(0.5)(mRandom) ? "centroid" : "point_on_surface"},
        {"UNKNOWN_REGIONS", drop ? "drop" : "fail"},
        {"MAX_DROPPED", maxDroppedPercent},
        {"PARTITION", combination.partition},
        {"CONTIGUITY", std::bernoulli_distribution(0.3)(mRandom)},
        {"OUTPUT", kTemporary},
        {"OUTPUT_MAPPING", kTemporary},
        {"OUTPUT_RECORDS", kTemporary}};
    if (std::bernoulli_distribution(0.3)(mRandom))
        parameters.insert("PARENT_FIELD", "parent");
    if (combination.partition != QLatin1String("partition.voronoi") ||
        std::bernoulli_distribution(0.2)(mRandom))
        drawObstacle();
    if (combination.algorithm == QLatin1String("vbas:partitionregions"))
        drawSites();
    else
    {
        const vbas::Registry& registry = vbas::Registry::builtIn();
        const auto& counter = registry.siteCounters[std::uniform_int_distribution<std::size_t>(
            0, registry.siteCounters.size() - 1)(mRandom)];
        parameters.insert("SITE_COUNT_METHOD", QString::fromStdString(counter.id));
        parameters.insert("SITE_COUNT",
                          std::uniform_int_distribution<int>(1, 2 * int(mRegionIds.size()))(mRandom));
        parameters.insert("SITE_COUNT_OFFSET",
                          std::bernoulli_distribution(0.5)(mRandom)
                              ? 0.0
                              : std::uniform_real_distribution<double>(0.05, 1.0)(mRandom));
        parameters.insert("SITE_LOCATION", combination.siteLocation);
        // Every switch given: the recommended refinement is on by default.
        for (const auto& refiner : registry.siteRefiners)
        {
            const QString name = QString::fromStdString(refiner.switchKey).toUpper();
            parameters.insert(name, name == combination.refinerSwitch);
        }
        // Region moves after the partition half the time (on by default where the engine picks sites).
        for (const auto& refiner : registry.boundaryRefiners)
            parameters.insert(QString::fromStdString(refiner.switchKey).toUpper(),
                              std::bernoulli_distribution(0.5)(mRandom));
        parameters.insert("ADC_MAX_MOVES", std::uniform_int_distribution<int>(0, 1)(mRandom) * 25);
        parameters.insert("SEED", std::uniform_int_distribution<int>(0, 1000)(mRandom));
    }

    // The error the run must end in, from the drawn records alone.
    qint64 known = 0;
    qint64 stray = 0;
    int nullRows = 0;
    int strayRows = 0;
    QMap<QStringList, qint64> cells; // records per small area and quasi-identifier values (NULL apart)
    QgsFeature feature;
    QgsFeatureIterator features = records->getFeatures();
    while (features.nextFeature(feature))
    {
        const QVariant area = feature.attribute("area");
        const qint64 count =
            input.countField.isEmpty() ? 1 : feature.attribute(input.countField).toLongLong();
        if (area.isNull() || !mRegionIds.contains(area.toString()))
        {
            nullRows += area.isNull();
            ++strayRows;
            stray += count;
        }
        else
        {
            known += count;
            QStringList cell{area.toString()};
            for (const QString& field : std::as_const(input.quasiIdentifiers))
            {
                const QVariant value = feature.attribute(field);
                cell << (value.isNull() ? QStringLiteral("(NULL)") : value.toString());
            }
            someAreaHoldsKOfAClass |= (cells[cell] += count) >= input.k;
        }
    }
    // Fewer than half the records matching, or more dropped than allowed, means the fields do not correspond.
    const bool tooManyDropped = double(stray) > maxDroppedPercent / 100.0 * double(known + stray);
    if (combination.algorithm == QLatin1String("vbas:partitionregions") && input.quasiIdentifiers.isEmpty())
        expectedError = QStringLiteral("QUASI_IDENTIFIERS");
    else if (nullRows == records->featureCount() || (strayRows > 0 && !drop) || known == 0 || known < stray ||
             (drop && tooManyDropped))
        expectedError = QStringLiteral("RECORD_REGION_FIELD");
    else if (input.k > known)
        expectedError = QStringLiteral("K");
}

QgsPointXY RandomScenario::randomPoint()
{
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    return QgsPointXY(mOriginX + unit(mRandom) * mColumns * mCell, mOriginY + unit(mRandom) * mRows * mCell);
}

void RandomScenario::drawObstacle()
{
    QgsPolylineXY line;
    for (int v = std::uniform_int_distribution<int>(2, 4)(mRandom); v > 0; --v)
        line << randomPoint();
    obstacles =
        inCrs(QStringLiteral("LineString"), std::bernoulli_distribution(0.5)(mRandom) ? kOtherCrs : mCrs,
              mCrs, {QgsGeometry::fromPolylineXY(line)});
    parameters.insert("OBSTACLES", QVariantList{asParameter(obstacles.get())});
}

void RandomScenario::drawSites()
{
    QList<QgsGeometry> points;
    for (int s = std::uniform_int_distribution<int>(1, 8)(mRandom); s > 0; --s)
        points << QgsGeometry::fromPointXY(randomPoint());
    sites = inCrs(QStringLiteral("Point"), std::bernoulli_distribution(0.5)(mRandom) ? kOtherCrs : mCrs, mCrs,
                  points);
    parameters.insert("SITES", asParameter(sites.get()));
}

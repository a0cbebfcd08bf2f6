// The release ledger end to end (SPEC section 13, issue 30): composition attacks on thousands of small areas
// with quasi-identifiers drawn jointly from real microdata, refused or kept safe by the ledger, and periodic
// releases on a saved aggregation. Expectations are recounted from the inputs and the published files.
#include "processingtestutils.h"
#include "realdata.h"
#include "vbasledgerstore.h"

#include <qgsprocessing.h>

#include <QFile>
#include <QTemporaryDir>
#include <QTextStream>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

namespace
{
const QStringList kQuasiIdentifiers{"age_band", "sex", "married"};
constexpr int kColumns = 60, kRows = 50;

/** One person of the MEPS 1996 microdata (data/bench/meps1996_persons.csv): age, sex, married. */
struct Person
{
    QString ageBand, sex, married;
};

std::vector<Person> mepsPersons()
{
    QFile file(QStringLiteral(VBAS_SOURCE_DIR "/data/bench/meps1996_persons.csv"));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly | QIODevice::Text));
    QTextStream lines(&file);
    lines.readLine(); // age,gender,married,ethnicity,education
    std::vector<Person> persons;
    while (!lines.atEnd())
    {
        const QStringList values = lines.readLine().split(',');
        const int age = values.at(0).toInt();
        const int band = age / 5 * 5;
        persons.push_back({QStringLiteral("%1-%2").arg(band).arg(band + 4), values.at(1), values.at(2)});
    }
    return persons;
}

/**
 * 3,000 square small areas (60 x 50) with people clustered in a few towns over a thin countryside; each
 * record a whole person drawn from the microdata (their quasi-identifiers stay joint), with an id 1..N in
 * the order drawn.
 */
struct LedgerScene
{
    std::unique_ptr<QgsVectorLayer> areas;
    QList<QVariantList> rows; // id, area, age_band, sex, married

    LedgerScene()
    {
        QList<QVariant> ids;
        for (int i = 0; i < kColumns * kRows; ++i)
            ids << QStringLiteral("a%1").arg(i, 4, 10, QLatin1Char('0'));
        areas = makeGrid(kColumns, ids);
        const std::vector<Person> persons = mepsPersons();
        std::mt19937_64 random(2026);
        std::uniform_real_distribution<double> x(0, kColumns), y(0, kRows);
        std::vector<std::pair<double, double>> towns;
        for (int t = 0; t < 6; ++t)
            towns.emplace_back(x(random), y(random));
        std::uniform_int_distribution<std::size_t> person(0, persons.size() - 1);
        for (int i = 0; i < kColumns * kRows; ++i)
        {
            const double cx = i % kColumns + 0.5, cy = i / kColumns + 0.5;
            double density = 2.0;
            for (const auto& [tx, ty] : towns)
                density += 60.0 * std::exp(-((cx - tx) * (cx - tx) + (cy - ty) * (cy - ty)) / 18.0);
            const int people = std::poisson_distribution<int>(density)(random);
            for (int p = 0; p < people; ++p)
            {
                const Person& drawn = persons[person(random)];
                rows << QVariantList{0, ids.at(i), drawn.ageBand, drawn.sex, drawn.married};
            }
        }
        // Numbered in a shuffled order, so that any range of ids (a quarter) spreads over every area.
        std::shuffle(rows.begin(), rows.end(), random);
        for (int r = 0; r < rows.size(); ++r)
            rows[r][0] = r + 1;
    }
    /** The records whose id passes `keep`, as a table. */
    std::unique_ptr<QgsVectorLayer> records(const std::function<bool(int)>& keep = {}) const
    {
        QList<QVariantList> kept;
        for (const QVariantList& row : rows)
            if (!keep || keep(row.at(0).toInt()))
                kept << row;
        return makeTable({"id:integer", "area:string", "age_band:string", "sex:string", "married:string"},
                         kept);
    }
};

const LedgerScene& scene()
{
    static const LedgerScene built;
    return built;
}

/**
 * A main-job release of `records` over the scene with `sites` regions (0: the default release, which chooses
 * them), its records and mapping kept.
 */
QVariantMap mainJob(QgsVectorLayer* records, int sites, int k, const QString& ledger)
{
    const QString temporary = QgsProcessing::TEMPORARY_OUTPUT;
    QVariantMap parameters{{"REGIONS", asParameter(scene().areas.get())},
                           {"REGION_ID_FIELD", "id"},
                           {"RECORDS", asParameter(records)},
                           {"RECORD_REGION_FIELD", "area"},
                           {"RECORD_ID_FIELD", "id"},
                           {"QUASI_IDENTIFIERS", kQuasiIdentifiers},
                           {"K", k},
                           {"OUTPUT", temporary},
                           {"OUTPUT_MAPPING", temporary},
                           {"OUTPUT_RECORDS", temporary}};
    if (sites > 0)
    {
        parameters.insert("SITE_COUNT_METHOD", "sitecount.fixed");
        parameters.insert("SITE_COUNT", sites);
        parameters.insert("REFINE_SUPPRESSION", false);
        parameters.insert("REFINE_BOUNDARIES", false);
    }
    if (!ledger.isEmpty())
        parameters.insert("RELEASE_LEDGER", ledger);
    return parameters;
}

/** A release of `records` on the regions of ledger entry `entry`. */
QVariantMap onEntry(QgsVectorLayer* records, int entry, const QString& ledger, bool withIds = true)
{
    QVariantMap parameters = mainJob(records, 0, 5, ledger);
    parameters.remove("OUTPUT_MAPPING");
    parameters.insert("LEDGER_ENTRY", entry);
    if (!withIds)
        parameters.remove("RECORD_ID_FIELD");
    return parameters;
}

/** Region of every small area, from a published mapping. */
QMap<QString, QString> regionOfArea(QgsVectorLayer& mapping)
{
    QMap<QString, QString> regions;
    QgsFeature feature;
    QgsFeatureIterator features = mapping.getFeatures();
    while (features.nextFeature(feature))
        regions.insert(feature.attribute("id").toString(), feature.attribute("aggregate_id").toString());
    return regions;
}

/** Published records per (region, class), counted from a published records table. */
std::map<QStringList, qint64> publishedCells(QgsVectorLayer& records)
{
    std::map<QStringList, qint64> cells;
    QgsFeature feature;
    QgsFeatureIterator features = records.getFeatures();
    while (features.nextFeature(feature))
    {
        QStringList key{feature.attribute("aggregate_id").toString()};
        for (const QString& field : kQuasiIdentifiers)
            key << feature.attribute(field).toString();
        ++cells[key];
    }
    return cells;
}

/**
 * The overlay of two releases' regions, recounted from the input: for every record released by both, its
 * (region in the first, region in the second, class); returns how many such groups hold 1 to k - 1 records.
 */
int smallOverlapGroups(const QList<QVariantList>& rows, const QMap<QString, QString>& first,
                       const QMap<QString, QString>& second,
                       const std::map<QStringList, qint64>& publishedFirst,
                       const std::map<QStringList, qint64>& publishedSecond, int k)
{
    std::map<QStringList, qint64> overlap;
    for (const QVariantList& row : rows)
    {
        const QString area = row.at(1).toString();
        const QStringList cls{row.at(2).toString(), row.at(3).toString(), row.at(4).toString()};
        const QStringList inFirst = QStringList{first.value(area)} + cls,
                          inSecond = QStringList{second.value(area)} + cls;
        if (publishedFirst.count(inFirst) && publishedSecond.count(inSecond))
            ++overlap[QStringList{first.value(area), second.value(area)} + cls];
    }
    int small = 0;
    for (const auto& [group, count] : overlap)
        small += count < k ? 1 : 0;
    return small;
}

std::size_t ledgerEntries(const QString& ledger)
{
    return VbasLedgerStore(ledger).entries().size();
}
} // namespace

// K = 5 then K = 6 on the same records (the default release, which chooses its regions by k), or 74 then 75
// regions: overlaid, the second release would put people in groups of 1 to 4 (recounted below without the
// ledger); with the ledger, the second is refused and writes nothing.
TEST(Ledger, ASecondAggregationOfTheSameRecordsIsRefused)
{
    const auto records = scene().records();
    for (const auto& [sites, k, secondSites, secondK] : {std::tuple(0, 5, 0, 6), std::tuple(74, 5, 75, 5)})
    {
        QTemporaryDir folder;
        const QString ledger = folder.filePath("ledger.sqlite");
        const AlgorithmRun first =
            runAlgorithm("vbas:aggregateregions", mainJob(records.get(), sites, k, ledger));
        ASSERT_TRUE(first.ok) << first.errors.toStdString();
        EXPECT_TRUE(first.log.contains("Release ledger: recorded as release 1 in " + ledger))
            << first.log.toStdString();

        // Without the ledger the attack is real on this data.
        const AlgorithmRun unguarded =
            runAlgorithm("vbas:aggregateregions", mainJob(records.get(), secondSites, secondK, {}));
        ASSERT_TRUE(unguarded.ok) << unguarded.errors.toStdString();
        EXPECT_TRUE(unguarded.log.contains("No release ledger was kept (RELEASE_LEDGER is empty)"));
        EXPECT_GT(smallOverlapGroups(scene().rows, regionOfArea(*outputLayer(first, "OUTPUT_MAPPING")),
                                     regionOfArea(*outputLayer(unguarded, "OUTPUT_MAPPING")),
                                     publishedCells(*outputLayer(first, "OUTPUT_RECORDS")),
                                     publishedCells(*outputLayer(unguarded, "OUTPUT_RECORDS")), 5),
                  0)
            << secondSites << " sites, k = " << secondK;

        // With it: refused before anything is computed or written, naming the earlier release and the safe
        // way.
        const QString output = folder.filePath("second.gpkg");
        QVariantMap parameters = mainJob(records.get(), secondSites, secondK, ledger);
        parameters.insert("OUTPUT", output);
        const AlgorithmRun second = runAlgorithm("vbas:aggregateregions", parameters);
        EXPECT_FALSE(second.ok);
        EXPECT_TRUE(second.errors.contains("RELEASE_LEDGER: these records overlap those of release 1 of "))
            << second.errors.toStdString();
        EXPECT_TRUE(second.errors.contains("(the same records)")) << second.errors.toStdString();
        EXPECT_TRUE(second.errors.contains("vbas:releaseonaggregation with LEDGER_ENTRY=1"));
        EXPECT_FALSE(second.log.contains("release computed")) << "refused before the engine runs";
        EXPECT_FALSE(QFile::exists(output));
        EXPECT_EQ(ledgerEntries(ledger), 1u);
    }
}

// A cumulative table (the first release's records and more) on the first release's regions: no published
// count differs from the first release's by 1 to k - 1, recounted from both published tables; with and
// without record ids.
TEST(Ledger, ACumulativeReleaseOnTheSameRegionsPublishesNoDifferenceBelowK)
{
    const int firstQuarter = int(scene().rows.size() * 3 / 5);
    for (const bool withIds : {true, false})
    {
        QTemporaryDir folder;
        const QString ledger = folder.filePath("ledger.sqlite");
        const auto early = scene().records([&](int id) { return id <= firstQuarter; });
        const auto all = scene().records();
        const AlgorithmRun first = runAlgorithm("vbas:aggregateregions", mainJob(early.get(), 74, 5, ledger));
        ASSERT_TRUE(first.ok) << first.errors.toStdString();
        const AlgorithmRun cumulative =
            runAlgorithm("vbas:releaseonaggregation", onEntry(all.get(), 1, ledger, withIds));
        ASSERT_TRUE(cumulative.ok) << cumulative.errors.toStdString();
        EXPECT_TRUE(cumulative.log.contains(
            "on the same aggregation; every published count differs from its own by 0 "
            "or by at least k"))
            << cumulative.log.toStdString();

        const auto before = publishedCells(*outputLayer(first, "OUTPUT_RECORDS"));
        const auto now = publishedCells(*outputLayer(cumulative, "OUTPUT_RECORDS"));
        std::map<QStringList, qint64> every = before;
        every.insert(now.begin(), now.end());
        int compared = 0;
        for (const auto& [cell, ignored] : every)
        {
            const qint64 a = before.count(cell) ? before.at(cell) : 0, b = now.count(cell) ? now.at(cell) : 0;
            EXPECT_FALSE(std::abs(b - a) >= 1 && std::abs(b - a) <= 4)
                << cell.join(' ').toStdString() << ": " << a << " then " << b;
            compared += a > 0 && b > 0 ? 1 : 0;
        }
        EXPECT_GT(compared, 100); // the releases share many cells
        // Every released group holds k, and the rule withheld something (else it would test nothing).
        EXPECT_GE(recountGroups(*outputLayer(cumulative, "OUTPUT_RECORDS"),
                                QStringList{"aggregate_id"} + kQuasiIdentifiers)
                      .smallestGroup,
                  5);
        EXPECT_TRUE(cumulative.log.contains(QRegularExpression("and [1-9][0-9]* against earlier releases")))
            << cumulative.log.toStdString();
        EXPECT_EQ(ledgerEntries(ledger), 2u);
    }
}

// The next quarter's records, told apart by their ids, on the first quarter's regions: released in full (no
// difference rule), the same regions, recorded as the second release.
TEST(Ledger, ANextQuarterIsReleasedOnTheFirstQuartersRegions)
{
    QTemporaryDir folder;
    const QString ledger = folder.filePath("ledger.sqlite");
    const int split = int(scene().rows.size() / 2);
    const auto quarter1 = scene().records([&](int id) { return id <= split; });
    const auto quarter2 = scene().records([&](int id) { return id > split; });
    const AlgorithmRun first = runAlgorithm("vbas:aggregateregions", mainJob(quarter1.get(), 60, 5, ledger));
    ASSERT_TRUE(first.ok) << first.errors.toStdString();
    const AlgorithmRun second = runAlgorithm("vbas:releaseonaggregation", onEntry(quarter2.get(), 1, ledger));
    ASSERT_TRUE(second.ok) << second.errors.toStdString();
    EXPECT_TRUE(second.log.contains("Release ledger: None of them holds these records."))
        << second.log.toStdString();
    EXPECT_TRUE(second.log.contains("and 0 against earlier releases")) << second.log.toStdString();
    EXPECT_TRUE(second.log.contains("Release ledger: recorded as release 2 in " + ledger));
    // The same regions: every region of the second release is one of the first's.
    const QMap<QString, qint64> regionsFirst = countByValue(*outputLayer(first, "OUTPUT"), "aggregate_id");
    const QMap<QString, qint64> regionsSecond = countByValue(*outputLayer(second, "OUTPUT"), "aggregate_id");
    for (auto region = regionsSecond.constBegin(); region != regionsSecond.constEnd(); ++region)
        EXPECT_TRUE(regionsFirst.contains(region.key())) << region.key().toStdString();
    EXPECT_GE(
        recountGroups(*outputLayer(second, "OUTPUT_RECORDS"), QStringList{"aggregate_id"} + kQuasiIdentifiers)
            .smallestGroup,
        5);
    // Without ids the ledger cannot tell the quarters apart: like records count as the same, so the
    // difference rule holds the second quarter to the first's counts.
    const AlgorithmRun withoutIds =
        runAlgorithm("vbas:releaseonaggregation", onEntry(quarter2.get(), 1, ledger, false));
    ASSERT_TRUE(withoutIds.ok) << withoutIds.errors.toStdString();
    EXPECT_TRUE(withoutIds.log.contains("No record id field (RECORD_ID_FIELD)"))
        << withoutIds.log.toStdString();
    EXPECT_TRUE(withoutIds.log.contains(QRegularExpression("and [1-9][0-9]* against earlier releases")))
        << withoutIds.log.toStdString();
}

// A release recorded while another ran (another QGIS, another machine on the same database) is checked when
// the second records itself, inside the ledger's transaction: the second publishes nothing.
TEST(Ledger, AReleaseRecordedMeanwhileIsCheckedWhenTheNextRecordsItself)
{
    QTemporaryDir folder;
    const QString ledger = folder.filePath("ledger.sqlite");
    const auto quarter1 = scene().records([](int id) { return id <= 5000; });
    const auto all = scene().records();
    ASSERT_TRUE(runAlgorithm("vbas:aggregateregions", mainJob(quarter1.get(), 40, 5, ledger)).ok);
    const QString output = folder.filePath("cumulative.gpkg");
    QVariantMap parameters = onEntry(all.get(), 1, ledger);
    parameters.insert("OUTPUT", output);
    bool raced = false;
    const AlgorithmRun run = runAlgorithm("vbas:releaseonaggregation", parameters, false, -1.0,
                                          [&](const QString& line)
                                          {
                                              // While the release is written: the first release recorded
                                              // again.
                                              if (raced || !line.startsWith("release computed"))
                                                  return;
                                              VbasLedgerStore store(ledger);
                                              store.record(store.entries().front(), [](const auto&) {});
                                              raced = true;
                                          });
    EXPECT_TRUE(raced);
    EXPECT_FALSE(run.ok);
    EXPECT_TRUE(run.errors.contains("of these records was recorded while this release ran; run it again"))
        << run.errors.toStdString();
    EXPECT_FALSE(QFile::exists(output));
    EXPECT_EQ(ledgerEntries(ledger), 2u);
}

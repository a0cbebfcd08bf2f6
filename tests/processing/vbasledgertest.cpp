// The release ledger end to end (SPEC section 13, issues 30 and 39): composition attacks on thousands of
// small areas with quasi-identifiers drawn jointly from real microdata, refused or kept safe by the ledger,
// periodic releases on a saved aggregation, and a ledger that holds by content and leaks nothing. Every
// attack reads the published files as an outsider would; expectations are recounted from the inputs.
#include "processingtestutils.h"
#include "realdata.h"
#include "releasecheck.h"
#include "vbasledgerstore.h"

#include <qgsexception.h>
#include <qgsprocessing.h>

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTextStream>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

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
    /**
     * The records whose id passes `keep`, as a table, each row recoded by `recode` (an id, an area, a value
     * changed) when given.
     */
    std::unique_ptr<QgsVectorLayer> records(const std::function<bool(int)>& keep = {},
                                            const std::function<void(QVariantList&)>& recode = {}) const
    {
        QList<QVariantList> kept;
        for (const QVariantList& row : rows)
            if (!keep || keep(row.at(0).toInt()))
            {
                kept << row;
                if (recode)
                    recode(kept.back());
            }
        return makeTable({"id:integer", "area:string", "age_band:string", "sex:string", "married:string"},
                         kept);
    }
};

const LedgerScene& scene()
{
    static const LedgerScene built;
    return built;
}

/** The areas of the scene under other codes: the same polygons, ids "z0000"... */
const QgsVectorLayer& recodedAreas()
{
    static const std::unique_ptr<QgsVectorLayer> areas = []
    {
        QList<QVariant> ids;
        for (int i = 0; i < kColumns * kRows; ++i)
            ids << QStringLiteral("z%1").arg(i, 4, 10, QLatin1Char('0'));
        return makeGrid(kColumns, ids);
    }();
    return *areas;
}

/** The 5-year band "20-24" as a 20-year band ("20-39"). */
QString twentyYears(const QString& fiveYears)
{
    const int from = fiveYears.section('-', 0, 0).toInt() / 20 * 20;
    return QStringLiteral("%1-%2").arg(from).arg(from + 19);
}

/**
 * The 5-year band "20-24" (the scene's ages start at 18, in 15-19) in 10-year bands from 15 ("15-24",
 * "25-34"...), or in 10-year bands after a first 5-year one ("15-19", "20-29", "30-39"...): two bandings of
 * the same ages offset by 5.
 */
QString decadeFrom15(const QString& fiveYears)
{
    const int from = 15 + (fiveYears.section('-', 0, 0).toInt() - 15) / 10 * 10;
    return QStringLiteral("%1-%2").arg(from).arg(from + 9);
}
QString decadeAfter15To19(const QString& fiveYears)
{
    const int five = fiveYears.section('-', 0, 0).toInt();
    const int from = five < 20 ? 15 : five / 10 * 10;
    return QStringLiteral("%1-%2").arg(from).arg(five < 20 ? 19 : from + 9);
}

/**
 * A main-job release of `records` over the scene with `sites` regions (0: the default release, which chooses
 * them), every output written to files in `folder` (a release, not a trial), recorded in `ledger` (made when
 * `newLedger`; empty: NO_LEDGER).
 */
QVariantMap mainJob(QgsVectorLayer* records, int sites, int k, const QString& ledger,
                    const OutputFolder& folder, bool newLedger = false)
{
    QVariantMap parameters{{"REGIONS", asParameter(scene().areas.get())},
                           {"REGION_ID_FIELD", "id"},
                           {"RECORDS", asParameter(records)},
                           {"RECORD_REGION_FIELD", "area"},
                           {"RECORD_ID_FIELD", "id"},
                           {"QUASI_IDENTIFIERS", kQuasiIdentifiers},
                           {"K", k}};
    if (sites > 0)
    {
        parameters.insert("SITE_COUNT_METHOD", "sitecount.fixed");
        parameters.insert("SITE_COUNT", sites);
        parameters.insert("REFINE_SUPPRESSION", false);
        parameters.insert("REFINE_BOUNDARIES", false);
    }
    if (ledger.isEmpty())
        parameters.insert("NO_LEDGER", true);
    else
        parameters.insert("RELEASE_LEDGER", ledger);
    if (newLedger)
        parameters.insert("NEW_LEDGER", true);
    parameters = folder.release(parameters);
    parameters.remove("OUTPUT_SITES");
    return parameters;
}

/** A release of `records` on the regions of ledger entry `entry`, its outputs in `folder`. */
QVariantMap onEntry(QgsVectorLayer* records, int entry, const QString& ledger, const OutputFolder& folder,
                    bool withIds = true)
{
    QVariantMap parameters = mainJob(records, 0, 5, ledger, folder);
    parameters.remove("OUTPUT_MAPPING");
    parameters.insert("LEDGER_ENTRY", entry);
    if (!withIds)
        parameters.remove("RECORD_ID_FIELD");
    return parameters;
}

/** A release of `records` (quasi-identifiers `quasiIdentifiers`) on the regions a published `mapping` gives.
 */
QVariantMap onMapping(QgsVectorLayer* records, QgsVectorLayer* mapping, const QStringList& quasiIdentifiers,
                      const QString& ledger, const OutputFolder& folder)
{
    QVariantMap parameters = mainJob(records, 0, 5, ledger, folder);
    parameters.remove("OUTPUT_MAPPING");
    parameters.insert("REGIONS", asParameter(mapping));
    parameters.insert("AGGREGATE_FIELD", "aggregate_id");
    parameters.insert("QUASI_IDENTIFIERS", quasiIdentifiers);
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

/** Published records per (region, class of `quasiIdentifiers`), counted from a published records table. */
std::map<QStringList, qint64> publishedCells(QgsVectorLayer& records,
                                             const QStringList& quasiIdentifiers = kQuasiIdentifiers)
{
    std::map<QStringList, qint64> cells;
    QgsFeature feature;
    QgsFeatureIterator features = records.getFeatures();
    while (features.nextFeature(feature))
    {
        QStringList key{feature.attribute("aggregate_id").toString()};
        for (const QString& field : quasiIdentifiers)
            key << feature.attribute(field).toString();
        ++cells[key];
    }
    return cells;
}

qint64 countOf(const std::map<QStringList, qint64>& cells, const QStringList& key)
{
    const auto found = cells.find(key);
    return found == cells.end() ? -1 : found->second; // -1: not published (withheld or absent)
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

/**
 * The cells an outsider pins by subtracting one published table from another of the same cells, taking the
 * second to hold the first's records and more (a later extract, a cumulative table): differences of 1 to k
 * - 1.
 */
int pinnedByDifference(const std::map<QStringList, qint64>& before, const std::map<QStringList, qint64>& now,
                       int k)
{
    int pinned = 0;
    for (const auto& [cell, count] : now)
    {
        const qint64 earlier = countOf(before, cell);
        const qint64 difference = earlier < 0 ? 0 : std::abs(count - earlier);
        pinned += difference >= 1 && difference < k ? 1 : 0;
    }
    return pinned;
}

std::size_t ledgerEntries(const QString& ledger)
{
    QStringList notes;
    return VbasLedgerStore(ledger, VbasLedgerStore::Opening::Existing, {}, notes).entries().size();
}

/** The first release of an attack: the scene's records (those `keep` passes) with 74 regions, in a new
 * ledger. */
struct FirstRelease
{
    QTemporaryDir ledgerFolder;
    QString ledger = ledgerFolder.filePath("ledger.sqlite");
    OutputFolder outputs;
    std::unique_ptr<QgsVectorLayer> records;
    AlgorithmRun run;

    explicit FirstRelease(const std::function<bool(int)>& keep = {}, int sites = 74,
                          const QStringList& quasiIdentifiers = kQuasiIdentifiers,
                          const std::function<void(QVariantList&)>& recode = {})
        : records(scene().records(keep, recode))
    {
        QVariantMap parameters = mainJob(records.get(), sites, 5, ledger, outputs, true);
        parameters.insert("QUASI_IDENTIFIERS", quasiIdentifiers);
        run = runAlgorithm("vbas:aggregateregions", parameters);
        EXPECT_TRUE(run.ok) << run.errors.toStdString();
    }
};
} // namespace

// K = 5 then K = 6 on the same records (the default release, which chooses its regions by k), or 74 then 75
// regions: overlaid, the second release would put people in groups of 1 to 4 (recounted below without the
// ledger); with the ledger, the second is refused and writes nothing.
TEST(Ledger, ASecondAggregationOfTheSameSmallAreasIsRefused)
{
    const auto records = scene().records();
    for (const auto& [sites, k, secondSites, secondK] : {std::tuple(0, 5, 0, 6), std::tuple(74, 5, 75, 5)})
    {
        QTemporaryDir ledgerFolder;
        const QString ledger = ledgerFolder.filePath("ledger.sqlite");
        const OutputFolder firstFolder, unguardedFolder;
        const AlgorithmRun first = runAlgorithm("vbas:aggregateregions",
                                                mainJob(records.get(), sites, k, ledger, firstFolder, true));
        ASSERT_TRUE(first.ok) << first.errors.toStdString();
        EXPECT_TRUE(first.log.contains("Release ledger: recorded as release 1 in " + ledger))
            << first.log.toStdString();

        // Without the ledger the attack is real on this data.
        const AlgorithmRun unguarded = runAlgorithm(
            "vbas:aggregateregions", mainJob(records.get(), secondSites, secondK, {}, unguardedFolder));
        ASSERT_TRUE(unguarded.ok) << unguarded.errors.toStdString();
        EXPECT_GT(smallOverlapGroups(scene().rows, regionOfArea(*outputLayer(first, "OUTPUT_MAPPING")),
                                     regionOfArea(*outputLayer(unguarded, "OUTPUT_MAPPING")),
                                     publishedCells(*outputLayer(first, "OUTPUT_RECORDS")),
                                     publishedCells(*outputLayer(unguarded, "OUTPUT_RECORDS")), 5),
                  0)
            << secondSites << " sites, k = " << secondK;

        // With it: refused before anything is computed or written, naming the earlier release and the safe
        // ways.
        const OutputFolder secondFolder;
        const AlgorithmRun second = runAlgorithm(
            "vbas:aggregateregions", mainJob(records.get(), secondSites, secondK, ledger, secondFolder));
        EXPECT_FALSE(second.ok);
        EXPECT_TRUE(second.errors.contains("RELEASE_LEDGER: release 1 of ")) << second.errors.toStdString();
        EXPECT_TRUE(second.errors.contains("aggregated 3000 of these small areas already"))
            << second.errors.toStdString();
        EXPECT_TRUE(second.errors.contains("vbas:releaseonaggregation with LEDGER_ENTRY=1"));
        EXPECT_FALSE(second.log.contains("release computed")) << "refused before the engine runs";
        EXPECT_EQ(secondFolder.entries(), QStringList());
        EXPECT_EQ(ledgerEntries(ledger), 1u);
    }
}

// The same people recoded slip past a fingerprint of value text: sex as 1/2, the small areas under another
// code of the same polygons, bands of birth years instead of age bands, another set of quasi-identifiers, sex
// alone, or a population floor on the same records. One aggregation per territory refuses each.
TEST(Ledger, ASecondAggregationOfRecodedRecordsIsRefused)
{
    FirstRelease first;
    ASSERT_TRUE(first.run.ok);
    const auto sexAsNumbers =
        scene().records({}, [](QVariantList& row) { row[3] = row[3] == "female" ? "2" : "1"; });
    const auto otherCodes =
        scene().records({}, [](QVariantList& row) { row[1] = "z" + row[1].toString().mid(1); });
    const auto birthBands = scene().records(
        {}, [](QVariantList& row)
        { row[2] = QStringLiteral("born %1").arg(2026 - row[2].toString().section('-', 0, 0).toInt()); });
    struct Variant
    {
        const char* what;
        QgsVectorLayer* records;
        QStringList quasiIdentifiers;
        QString algorithm = "vbas:aggregateregions";
        const QgsVectorLayer* areas = nullptr;
    };
    const std::vector<Variant> variants{
        {"sex coded 1/2", sexAsNumbers.get(), kQuasiIdentifiers},
        {"the small areas under another code", otherCodes.get(), kQuasiIdentifiers, "vbas:aggregateregions",
         &recodedAreas()},
        {"birth years instead of ages", birthBands.get(), kQuasiIdentifiers},
        {"another set of quasi-identifiers", first.records.get(), {"age_band", "sex"}},
        {"sex alone", first.records.get(), {"sex"}},
        {"a population floor", first.records.get(), {}, "vbas:populationfloor"}};
    for (const Variant& variant : variants)
    {
        const OutputFolder folder;
        QVariantMap parameters = mainJob(variant.records, 75, 5, first.ledger, folder);
        parameters.insert("QUASI_IDENTIFIERS", variant.quasiIdentifiers);
        if (variant.areas)
            parameters.insert("REGIONS", asParameter(const_cast<QgsVectorLayer*>(variant.areas)));
        if (variant.algorithm == "vbas:populationfloor")
        {
            parameters.remove("QUASI_IDENTIFIERS");
            parameters.remove("RECORD_ID_FIELD");
            parameters.remove("SITE_COUNT_METHOD");
            parameters.remove("SITE_COUNT");
            parameters.remove("REFINE_SUPPRESSION");
            parameters.remove("REFINE_BOUNDARIES");
        }
        const AlgorithmRun second = runAlgorithm(variant.algorithm, parameters);
        EXPECT_FALSE(second.ok) << variant.what << " was released";
        EXPECT_TRUE(second.errors.contains("aggregated 3000 of these small areas"))
            << second.errors.toStdString();
        if (variant.areas)
        {
            EXPECT_TRUE(second.errors.contains("3000 by place under other ids"))
                << second.errors.toStdString();
        }
        EXPECT_EQ(folder.entries(), QStringList()) << variant.what;
    }
    EXPECT_EQ(ledgerEntries(first.ledger), 1u);
}

// A cumulative table (the first release's records and more) on the first release's regions: no published
// count differs from the first release's by 1 to k - 1, recounted from both published tables; with and
// without record ids.
TEST(Ledger, ACumulativeReleaseOnTheSameRegionsPublishesNoDifferenceBelowK)
{
    const int firstQuarter = int(scene().rows.size() * 3 / 5);
    for (const bool withIds : {true, false})
    {
        FirstRelease first([&](int id) { return id <= firstQuarter; });
        const auto all = scene().records();
        const OutputFolder folder;
        const AlgorithmRun cumulative =
            runAlgorithm("vbas:releaseonaggregation", onEntry(all.get(), 1, first.ledger, folder, withIds));
        ASSERT_TRUE(cumulative.ok) << cumulative.errors.toStdString();
        EXPECT_TRUE(
            cumulative.log.contains("Every published count is checked against 1 earlier release(s) together"))
            << cumulative.log.toStdString();

        const auto before = publishedCells(*outputLayer(first.run, "OUTPUT_RECORDS"));
        const auto now = publishedCells(*outputLayer(cumulative, "OUTPUT_RECORDS"));
        EXPECT_EQ(pinnedByDifference(before, now, 5), 0);
        int compared = 0;
        for (const auto& [cell, count] : now)
            compared += countOf(before, cell) > 0 ? 1 : 0;
        EXPECT_GT(compared, 100); // the releases share many cells
        // Every released group holds k, and the rule withheld something (else it would test nothing).
        EXPECT_GE(recountGroups(*outputLayer(cumulative, "OUTPUT_RECORDS"),
                                QStringList{"aggregate_id"} + kQuasiIdentifiers)
                      .smallestGroup,
                  5);
        EXPECT_TRUE(cumulative.log.contains(QRegularExpression("and [1-9][0-9]* against earlier releases")))
            << cumulative.log.toStdString();
        EXPECT_EQ(ledgerEntries(first.ledger), 2u);
    }
}

// The next quarter's records, told apart by their ids, on the first quarter's regions: released in full (no
// difference rule), the same regions, recorded as the second release.
TEST(Ledger, ANextQuarterIsReleasedOnTheFirstQuartersRegions)
{
    const int split = int(scene().rows.size() / 2);
    FirstRelease first([&](int id) { return id <= split; }, 60);
    const auto quarter2 = scene().records([&](int id) { return id > split; });
    const OutputFolder folder, withoutIdsFolder;
    const AlgorithmRun second =
        runAlgorithm("vbas:releaseonaggregation", onEntry(quarter2.get(), 1, first.ledger, folder));
    ASSERT_TRUE(second.ok) << second.errors.toStdString();
    EXPECT_TRUE(second.log.contains("its records and these: no record id in common"))
        << second.log.toStdString();
    EXPECT_TRUE(second.log.contains("and 0 against earlier releases")) << second.log.toStdString();
    EXPECT_TRUE(second.log.contains("Release ledger: recorded as release 2 in " + first.ledger));
    // The same regions: every region of the second release is one of the first's.
    const QMap<QString, qint64> regionsFirst =
        countByValue(*outputLayer(first.run, "OUTPUT"), "aggregate_id");
    const QMap<QString, qint64> regionsSecond = countByValue(*outputLayer(second, "OUTPUT"), "aggregate_id");
    for (auto region = regionsSecond.constBegin(); region != regionsSecond.constEnd(); ++region)
        EXPECT_TRUE(regionsFirst.contains(region.key())) << region.key().toStdString();
    EXPECT_GE(
        recountGroups(*outputLayer(second, "OUTPUT_RECORDS"), QStringList{"aggregate_id"} + kQuasiIdentifiers)
            .smallestGroup,
        5);
    // Without ids (on a ledger of the first quarter alone) the ledger cannot tell the quarters apart: like
    // records count as the same, so the difference rule holds the second quarter to the first's counts.
    FirstRelease alone([&](int id) { return id <= split; }, 60);
    const AlgorithmRun withoutIds = runAlgorithm(
        "vbas:releaseonaggregation", onEntry(quarter2.get(), 1, alone.ledger, withoutIdsFolder, false));
    ASSERT_TRUE(withoutIds.ok) << withoutIds.errors.toStdString();
    EXPECT_TRUE(withoutIds.log.contains("No person id (RECORD_ID_FIELD)")) << withoutIds.log.toStdString();
    EXPECT_TRUE(withoutIds.log.contains(QRegularExpression("and [1-9][0-9]* against earlier releases")))
        << withoutIds.log.toStdString();
}

// Fresh pseudonyms per extract: the same records under new ids with 5 % new ones, or the same table with one
// record corrected. Comparing ids alone takes them for new records and publishes the difference; compared by
// content too, no cell differs from the first release's by 1 to 4.
TEST(Ledger, FreshPseudonymsAndACorrectionAreToldByContent)
{
    const int firstShare = int(scene().rows.size() * 3 / 5);
    const int extra = int(scene().rows.size() * 3 / 100);
    FirstRelease first([&](int id) { return id <= firstShare; });
    const auto fresh = scene().records([&](int id) { return id <= firstShare + extra; },
                                       [](QVariantList& row) { row[0] = row[0].toInt() + 1000000; });
    bool corrected = false;
    const auto correction = scene().records([&](int id) { return id <= firstShare; },
                                            [&](QVariantList& row)
                                            {
                                                if (!corrected && row[3] == "female")
                                                {
                                                    row[3] = "male";
                                                    corrected = true;
                                                }
                                            });
    const auto before = publishedCells(*outputLayer(first.run, "OUTPUT_RECORDS"));
    for (const auto* records : {fresh.get(), correction.get()})
    {
        // Without the ledger's rule (NO_LEDGER) on the same regions the attack is real.
        const OutputFolder unguardedFolder, folder;
        const AlgorithmRun unguarded =
            runAlgorithm("vbas:releaseonaggregation", onMapping(const_cast<QgsVectorLayer*>(records),
                                                                outputLayer(first.run, "OUTPUT_MAPPING"),
                                                                kQuasiIdentifiers, {}, unguardedFolder));
        ASSERT_TRUE(unguarded.ok) << unguarded.errors.toStdString();
        EXPECT_GT(pinnedByDifference(before, publishedCells(*outputLayer(unguarded, "OUTPUT_RECORDS")), 5),
                  0);
        const AlgorithmRun second =
            runAlgorithm("vbas:releaseonaggregation",
                         onEntry(const_cast<QgsVectorLayer*>(records), 1, first.ledger, folder));
        ASSERT_TRUE(second.ok) << second.errors.toStdString();
        EXPECT_EQ(pinnedByDifference(before, publishedCells(*outputLayer(second, "OUTPUT_RECORDS")), 5), 0);
    }
}

namespace
{
/**
 * An outsider's attack on two releases of the same records in 10-year bands offset by 5 (15-24, 25-34... then
 * 15-19, 20-29, 30-39...): from the youngest band up, each 5-year count is a published band less the 5-year
 * count below it; returns the 5-year groups so pinned at 1 to k - 1, per region and class.
 */
int pinnedByOffsetBands(const std::map<QStringList, qint64>& fromFifteen,
                        const std::map<QStringList, qint64>& offset, int k)
{
    std::set<QStringList> classes; // region, sex, married
    for (const auto& [cell, count] : fromFifteen)
        classes.insert({cell.at(0), cell.at(2), cell.at(3)});
    int pinned = 0;
    for (const QStringList& cls : classes)
    {
        const auto cell = [&](const std::map<QStringList, qint64>& cells, int from, int to)
        {
            return countOf(cells,
                           {cls.at(0), QStringLiteral("%1-%2").arg(from).arg(to), cls.at(1), cls.at(2)});
        };
        qint64 below = cell(offset, 15, 19); // ages 15-19: both bandings start there
        for (int from = 20; from < 65 && below >= 0; from += 5)
        {
            // [from, from + 5) = the 10-year band that ends there less the 5 years below it.
            const qint64 band =
                from % 10 == 0 ? cell(fromFifteen, from - 5, from + 4) : cell(offset, from - 5, from + 4);
            below = band < 0 ? -1 : band - below;
            pinned += below >= 1 && below < k ? 1 : 0;
        }
    }
    return pinned;
}
} // namespace

// Ages in 10-year bands, then the same records and regions in bands offset by 5: each release alone is safe
// and no label of one is a label of the other, yet the two together pin 5-year groups. Compared by the values
// the labels stand for, the second release withholds what would pin one.
TEST(Ledger, BandsOffsetByFiveAreComparedByValue)
{
    FirstRelease first({}, 74, kQuasiIdentifiers,
                       [](QVariantList& row) { row[2] = decadeFrom15(row[2].toString()); });
    const auto offset =
        scene().records({}, [](QVariantList& row) { row[2] = decadeAfter15To19(row[2].toString()); });
    const auto decades = publishedCells(*outputLayer(first.run, "OUTPUT_RECORDS"));
    const OutputFolder unguardedFolder, folder;
    const AlgorithmRun unguarded = runAlgorithm(
        "vbas:releaseonaggregation", onMapping(offset.get(), outputLayer(first.run, "OUTPUT_MAPPING"),
                                               kQuasiIdentifiers, {}, unguardedFolder));
    ASSERT_TRUE(unguarded.ok) << unguarded.errors.toStdString();
    EXPECT_GT(pinnedByOffsetBands(decades, publishedCells(*outputLayer(unguarded, "OUTPUT_RECORDS")), 5), 0);
    const AlgorithmRun second = runAlgorithm("vbas:releaseonaggregation",
                                             onMapping(offset.get(), outputLayer(first.run, "OUTPUT_MAPPING"),
                                                       kQuasiIdentifiers, first.ledger, folder));
    ASSERT_TRUE(second.ok) << second.errors.toStdString();
    EXPECT_EQ(pinnedByOffsetBands(decades, publishedCells(*outputLayer(second, "OUTPUT_RECORDS")), 5), 0);
}

// 20-year bands, then 5-year bands of the same records on the same regions: a 20-year count less the
// published 5-year counts within it is the one withheld 5-year count. None is pinned at 1 to 4.
TEST(Ledger, FinerBandsAfterCoarseOnesPinNoWithheldGroup)
{
    FirstRelease first({}, 74, kQuasiIdentifiers,
                       [](QVariantList& row) { row[2] = twentyYears(row[2].toString()); });
    const auto coarse = publishedCells(*outputLayer(first.run, "OUTPUT_RECORDS"));
    const auto fine = scene().records();
    const auto attack = [&](const std::map<QStringList, qint64>& fiveYears)
    {
        int pinned = 0;
        for (const auto& [cell, count] : coarse)
        {
            const int from = cell.at(1).section('-', 0, 0).toInt();
            qint64 published = 0;
            int missing = 0;
            for (int five = from; five < from + 20; five += 5)
            {
                const qint64 part =
                    countOf(fiveYears, {cell.at(0), QStringLiteral("%1-%2").arg(five).arg(five + 4),
                                        cell.at(2), cell.at(3)});
                if (part < 0)
                    ++missing;
                else
                    published += part;
            }
            pinned += missing == 1 && count - published >= 1 && count - published < 5 ? 1 : 0;
        }
        return pinned;
    };
    const OutputFolder unguardedFolder, folder;
    const AlgorithmRun unguarded = runAlgorithm(
        "vbas:releaseonaggregation", onMapping(fine.get(), outputLayer(first.run, "OUTPUT_MAPPING"),
                                               kQuasiIdentifiers, {}, unguardedFolder));
    ASSERT_TRUE(unguarded.ok) << unguarded.errors.toStdString();
    EXPECT_GT(attack(publishedCells(*outputLayer(unguarded, "OUTPUT_RECORDS"))), 0);
    const AlgorithmRun second = runAlgorithm("vbas:releaseonaggregation",
                                             onMapping(fine.get(), outputLayer(first.run, "OUTPUT_MAPPING"),
                                                       kQuasiIdentifiers, first.ledger, folder));
    ASSERT_TRUE(second.ok) << second.errors.toStdString();
    EXPECT_EQ(attack(publishedCells(*outputLayer(second, "OUTPUT_RECORDS"))), 0);
}

// K lowered to 2 on the same records and regions would publish the groups of 2 to 4 the first release
// withheld; an earlier k is a floor for the same records.
TEST(Ledger, AnEarlierKIsAFloorForTheSameRecords)
{
    FirstRelease first;
    const OutputFolder folder;
    QVariantMap parameters = onEntry(first.records.get(), 1, first.ledger, folder);
    parameters.insert("K", 2);
    const AlgorithmRun lowered = runAlgorithm("vbas:releaseonaggregation", parameters);
    ASSERT_TRUE(lowered.ok) << lowered.errors.toStdString();
    EXPECT_TRUE(lowered.log.contains("K = 2 is below the k = 5")) << lowered.log.toStdString();
    int republished = 0;
    for (const auto& [cell, count] : publishedCells(*outputLayer(lowered, "OUTPUT_RECORDS")))
        republished += count < 5 ? 1 : 0;
    EXPECT_EQ(republished, 0);
}

// Quarter 1, quarter 2 (other people), then the year to date holding both and quarter 3: the third quarter is
// the year to date less the two first, which no pair of releases shows. None of its cells is pinned at 1
// to 4.
TEST(Ledger, TheThirdQuarterIsNotTheYearToDateLessTheFirstTwo)
{
    const int n = int(scene().rows.size());
    FirstRelease first([&](int id) { return id <= n / 3; });
    const auto quarter2 = scene().records([&](int id) { return id > n / 3 && id <= 2 * n / 3; });
    const auto yearToDate = scene().records();
    const OutputFolder second, third;
    const AlgorithmRun q2 =
        runAlgorithm("vbas:releaseonaggregation", onEntry(quarter2.get(), 1, first.ledger, second));
    ASSERT_TRUE(q2.ok) << q2.errors.toStdString();
    const AlgorithmRun ytd =
        runAlgorithm("vbas:releaseonaggregation", onEntry(yearToDate.get(), 1, first.ledger, third));
    ASSERT_TRUE(ytd.ok) << ytd.errors.toStdString();
    const auto one = publishedCells(*outputLayer(first.run, "OUTPUT_RECORDS"));
    const auto two = publishedCells(*outputLayer(q2, "OUTPUT_RECORDS"));
    int pinned = 0, threeKnown = 0;
    for (const auto& [cell, count] : publishedCells(*outputLayer(ytd, "OUTPUT_RECORDS")))
    {
        const qint64 a = countOf(one, cell), b = countOf(two, cell);
        if (a < 0 || b < 0)
            continue;
        ++threeKnown;
        pinned += count - a - b >= 1 && count - a - b < 5 ? 1 : 0;
    }
    EXPECT_GT(threeKnown, 50);
    EXPECT_EQ(pinned, 0);
}

// A ledger is never made silently, and one that is empty, damaged or without its key stops the run: a 0-byte
// file, a path with a typo, a missing folder, a damaged entry, its description deleted, its key missing.
TEST(Ledger, NothingIsMadeOrUsedSilently)
{
    FirstRelease first;
    const auto records = scene().records();
    const QString folderPath = first.ledgerFolder.path();
    const auto refused = [&](const QString& ledger, const QString& expected, const QVariantMap& extra = {})
    {
        const OutputFolder folder;
        QVariantMap parameters = mainJob(records.get(), 74, 5, ledger, folder);
        for (auto it = extra.constBegin(); it != extra.constEnd(); ++it)
            parameters.insert(it.key(), it.value());
        const AlgorithmRun run = runAlgorithm("vbas:aggregateregions", parameters);
        EXPECT_FALSE(run.ok) << ledger.toStdString();
        EXPECT_TRUE(run.errors.contains(expected)) << run.errors.toStdString();
        EXPECT_EQ(folder.entries(), QStringList());
    };
    QFile empty(folderPath + "/empty.sqlite");
    ASSERT_TRUE(empty.open(QIODevice::WriteOnly));
    empty.close();
    refused(empty.fileName(), "the file is empty");
    refused(folderPath + "/ledgr.sqlite", "there is no such file; check the path");
    refused(folderPath + "/missing/ledger.sqlite", "the folder", {{"NEW_LEDGER", true}});
    refused(first.ledger, "exists already", {{"NEW_LEDGER", true}});
    refused(first.ledger, "there is no key", {{"LEDGER_KEY", folderPath + "/elsewhere.key"}});
    EXPECT_FALSE(QFile::exists(folderPath + "/ledgr.sqlite"));

    const auto damaged = [&](const char* sql, const QString& expected)
    {
        const QString copy = folderPath + "/damaged.sqlite";
        QFile::remove(copy);
        ASSERT_TRUE(QFile::copy(first.ledger, copy));
        sqlite3* database = nullptr;
        ASSERT_EQ(sqlite3_open(copy.toUtf8().constData(), &database), SQLITE_OK);
        EXPECT_EQ(sqlite3_exec(database, sql, nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(database);
        // The copy's key is the original's: the same ledger id.
        refused(copy, expected);
    };
    damaged("UPDATE vbas_release_ledger SET summary = '{'", "its entry 1 does not parse");
    damaged("DELETE FROM vbas_release_ledger_meta", "its description is missing");
}

// The key lives apart from the ledger: the ledger file holds no key, and a copy of it without its key
// (leaked, or on another machine) tests no guessed record and records nothing.
TEST(Ledger, ALedgerWithoutItsKeyTestsNothing)
{
    FirstRelease first;
    QFile ledgerFile(first.ledger);
    ASSERT_TRUE(ledgerFile.open(QIODevice::ReadOnly));
    const QByteArray ledgerBytes = ledgerFile.readAll();
    const QStringList keys = QDir(VbasLedgerStore::defaultKeyFolder()).entryList({"*.key"});
    bool checked = false;
    for (const QString& name : keys)
    {
        QFile key(VbasLedgerStore::defaultKeyFolder() + "/" + name);
        ASSERT_TRUE(key.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = key.readAll().split('\n');
        if (!ledgerBytes.contains(lines.at(1)))
            continue; // another test's ledger
        checked = true;
        const QByteArray secret = lines.at(2);
        EXPECT_FALSE(ledgerBytes.contains(secret)) << "the key is not in the ledger";
        EXPECT_FALSE(ledgerBytes.contains(QByteArray::fromBase64(secret))) << "nor its bytes";
    }
    EXPECT_TRUE(checked) << "the ledger's key was found in the key folder";
    // On another machine (another configuration folder), the copy is unusable.
    QTemporaryDir elsewhere;
    const QString copy = elsewhere.filePath("copy.sqlite");
    ASSERT_TRUE(QFile::copy(first.ledger, copy));
    const QByteArray configuration = qgetenv("XDG_CONFIG_HOME");
    qputenv("XDG_CONFIG_HOME", elsewhere.filePath("config").toUtf8());
    QStringList notes;
    EXPECT_THROW(VbasLedgerStore(copy, VbasLedgerStore::Opening::Existing, {}, notes),
                 QgsProcessingException);
    qputenv("XDG_CONFIG_HOME", configuration);
}

// A run into temporary layers is a trial: it is checked but not recorded, and its layers say so; the release
// written to files is recorded. A recorded release never published can be withdrawn, and then binds nothing.
TEST(Ledger, TrialsAreNotRecordedAndUnpublishedReleasesCanBeWithdrawn)
{
    QTemporaryDir ledgerFolder;
    const QString ledger = ledgerFolder.filePath("ledger.sqlite");
    const auto records = scene().records();
    const OutputFolder unused;
    QVariantMap trial = mainJob(records.get(), 74, 5, ledger, unused, true);
    for (const char* output : {"OUTPUT", "OUTPUT_MAPPING", "OUTPUT_RECORDS"})
        trial.insert(output, QgsProcessing::TEMPORARY_OUTPUT);
    trial.remove("OUTPUT_HTML_FILE");
    const AlgorithmRun tried = runAlgorithm("vbas:aggregateregions", trial);
    ASSERT_TRUE(tried.ok) << tried.errors.toStdString();
    EXPECT_TRUE(tried.log.contains("a trial, not recorded")) << tried.log.toStdString();
    EXPECT_EQ(ledgerEntries(ledger), 0u);
    trial.remove("NEW_LEDGER");
    const AlgorithmRun triedAgain = runAlgorithm("vbas:aggregateregions", trial);
    EXPECT_TRUE(triedAgain.ok) << "a trial binds nothing: " << triedAgain.errors.toStdString();

    const OutputFolder published, second;
    ASSERT_TRUE(runAlgorithm("vbas:aggregateregions", mainJob(records.get(), 74, 5, ledger, published)).ok);
    EXPECT_EQ(ledgerEntries(ledger), 1u);
    const AlgorithmRun refused =
        runAlgorithm("vbas:aggregateregions", mainJob(records.get(), 75, 5, ledger, second));
    EXPECT_FALSE(refused.ok);
    EXPECT_TRUE(refused.errors.contains("withdraw it with vbas:withdrawrelease"))
        << refused.errors.toStdString();
    const AlgorithmRun withdrawn = runAlgorithm(
        "vbas:withdrawrelease", {{"RELEASE_LEDGER", ledger}, {"LEDGER_ENTRY", 1}, {"REASON", "the wrong k"}});
    ASSERT_TRUE(withdrawn.ok) << withdrawn.errors.toStdString();
    const OutputFolder third;
    const AlgorithmRun again =
        runAlgorithm("vbas:aggregateregions", mainJob(records.get(), 75, 5, ledger, third));
    EXPECT_TRUE(again.ok) << again.errors.toStdString();
    QStringList notes;
    const std::vector<vbas::LedgerEntry> entries =
        VbasLedgerStore(ledger, VbasLedgerStore::Opening::Existing, {}, notes).entries();
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_TRUE(entries[0].withdrawn());
    EXPECT_EQ(entries[0].withdrawnReason, "the wrong k");
}

// From the command line (any front end but desktop QGIS) a release without a ledger is refused unless
// NO_LEDGER says that none is kept; records of other people on the same small areas are released when the
// custodian says so and their content agrees.
TEST(Ledger, NoLedgerMustBeSaidAndOtherPeopleMustBeOtherPeople)
{
    const auto records = scene().records();
    const OutputFolder folder;
    QVariantMap parameters = mainJob(records.get(), 74, 5, {}, folder);
    parameters.insert("NO_LEDGER", false);
    const AlgorithmRun refused = runAlgorithm("vbas:aggregateregions", parameters);
    EXPECT_FALSE(refused.ok);
    EXPECT_TRUE(refused.errors.contains("no release ledger is given")) << refused.errors.toStdString();

    const int n = int(scene().rows.size());
    FirstRelease first([&](int id) { return id <= n / 2; });
    const auto others = scene().records([&](int id) { return id > n / 2; });
    const OutputFolder otherFolder, sameFolder;
    QVariantMap otherPeople = mainJob(others.get(), 75, 5, first.ledger, otherFolder);
    otherPeople.insert("OTHER_PEOPLE", "1");
    const AlgorithmRun stated = runAlgorithm("vbas:aggregateregions", otherPeople);
    EXPECT_TRUE(stated.ok) << stated.errors.toStdString();
    QVariantMap samePeople = mainJob(first.records.get(), 75, 5, first.ledger, sameFolder);
    samePeople.insert("OTHER_PEOPLE", "1");
    const AlgorithmRun contradicted = runAlgorithm("vbas:aggregateregions", samePeople);
    EXPECT_FALSE(contradicted.ok);
    EXPECT_TRUE(contradicted.errors.contains("OTHER_PEOPLE states that release 1"))
        << contradicted.errors.toStdString();
}

// A release recorded while another ran (another QGIS, another machine on the same database) is checked when
// the second records itself, inside the ledger's transaction: the second publishes nothing.
TEST(Ledger, AReleaseRecordedMeanwhileIsCheckedWhenTheNextRecordsItself)
{
    FirstRelease first([](int id) { return id <= 5000; }, 40);
    const auto all = scene().records();
    const OutputFolder folder;
    bool raced = false;
    const AlgorithmRun run =
        runAlgorithm("vbas:releaseonaggregation", onEntry(all.get(), 1, first.ledger, folder), false, -1.0,
                     [&](const QString& line)
                     {
                         // While the release is written: the first release recorded
                         // again.
                         if (raced || !line.startsWith("release computed"))
                             return;
                         QStringList notes;
                         VbasLedgerStore store(first.ledger, VbasLedgerStore::Opening::Existing, {}, notes);
                         store.record(store.entries().front(), [](const auto&) {});
                         raced = true;
                     });
    EXPECT_TRUE(raced);
    EXPECT_FALSE(run.ok);
    EXPECT_TRUE(run.errors.contains("on these small areas was recorded while this release ran; run it again"))
        << run.errors.toStdString();
    EXPECT_EQ(folder.entries(), QStringList());
    EXPECT_EQ(ledgerEntries(first.ledger), 2u);
}

// Records in a real PostgreSQL with PostGIS (issue 14): the throw-away cluster of postgis-cluster.sh, which
// ctest starts before these tests (fixture "postgis") and stops after them. It holds the Olinda tracts as
// PostGIS polygons and 1,000,000 records over them, age, sex and education drawn jointly from real MEPS
// rows, education NULL for every 997th. Streamed with COPY and counted here, or grouped by the database
// (GROUP BY with COUNT(*)), the groups hold the records that reading every row through QGIS finds, and a
// release of them publishes the same rows.

#include "processingtestutils.h"
#include "realdata.h"
#include "releasecheck.h"
#include "vbasjobloader.h"
#include "vbasledgerstore.h"
#include "vbaspostgresrecords.h"

#include "base/Feedback.h"

#include <qgsapplication.h>
#include <qgsdatasourceuri.h>
#include <qgsprocessingalgorithm.h>
#include <qgsprocessingcontext.h>
#include <qgsprocessingfeedback.h>
#include <qgsprocessingregistry.h>
#include <qgsproject.h>

#include <QFile>
#include <QThread>

#include <algorithm>

#include <gdal.h>
#include <ogr_api.h>

#include <gtest/gtest.h>

namespace
{
constexpr qint64 kRecords = 1000000;

/** The cluster's connection string, which postgis-cluster.sh saved; empty outside ctest. */
QString connection()
{
    QFile file(qEnvironmentVariable("VBAS_TEST_POSTGIS_WORK") + QStringLiteral("/connection"));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()).trimmed() : QString();
}

/** A layer of QGIS's PostgreSQL provider on `table` of the cluster. */
std::unique_ptr<QgsVectorLayer> postgisLayer(const QString& table, const QString& key,
                                             const QString& geometry = QString())
{
    QgsDataSourceUri uri(connection());
    uri.setDataSource(QStringLiteral("public"), table, geometry, QString(), key);
    auto layer = std::make_unique<QgsVectorLayer>(uri.uri(false), table, QStringLiteral("postgres"));
    EXPECT_TRUE(layer->isValid()) << uri.uri(false).toStdString();
    return layer;
}

/** Runs one SQL statement in the cluster (through GDAL, as a second client would). */
void execute(const QString& statement)
{
    const QString path = QStringLiteral("PG:") + connection();
    GDALDatasetH database =
        GDALOpenEx(path.toUtf8().constData(), GDAL_OF_VECTOR | GDAL_OF_UPDATE, nullptr, nullptr, nullptr);
    ASSERT_TRUE(database != nullptr);
    OGRLayerH result = GDALDatasetExecuteSQL(database, statement.toUtf8().constData(), nullptr, nullptr);
    if (result != nullptr)
        GDALDatasetReleaseResultSet(database, result);
    GDALClose(database);
}

/** The COPY statements of ours the server is running now. */
int runningCopies()
{
    const QString path = QStringLiteral("PG:") + connection();
    GDALDatasetH database =
        GDALOpenEx(path.toUtf8().constData(), GDAL_OF_VECTOR | GDAL_OF_READONLY, nullptr, nullptr, nullptr);
    EXPECT_TRUE(database != nullptr);
    OGRLayerH result = GDALDatasetExecuteSQL(
        database,
        "SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'COPY (SELECT %'",
        nullptr, nullptr);
    int running = -1;
    if (result != nullptr)
    {
        if (OGRFeatureH row = OGR_L_GetNextFeature(result))
        {
            running = OGR_F_GetFieldAsInteger(row, 0);
            OGR_F_Destroy(row);
        }
        GDALDatasetReleaseResultSet(database, result);
    }
    GDALClose(database);
    return running;
}

class PostGIS : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (connection().isEmpty())
            GTEST_SKIP() << "no PostgreSQL cluster: run these tests through ctest, which starts one";
    }
};

/**
 * The Olinda release of `records` (regions from the cluster too), every output into `folder`; exact ages, so
 * that the released values are the values read.
 */
QVariantMap releaseParameters(QgsVectorLayer* areas, QgsVectorLayer* records, const OutputFolder& folder)
{
    return folder.release({{"REGIONS", asParameter(areas)},
                           {"REGION_ID_FIELD", "cd_geocodi"},
                           {"RECORDS", asParameter(records)},
                           {"RECORD_REGION_FIELD", "tract"},
                           {"QUASI_IDENTIFIERS", QStringList{"age", "sex", "education"}},
                           {"GENERALIZATION", "age: none"},
                           {"K", 5}});
}
} // namespace

TEST_F(PostGIS, AMillionRecordsCountedHereOrByTheDatabaseHoldTheRecordsEveryRowHolds)
{
    const OlindaInput olinda;
    const std::unique_ptr<QgsVectorLayer> records = postgisLayer("records", "patient_id");
    ASSERT_TRUE(records->isValid());
    VbasRecordFields fields = recordRoles(records->fields(), "tract", {"age", "sex", "education"}, {});
    QStringList streamedLog, groupedLog, rowsLog;
    fields.grouping = VbasGrouping::Automatic;
    const VbasLoadedData streamed = loadOlindaJob(olinda, *records, fields, true, streamedLog);
    fields.grouping = VbasGrouping::Database;
    const VbasLoadedData grouped = loadOlindaJob(olinda, *records, fields, true, groupedLog);
    fields.grouping = VbasGrouping::Rows;
    const VbasLoadedData rows = loadOlindaJob(olinda, *records, fields, true, rowsLog);

    ASSERT_TRUE(streamed.recordsGrouped) << streamedLog.join('\n').toStdString();
    ASSERT_TRUE(grouped.recordsGrouped) << groupedLog.join('\n').toStdString();
    EXPECT_EQ(streamedLog
                  .filter("RECORDS: streamed from PostgreSQL (COPY of the 4 fields read) and counted here: "
                          "1000000 rows, ")
                  .size(),
              1)
        << streamedLog.join('\n').toStdString();
    EXPECT_EQ(groupedLog.filter("RECORDS: grouped by the database (PostgreSQL)").size(), 1);
    EXPECT_TRUE(rowsLog.contains("RECORDS: read through QGIS's feature iterator"));
    ASSERT_EQ(rows.dataset->rows(), std::size_t(kRecords));
    const auto groups = recordsPerGroup(rows);
    EXPECT_LT(groups.size(), std::size_t(kRecords / 4));
    EXPECT_EQ(streamed.dataset->rows(), groups.size());
    EXPECT_EQ(grouped.dataset->rows(), groups.size());
    EXPECT_EQ(recordsPerGroup(streamed), groups);
    EXPECT_EQ(recordsPerGroup(grouped), groups);

    // By construction: every record in a known tract, and education NULL for i = 997, 1994, ... (1003).
    vbas::Count total = 0, nullEducation = 0;
    const std::vector<vbas::CategoryValue>& education = streamed.dataset->quasiIdentifierValues().at(2);
    for (const auto& [key, count] : recordsPerGroup(streamed))
    {
        total += count;
        EXPECT_NE(key[0], std::uint32_t(vbas::kNoRegion));
        nullEducation += education.at(key[3]).null ? count : 0;
    }
    EXPECT_EQ(total, kRecords);
    EXPECT_EQ(nullEducation, kRecords / 997);
}

TEST_F(PostGIS, APreAggregatedTableStreamedAndCountedHereHoldsTheRecordsQgisReads)
{
    execute("DROP TABLE IF EXISTS record_counts");
    execute("CREATE TABLE record_counts AS SELECT row_number() OVER () AS id, tract, age, sex, education, "
            "count(*)::int AS n FROM records GROUP BY 2, 3, 4, 5");
    // Rows that hold no records, as registries have them: a count of 0 and a NULL count.
    execute(
        "INSERT INTO record_counts SELECT -1, tract, age, sex, education, 0 FROM record_counts WHERE id = 1");
    execute("INSERT INTO record_counts SELECT -2, tract, age, sex, education, NULL FROM record_counts "
            "WHERE id = 2");
    execute("ALTER TABLE record_counts ADD PRIMARY KEY (id)");
    const std::unique_ptr<QgsVectorLayer> counts = postgisLayer("record_counts", "id");
    ASSERT_TRUE(counts->isValid());
    const OlindaInput olinda;
    VbasRecordFields fields = recordRoles(counts->fields(), "tract", {"age", "sex", "education"}, {}, "n");
    fields.nullCountAsZero = true;
    QStringList streamedLog, rowsLog;
    fields.grouping = VbasGrouping::Automatic;
    const VbasLoadedData streamed = loadOlindaJob(olinda, *counts, fields, true, streamedLog);
    fields.grouping = VbasGrouping::Rows;
    const VbasLoadedData rows = loadOlindaJob(olinda, *counts, fields, true, rowsLog);

    ASSERT_TRUE(streamed.recordsGrouped) << streamedLog.join('\n').toStdString();
    EXPECT_TRUE(rowsLog.contains("RECORDS: read through QGIS's feature iterator"));
    const auto groups = recordsPerGroup(rows);
    EXPECT_EQ(recordsPerGroup(streamed), groups);
    vbas::Count total = 0;
    for (const auto& [key, count] : groups)
        total += count;
    EXPECT_EQ(total, kRecords);
    // Refused when NULL is not to be read as 0; no feature id names rows read in groups: the filter does.
    fields.nullCountAsZero = false;
    const auto refusal = [&](VbasGrouping grouping)
    {
        fields.grouping = grouping;
        QStringList log;
        try
        {
            loadOlindaJob(olinda, *counts, fields, true, log);
        }
        catch (const QgsProcessingException& error)
        {
            return error.what();
        }
        return QString();
    };
    EXPECT_TRUE(refusal(VbasGrouping::Automatic)
                    .contains("'n' is NULL in 1 row(s) (the filter \"n\" IS NULL shows them)"));
    EXPECT_TRUE(refusal(VbasGrouping::Rows).contains("'n' is NULL in 1 row(s) (first: feature "));
    execute("DROP TABLE record_counts");
}

TEST_F(PostGIS, CopyGivesTheValuesQgisGivesForEveryTypeItReads)
{
    // Text COPY escapes (tab, line breaks, backslashes, a backslash before N), quotes, non-ASCII, empty text;
    // small, whole, big and real numbers; flags; dates; NULL in every column; one row three times.
    execute("DROP TABLE IF EXISTS typed");
    execute("CREATE TABLE typed (id serial PRIMARY KEY, t text, v varchar(20), c char(3), s int2, i int4, "
            "b int8, r float8, n numeric(10, 3), f bool, d date)");
    execute(R"sql(INSERT INTO typed (t, v, c, s, i, b, r, n, f, d) VALUES
        (E'a\tb', E'line\nbreak\r', 'x', 1, -7, 9007199254740993, 0.1, 12.345, true, '2024-02-29'),
        (E'back\\slash', E'\\N', 'yz', -32768, 2147483647, -1, -1e-300, -0.001, false, '0044-03-15'),
        ('say "hi" ''there''', 'Olinda – São José', '', 0, 0, 0, 1.7976931348623157e308, 0, false, '1970-01-01'),
        (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
        ('', '', 'x', 1, -7, 9007199254740993, 0.1, 12.345, true, '2024-02-29'),
        ('', '', 'x', 1, -7, 9007199254740993, 0.1, 12.345, true, '2024-02-29'),
        ('', '', 'x', 1, -7, 9007199254740993, 0.1, 12.345, true, '2024-02-29'))sql");
    const std::unique_ptr<QgsVectorLayer> typed = postgisLayer("typed", "id");
    ASSERT_TRUE(typed->isValid());
    const QStringList fields{"t", "v", "c", "s", "i", "b", "r", "n", "f", "d"};

    // QGIS's rows, counted: each value with its type, as QGIS's provider gives them; reals to the last bit.
    const auto key = [](const QVector<QVariant>& values)
    {
        std::string text;
        for (const QVariant& value : values)
            text +=
                QStringLiteral("%1 %2|")
                    .arg(QString::fromLatin1(value.typeName()),
                         value.isNull()                          ? QStringLiteral("NULL")
                         : value.userType() == QMetaType::Double ? QString::number(value.toDouble(), 'g', 17)
                                                                 : value.toString())
                    .toStdString();
        return text;
    };
    std::map<std::string, qint64> expected;
    QgsFeature feature;
    QgsFeatureIterator features = typed->getFeatures();
    while (features.nextFeature(feature))
    {
        QVector<QVariant> values;
        for (const QString& field : fields)
            values << feature.attribute(field);
        ++expected[key(values)];
    }
    ASSERT_EQ(expected.size(), 5u);
    EXPECT_EQ(std::max_element(expected.begin(), expected.end(),
                               [](const auto& a, const auto& b) { return a.second < b.second; })
                  ->second,
              3);

    for (const auto counting :
         {VbasPostgresRecords::Counting::Here, VbasPostgresRecords::Counting::InDatabase})
    {
        vbas::Feedback feedback;
        QString why;
        const std::unique_ptr<VbasPostgresRecords> copy =
            VbasPostgresRecords::open(*typed, fields, counting, feedback, why);
        ASSERT_NE(copy, nullptr) << why.toStdString();
        std::map<std::string, qint64> read;
        QgsFeatureId id = 0;
        QVector<QVariant> values;
        while (copy->next(id, values))
            read[key(values)] += copy->groupSize();
        EXPECT_EQ(read, expected);
    }
    execute("DROP TABLE typed");
}

TEST_F(PostGIS, AFieldOfATypeCopyDoesNotConvertIsReadThroughQgisOrRefusedWhenGroupingIsAsked)
{
    execute("DROP TABLE IF EXISTS stamped");
    execute("CREATE TABLE stamped AS SELECT patient_id, tract, age, sex, "
            "timestamp '2026-11-25 10:00' + (patient_id % 3) * interval '1 day' AS seen "
            "FROM records WHERE patient_id <= 1000");
    execute("ALTER TABLE stamped ADD PRIMARY KEY (patient_id)");
    const std::unique_ptr<QgsVectorLayer> stamped = postgisLayer("stamped", "patient_id");
    ASSERT_TRUE(stamped->isValid());
    const OlindaInput olinda;
    VbasRecordFields fields = recordRoles(stamped->fields(), "tract", {"age", "sex", "seen"}, {});
    QStringList log;
    fields.grouping = VbasGrouping::Automatic;
    const VbasLoadedData read = loadOlindaJob(olinda, *stamped, fields, true, log);
    EXPECT_FALSE(read.recordsGrouped);
    EXPECT_EQ(read.dataset->rows(), 1000u);
    EXPECT_EQ(log.filter("RECORDS: read through QGIS's feature iterator (not straight from the database: "
                         "'seen' is of type timestamp, which only QGIS reads)")
                  .size(),
              1)
        << log.join('\n').toStdString();
    fields.grouping = VbasGrouping::Database;
    EXPECT_THROW(loadOlindaJob(olinda, *stamped, fields, true, log), QgsProcessingException);
    execute("DROP TABLE stamped");
}

TEST_F(PostGIS, ACanceledReadStopsTheServersQuery)
{
    const std::unique_ptr<QgsVectorLayer> records = postgisLayer("records", "patient_id");
    ASSERT_TRUE(records->isValid());
    // Cancels once the first rows came.
    class CancelOnProgress : public vbas::Feedback
    {
    public:
        bool progressed = false;
        bool isCanceled() const override { return progressed; }

    protected:
        void onProgress(double) override { progressed = true; }
    } feedback;
    QString why;
    EXPECT_THROW(VbasPostgresRecords::open(*records, {"tract", "age"}, VbasPostgresRecords::Counting::Here,
                                           feedback, why),
                 vbas::Canceled);
    EXPECT_TRUE(feedback.progressed);
    for (int wait = 0; wait < 50 && runningCopies() > 0; ++wait)
        QThread::msleep(100);
    EXPECT_EQ(runningCopies(), 0);
}

TEST_F(PostGIS, AReleaseOfAFilteredTablePublishesWhatAReleaseOfEveryRowPublishes)
{
    const std::unique_ptr<QgsVectorLayer> areas = postgisLayer("areas", "area_fid", "geom");
    const std::unique_ptr<QgsVectorLayer> records = postgisLayer("records", "patient_id");
    ASSERT_TRUE(areas->isValid() && records->isValid());
    // The filter goes into the query: a quarter of the records.
    ASSERT_TRUE(records->setSubsetString(QStringLiteral("\"patient_id\" % 4 = 0")));
    const OutputFolder groupedFolder, rowsFolder;
    QVariantMap parameters = releaseParameters(areas.get(), records.get(), groupedFolder);
    const AlgorithmRun grouped = runAlgorithm("vbas:aggregateregions", parameters);
    parameters = releaseParameters(areas.get(), records.get(), rowsFolder);
    parameters["GROUP_RECORDS"] = "rows";
    const AlgorithmRun rows = runAlgorithm("vbas:aggregateregions", parameters);
    ASSERT_TRUE(grouped.ok) << grouped.errors.toStdString();
    ASSERT_TRUE(rows.ok) << rows.errors.toStdString();
    EXPECT_TRUE(grouped.log.contains("RECORDS: streamed from PostgreSQL (COPY")) << grouped.log.toStdString();
    EXPECT_TRUE(rows.log.contains("RECORDS: read through QGIS's feature iterator"));

    const ReleaseInput input{areas.get(),   "cd_geocodi",
                             records.get(), "tract",
                             "patient_id",  {"age", "sex", "education"},
                             QString(),     5};
    const ReleaseRecount recount = expectSoundRelease(grouped, input);
    EXPECT_EQ(recount.input, kRecords / 4);
    expectSameRelease(grouped, rows, {"tract", "age", "sex", "education"});
}

TEST_F(PostGIS, ATableEditedWhileTheReleaseRunsDoesNotChangeWhatIsPublished)
{
    // A table of its own: the other tests may run meanwhile.
    execute("DROP TABLE IF EXISTS records_edited");
    execute("CREATE TABLE records_edited AS SELECT * FROM records WHERE patient_id <= 50000");
    execute("ALTER TABLE records_edited ADD PRIMARY KEY (patient_id)");
    const std::unique_ptr<QgsVectorLayer> areas = postgisLayer("areas", "area_fid", "geom");
    const std::unique_ptr<QgsVectorLayer> records = postgisLayer("records_edited", "patient_id");
    ASSERT_TRUE(areas->isValid() && records->isValid());
    const OutputFolder folder;

    // Someone adds 40 records of one small area and class between the release's reading of the records and
    // its writing of them: enough for a group of their own, were they read.
    const AlgorithmRun run = runAlgorithm(
        "vbas:aggregateregions", releaseParameters(areas.get(), records.get(), folder), false, -1.0,
        [](const QString& info)
        {
            if (info.startsWith(QLatin1String("release computed")))
                execute("INSERT INTO records_edited SELECT -i, tract, age, sex, education FROM "
                        "records_edited, generate_series(1, 40) AS i WHERE patient_id = 1");
        });
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(postgisLayer("records_edited", "patient_id")->featureCount(), 50040);

    // What was published is the release of the table as it was read: recounted against it, with the 40 gone.
    execute("DELETE FROM records_edited WHERE patient_id < 0");
    const std::unique_ptr<QgsVectorLayer> asRead = postgisLayer("records_edited", "patient_id");
    EXPECT_EQ(asRead->featureCount(), 50000);
    const ReleaseInput input{areas.get(),  "cd_geocodi",
                             asRead.get(), "tract",
                             "patient_id", {"age", "sex", "education"},
                             QString(),    5};
    const ReleaseRecount recount = expectSoundRelease(run, input);
    EXPECT_EQ(recount.input, 50000);
    execute("DROP TABLE records_edited");
}

// The release ledger kept in the database: the first release is recorded in it, a second aggregation of the
// same records is refused.
TEST_F(PostGIS, TheReleaseLedgerInTheDatabaseRefusesASecondAggregationOfTheSameRecords)
{
    execute(QStringLiteral("DROP TABLE IF EXISTS vbas_release_ledger"));
    execute(QStringLiteral("DROP TABLE IF EXISTS vbas_release_ledger_meta"));
    const OlindaInput olinda;
    const OutputFolder folder, secondFolder;
    QVariantMap parameters = folder.release(olinda.parameters());
    parameters.insert("RELEASE_LEDGER", QStringLiteral("PG:") + connection());
    const AlgorithmRun missing = runAlgorithm("vbas:aggregateregions", parameters);
    EXPECT_FALSE(missing.ok) << "a ledger is made only when asked";
    EXPECT_TRUE(missing.errors.contains("it holds no release ledger")) << missing.errors.toStdString();
    parameters.insert("NEW_LEDGER", true);
    const AlgorithmRun first = runAlgorithm("vbas:aggregateregions", parameters);
    ASSERT_TRUE(first.ok) << first.errors.toStdString();
    EXPECT_TRUE(first.log.contains("Release ledger: recorded as release 1 in PG:"))
        << first.log.toStdString();
    parameters = secondFolder.release(olinda.parameters());
    parameters.insert("RELEASE_LEDGER", QStringLiteral("PG:") + connection());
    parameters.insert("K", 6);
    const AlgorithmRun second = runAlgorithm("vbas:aggregateregions", parameters);
    EXPECT_FALSE(second.ok);
    EXPECT_TRUE(second.errors.contains("RELEASE_LEDGER: release 1 of ")) << second.errors.toStdString();
    QStringList notes;
    EXPECT_EQ(
        VbasLedgerStore(QStringLiteral("PG:") + connection(), VbasLedgerStore::Opening::Existing, {}, notes)
            .entries()
            .size(),
        1u);
}

// Records in a real PostgreSQL with PostGIS (issue 14): the throw-away cluster of postgis-cluster.sh, which
// ctest starts before these tests (fixture "postgis") and stops after them. It holds the Olinda tracts as
// PostGIS polygons and 1,000,000 records over them, age, sex and education drawn jointly from real MEPS
// rows, education NULL for every 997th. The database groups them (GROUP BY with COUNT(*)); the groups hold
// the records that reading every row through QGIS finds, and a release of them publishes the same rows.

#include "processingtestutils.h"
#include "realdata.h"
#include "releasecheck.h"
#include "vbasconvert.h"

#include <qgsapplication.h>
#include <qgsdatasourceuri.h>
#include <qgsprocessingalgorithm.h>
#include <qgsprocessingcontext.h>
#include <qgsprocessingfeedback.h>
#include <qgsprocessingregistry.h>
#include <qgsproject.h>

#include <QFile>

#include <gdal.h>

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

class PostGIS : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (connection().isEmpty())
            GTEST_SKIP() << "no PostgreSQL cluster: run these tests through ctest, which starts one";
    }
};

/** The Olinda release of `records` (regions from the cluster too), every output into `folder`. */
QVariantMap releaseParameters(QgsVectorLayer* areas, QgsVectorLayer* records, const OutputFolder& folder)
{
    return folder.release({{"REGIONS", asParameter(areas)},
                           {"REGION_ID_FIELD", "cd_geocodi"},
                           {"RECORDS", asParameter(records)},
                           {"RECORD_REGION_FIELD", "tract"},
                           {"QUASI_IDENTIFIERS", QStringList{"age", "sex", "education"}},
                           {"K", 5}});
}
} // namespace

TEST_F(PostGIS, AMillionRecordsGroupedByTheDatabaseHoldTheRecordsEveryRowHolds)
{
    const OlindaInput olinda;
    const std::unique_ptr<QgsVectorLayer> records = postgisLayer("records", "patient_id");
    ASSERT_TRUE(records->isValid());
    VbasRecordFields fields = recordRoles(records->fields(), "tract", {"age", "sex", "education"}, {});
    QStringList groupedLog, rowsLog;
    const VbasJobData grouped = loadOlindaJob(olinda, *records, fields, true, groupedLog);
    fields.grouping = VbasGrouping::Rows;
    const VbasJobData rows = loadOlindaJob(olinda, *records, fields, true, rowsLog);

    ASSERT_TRUE(grouped.recordsGrouped) << groupedLog.join('\n').toStdString();
    EXPECT_EQ(groupedLog.filter("RECORDS: grouped by the database (PostgreSQL").size(), 1);
    EXPECT_TRUE(rowsLog.contains("RECORDS: read through QGIS's feature iterator"));
    ASSERT_EQ(rows.dataset->rows(), std::size_t(kRecords));
    const auto groups = recordsPerGroup(grouped);
    EXPECT_EQ(grouped.dataset->rows(), groups.size());
    EXPECT_LT(groups.size(), std::size_t(kRecords / 4));
    EXPECT_EQ(groups, recordsPerGroup(rows));

    // By construction: every record in a known tract, and education NULL for i = 997, 1994, ... (1003).
    vbas::Count total = 0, nullEducation = 0;
    const std::vector<vbas::CategoryValue>& education = grouped.quasiIdentifierValues.at(2);
    for (const auto& [key, count] : groups)
    {
        total += count;
        EXPECT_NE(key[0], std::uint32_t(vbas::kNoRegion));
        nullEducation += education.at(key[3]).null ? count : 0;
    }
    EXPECT_EQ(total, kRecords);
    EXPECT_EQ(nullEducation, kRecords / 997);
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
    EXPECT_TRUE(grouped.log.contains("RECORDS: grouped by the database (PostgreSQL"))
        << grouped.log.toStdString();
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

// A release on disk is whole or nothing, seen from outside as a user starts it: vbas_process under a file
// size limit (a full disk), two runs at once into the same files, runs killed at any moment, and runs asked
// to stop (SIGTERM, SIGINT, SIGHUP) through vbas_process and stock qgis_process with the plugin. Each release
// is the aggregates (a GeoPackage layer), the records (CSV) and the report (HTML), checked against each
// other: the records the aggregates say they release, the rows of the CSV and the report's figure.

#include "processingtestutils.h"

#include <gdal.h>
#include <ogr_api.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QThread>

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/types.h>

#include <numeric>
#include <ostream>
#include <string>

namespace
{
/**
 * What the three files of a release say: the records released per aggregate by the aggregates layer and
 * by the rows of the records CSV, and the report's numbers of records released and of aggregates. Empty
 * or -1 where a file cannot be read whole.
 */
struct Release
{
    QMap<QString, qint64> aggregates; //!< aggregate id -> its `released` field
    QMap<QString, qint64> records;    //!< aggregate id -> rows of the records CSV
    qint64 reportReleased = -1;
    qint64 reportAggregates = -1;

    /** Returns true when the three files are of one run. */
    bool consistent() const
    {
        QMap<QString, qint64> released; // an aggregate whose records were all suppressed has no rows
        for (auto it = aggregates.constBegin(); it != aggregates.constEnd(); ++it)
            if (it.value() > 0)
                released.insert(it.key(), it.value());
        qint64 rows = 0;
        for (const qint64 count : records)
            rows += count;
        return !aggregates.isEmpty() && released == records && reportReleased == rows &&
               reportAggregates == aggregates.size();
    }
    std::string describe() const
    {
        return QStringLiteral("%1 aggregates releasing %2 records, %3 in the CSV; the report: %4 aggregates, "
                              "%5 records")
            .arg(aggregates.size())
            .arg(std::accumulate(aggregates.begin(), aggregates.end(), qint64(0)))
            .arg(std::accumulate(records.begin(), records.end(), qint64(0)))
            .arg(reportAggregates)
            .arg(reportReleased)
            .toStdString();
    }
};

QMap<QString, qint64> releasedByAggregate(const QString& gpkg)
{
    QMap<QString, qint64> released;
    GDALDatasetH dataset =
        GDALOpenEx(gpkg.toUtf8().constData(), GDAL_OF_VECTOR | GDAL_OF_READONLY, nullptr, nullptr, nullptr);
    if (!dataset)
        return released;
    if (OGRLayerH layer = GDALDatasetGetLayerByName(dataset, "aggregates"))
    {
        const int id = OGR_FD_GetFieldIndex(OGR_L_GetLayerDefn(layer), "aggregate_id");
        const int field = OGR_FD_GetFieldIndex(OGR_L_GetLayerDefn(layer), "released");
        while (OGRFeatureH feature = OGR_L_GetNextFeature(layer))
        {
            released.insert(OGR_F_GetFieldAsString(feature, id), OGR_F_GetFieldAsInteger64(feature, field));
            OGR_F_Destroy(feature);
        }
    }
    GDALClose(dataset);
    return released;
}

/** Returns the rows of the CSV per value of its column `column`; empty when a row is cut short. */
QMap<QString, qint64> rowsByValue(const QString& path, const QString& column)
{
    QMap<QString, qint64> rows;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return rows;
    const QString data = QString::fromUtf8(file.readAll()).remove('"');
    if (!data.endsWith('\n'))
        return rows;
    const QStringList lines = data.split('\n', Qt::SkipEmptyParts);
    const int index = lines.isEmpty() ? -1 : int(lines.constFirst().split(',').indexOf(column));
    if (index < 0)
        return rows;
    for (int i = 1; i < lines.size(); ++i)
        ++rows[lines[i].split(',').value(index)];
    return rows;
}

/** Returns the number in the report's row `label` (thousands separated by commas). */
qint64 reportFigure(const QString& html, const QString& label)
{
    const QRegularExpression row(QStringLiteral("<td>%1</td>\\s*<td[^>]*>([0-9,]+)</td>").arg(label));
    const QRegularExpressionMatch match = row.match(html);
    return match.hasMatch() ? match.captured(1).remove(',').toLongLong() : -1;
}

Release readRelease(const QDir& folder)
{
    QFile report(folder.filePath("report.html"));
    const QString html = report.open(QIODevice::ReadOnly) ? QString::fromUtf8(report.readAll()) : QString();
    return {releasedByAggregate(folder.filePath("release.gpkg")),
            rowsByValue(folder.filePath("records.csv"), "aggregate_id"), reportFigure(html, "released"),
            reportFigure(html, "aggregated regions")};
}

QByteArray contents(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/** Returns the entries the guard may leave behind in `folder`: staging folders, locks, probes. */
QStringList leftovers(const QDir& folder)
{
    return folder.entryList({".vbas-*"},
                            QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

class ReleaseOnDisk : public testing::Test
{
protected:
    /** The outputs of a whole release into `folder`. */
    static QStringList releaseOutputs(const QDir& folder)
    {
        const QString gpkg = folder.filePath("release.gpkg");
        return {QStringLiteral("OUTPUT=ogr:dbname='%1' table=\"aggregates\" (geom)").arg(gpkg),
                QStringLiteral("OUTPUT_SITES=ogr:dbname='%1' table=\"sites\" (geom)").arg(gpkg),
                "OUTPUT_RECORDS=" + folder.filePath("records.csv"),
                "OUTPUT_HTML_FILE=" + folder.filePath("report.html")};
    }

    /** The command line a release runs through. */
    enum class Tool
    {
        VbasProcess,
        /** Stock qgis_process with the plugin (enablePlugin() first). */
        QgisProcess,
    };

    QProcessEnvironment environment() const
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert("QT_QPA_PLATFORM", "offscreen");
        environment.insert("QGIS_CUSTOM_CONFIG_PATH", mProfile.filePath("profile"));
        environment.insert("XDG_RUNTIME_DIR", mProfile.filePath("runtime"));
#ifdef VBAS_QGIS_PROCESS
        environment.insert("QGIS_PLUGINPATH", VBAS_PLUGINS_DIR);
#endif
        return environment;
    }

    /**
     * Starts vbas:aggregateregions on the German districts and their 636 cases with `k` and `outputs`,
     * through `prefix` (a command that runs the rest of its arguments) when given, by `tool`.
     */
    std::unique_ptr<QProcess> start(int k, const QStringList& outputs, QStringList prefix = {},
                                    Tool tool = Tool::VbasProcess) const
    {
        const QString data = QStringLiteral(VBAS_SOURCE_DIR "/data/tests/");
        auto process = std::make_unique<QProcess>();
        process->setProcessEnvironment(environment());
        QStringList parameters{"REGIONS=" + data + "de_districts.gpkg|layername=districts",
                               "REGION_ID_FIELD=KEY",
                               "RECORDS=" + data + "de_imd_cases.csv",
                               "RECORD_REGION_FIELD=tile",
                               "QUASI_IDENTIFIERS=sex",
                               "QUASI_IDENTIFIERS=agegrp",
                               QStringLiteral("K=%1").arg(k),
                               "SITE_COUNT_METHOD=sitecount.naive_anonymity",
                               "NO_LEDGER=true"};
        parameters << outputs;
        if (tool == Tool::VbasProcess)
            prefix << QStringLiteral(VBAS_PROCESS) << "run"
                   << "vbas:aggregateregions"
                   << "--" << parameters;
        else
        {
#ifdef VBAS_QGIS_PROCESS
            prefix << QStringLiteral(VBAS_QGIS_PROCESS) << "run"
                   << "vbas:aggregateregions";
#endif
            for (const QString& parameter : parameters) // qgis_process 3.22 takes --NAME=VALUE only
                prefix << "--" + parameter;
        }
        process->setProgram(prefix.takeFirst());
        process->setArguments(prefix);
        process->start();
        EXPECT_TRUE(process->waitForStarted()) << process->errorString().toStdString();
        return process;
    }

    /** Runs to the end and returns the exit code; stderr in `errors`. */
    int run(int k, const QStringList& outputs, QString* errors = nullptr, const QStringList& prefix = {},
            Tool tool = Tool::VbasProcess) const
    {
        const auto process = start(k, outputs, prefix, tool);
        EXPECT_TRUE(process->waitForFinished(120000));
        if (errors)
            *errors = QString::fromLocal8Bit(process->readAllStandardError());
        return process->exitStatus() == QProcess::NormalExit ? process->exitCode() : -1;
    }

    /** Enables the plugin in the test's profile; false when there is no qgis_process. */
    bool enablePlugin() const
    {
#ifdef VBAS_QGIS_PROCESS
        QProcess enable;
        enable.setProcessEnvironment(environment());
        enable.start(QStringLiteral(VBAS_QGIS_PROCESS), {"plugins", "enable", VBAS_PLUGIN_NAME});
        return enable.waitForFinished(120000) && enable.exitCode() == 0;
#else
        return false;
#endif
    }

    /**
     * Asks runs into a folder holding a release to stop with SIGTERM, SIGINT and SIGHUP, each as soon as it
     * has staged (its staging folder holds a release in the making), and expects each to end without success,
     * leaving the previous release byte for byte and nothing of its own.
     */
    void expectStopSignalsLeaveThePreviousRelease(Tool tool) const
    {
        const QDir folder(mFolder.path());
        QString errors;
        ASSERT_EQ(run(2, releaseOutputs(folder), &errors, {}, tool), 0) << errors.toStdString();
        QMap<QString, QByteArray> previous;
        for (const QString& name : folder.entryList(QDir::Files | QDir::Hidden))
            previous.insert(name, contents(folder.filePath(name)));
        ASSERT_FALSE(previous.isEmpty());
        for (const auto& [stop, name] :
             {std::pair(SIGTERM, "SIGTERM"), std::pair(SIGINT, "SIGINT"), std::pair(SIGHUP, "SIGHUP")})
        {
            const QStringList before = leftovers(folder);
            const auto process = start(4, releaseOutputs(folder), {}, tool);
            bool staged = false;
            while (!staged && !process->waitForFinished(5))
                for (const QString& entry : leftovers(folder))
                    staged |= entry.startsWith(".vbas-staging-") && !before.contains(entry);
            ASSERT_TRUE(staged) << name << ": the run ended before it staged anything";
            ::kill(pid_t(process->processId()), stop);
            ASSERT_TRUE(process->waitForFinished(120000)) << name;
            EXPECT_FALSE(process->exitStatus() == QProcess::NormalExit && process->exitCode() == 0)
                << name << ": the run went on to publish";
            EXPECT_EQ(leftovers(folder), QStringList()) << name << ": what the stopped run staged stays";
            for (auto file = previous.constBegin(); file != previous.constEnd(); ++file)
                EXPECT_EQ(contents(folder.filePath(file.key())), file.value())
                    << name << ": " << file.key().toStdString();
        }
    }

    void SetUp() override
    {
        ASSERT_TRUE(mProfile.isValid());
        ASSERT_TRUE(QDir(mProfile.path()).mkpath("runtime"));
        QFile::setPermissions(mProfile.filePath("runtime"),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        ASSERT_TRUE(mFolder.isValid());
    }

    QTemporaryDir mProfile;
    QTemporaryDir mFolder;
};
} // namespace

/** Where the records go, and the file size limit in percent of the complete file. */
struct Limit
{
    const char* format;
    int percent;
};

/** Names a limit in test listings ("csv at 50 %") rather than by its bytes. */
void PrintTo(const Limit& limit, std::ostream* out)
{
    *out << limit.format << " at " << limit.percent << " %";
}

class FullDisk : public ReleaseOnDisk, public testing::WithParamInterface<Limit>
{
};

TEST_P(FullDisk, FailsTheRunNamingTheOutputAndLeavesTheOldFile)
{
    // Only the records go to a file: the aggregates stay in memory, so the limit hits the records. No file
    // may grow beyond the limit: write() fails with EFBIG (SIGXFSZ ignored), as on a full disk. At half
    // the size the sink refuses a feature; near the full size GDAL loses the end silently (the GeoPackage's
    // COMMIT fails only on stderr, the CSV's last buffer is dropped): only reading it back tells.
    const QDir folder(mFolder.path());
    const QString records = folder.filePath(QStringLiteral("records.") + GetParam().format);
    const QStringList outputs{"OUTPUT=TEMPORARY_OUTPUT", "OUTPUT_RECORDS=" + records};
    QString errors;
    ASSERT_EQ(run(3, outputs, &errors), 0) << errors.toStdString();
    const QByteArray old = contents(records);
    ASSERT_FALSE(old.isEmpty());

    const qint64 limit = old.size() * GetParam().percent / 100;
    const int status =
        run(2, outputs, &errors,
            {"/bin/sh", "-c", QStringLiteral("trap '' XFSZ; exec prlimit --fsize=%1 -- \"$@\"").arg(limit),
             "sh"});
    EXPECT_NE(status, 0) << errors.toStdString();
    EXPECT_TRUE(errors.contains(QRegularExpression("OUTPUT_RECORDS: .*(disk full|could not write)")))
        << errors.toStdString();
    // What failed: the output, the user's file (not its staged copy) and the system's reason, never "()".
    EXPECT_TRUE(errors.contains(records)) << errors.toStdString();
    EXPECT_TRUE(errors.contains("File too large")) << errors.toStdString();
    EXPECT_FALSE(errors.contains("()")) << errors.toStdString();
    EXPECT_FALSE(errors.contains(".vbas-staging-")) << errors.toStdString();
    EXPECT_EQ(contents(records), old);
    EXPECT_EQ(leftovers(folder), QStringList());
}

INSTANTIATE_TEST_SUITE_P(
    Records, FullDisk,
    testing::Values(Limit{"csv", 50}, Limit{"csv", 95}, Limit{"gpkg", 50}, Limit{"gpkg", 85}),
    [](const testing::TestParamInfo<Limit>& limit)
    { return std::string(limit.param.format) + "_at_" + std::to_string(limit.param.percent); });

TEST_F(ReleaseOnDisk, AFullFileSystemFailsTheRunAndLeavesTheOldRelease)
{
    // A real full disk: a tmpfs that holds one release and a half. Needs the right to mount (root in a
    // container that allows it); skipped elsewhere, where the file size limit above stands in for it.
    QDir measure(mFolder.path());
    ASSERT_EQ(run(2, releaseOutputs(measure)), 0);
    qint64 size = 0;
    for (const QFileInfo& file : measure.entryInfoList(QDir::Files))
        size += file.size();
    const QString mountPoint = mProfile.filePath("tmpfs");
    ASSERT_TRUE(QDir().mkpath(mountPoint));
    if (QProcess::execute("mount",
                          {"-t", "tmpfs", "-o", QStringLiteral("size=%1k").arg(size * 3 / 2 / 1024 + 64),
                           "tmpfs", mountPoint}) != 0)
        GTEST_SKIP() << "cannot mount a tmpfs here";
    const auto unmount = qScopeGuard([&] { QProcess::execute("umount", {mountPoint}); });
    const QDir folder(mountPoint);
    ASSERT_EQ(run(2, releaseOutputs(folder)), 0);
    const Release old = readRelease(folder);
    ASSERT_TRUE(old.consistent()) << old.describe();
    const QMap<QString, QByteArray> files = filesIn(folder.path());

    QString errors;
    EXPECT_NE(run(4, releaseOutputs(folder), &errors), 0) << errors.toStdString();
    EXPECT_TRUE(errors.contains(QRegularExpression("OUTPUT[A-Z_]*: "))) << errors.toStdString();
    EXPECT_FALSE(errors.contains(".vbas-staging-")) << "the message names the user's files";
    EXPECT_TRUE(errors.contains("No space left on device")) << errors.toStdString();
    EXPECT_FALSE(errors.contains("()")) << errors.toStdString();
    for (auto file = files.constBegin(); file != files.constEnd(); ++file)
        EXPECT_EQ(contents(folder.filePath(file.key())), file.value()) << file.key().toStdString();
    EXPECT_EQ(folder.entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), files.keys());
}

TEST_F(ReleaseOnDisk, TwoRunsAtOnceLeaveOneRunsRelease)
{
    // K = 2 gives 5 aggregates, K = 4 gives 2: the files of the two runs cannot pass for one release.
    const QDir folder(mFolder.path());
    ASSERT_EQ(run(2, releaseOutputs(folder)), 0); // an earlier release, and a profile made by one run
    for (int round = 0; round < 2; ++round)
    {
        const auto two = start(2, releaseOutputs(folder));
        const auto four = start(4, releaseOutputs(folder));
        ASSERT_TRUE(two->waitForFinished(120000));
        ASSERT_TRUE(four->waitForFinished(120000));
        EXPECT_EQ(two->exitCode(), 0) << two->readAllStandardError().toStdString();
        EXPECT_EQ(four->exitCode(), 0) << four->readAllStandardError().toStdString();
        const Release release = readRelease(folder);
        EXPECT_TRUE(release.consistent()) << "round " << round << ": " << release.describe();
        EXPECT_EQ(leftovers(folder), QStringList());
    }
}

TEST_F(ReleaseOnDisk, AKilledRunLeavesTheOldOrTheNewReleaseAndTheNextRunCleansUp)
{
    const QDir folder(mFolder.path());
    ASSERT_EQ(run(2, releaseOutputs(folder)), 0);
    const Release two = readRelease(folder);
    ASSERT_TRUE(two.consistent()) << two.describe();
    QElapsedTimer clock;
    clock.start();
    ASSERT_EQ(run(4, releaseOutputs(folder)), 0);
    const double runMs = double(clock.elapsed());
    const Release four = readRelease(folder);
    ASSERT_TRUE(four.consistent()) << four.describe();
    ASSERT_NE(two.aggregates, four.aggregates) << "the two releases must be told apart";

    // Runs killed at moments spread over a whole run, denser at the end, where the files are written
    // and moved; each run writes the release the folder does not hold.
    int k = 4;
    for (const double fraction : {0.3, 0.6, 0.8, 0.9, 0.95, 1.0, 1.1})
    {
        k = k == 2 ? 4 : 2;
        const auto process = start(k, releaseOutputs(folder));
        QThread::msleep(static_cast<unsigned long>(fraction * runMs));
        process->kill();
        process->waitForFinished();
        const Release now = readRelease(folder);
        if (now.consistent())
            EXPECT_TRUE(now.aggregates == two.aggregates || now.aggregates == four.aggregates)
                << "at " << fraction << ": " << now.describe();
        else
        {
            // Killed among the renames of its commit: the journal is there for the next run to complete.
            // The renames hold the folder's lock, whose file a killed run cannot remove.
            QStringList staged = leftovers(folder);
            staged.removeAll(QStringLiteral(".vbas-release.lock"));
            ASSERT_EQ(staged.size(), 1)
                << "at " << fraction << ": " << staged.join(", ").toStdString() << "; " << now.describe();
            EXPECT_TRUE(QFile::exists(folder.filePath(staged.constFirst() + "/journal"))) << now.describe();
        }
    }
    ASSERT_EQ(run(k, releaseOutputs(folder)), 0);
    const Release last = readRelease(folder);
    EXPECT_TRUE(last.consistent()) << last.describe();
    EXPECT_EQ(last.aggregates, (k == 2 ? two : four).aggregates);
    EXPECT_EQ(leftovers(folder), QStringList()) << "the killed runs' staging folders are gone";
}

TEST_F(ReleaseOnDisk, StopSignalsRemoveTheStagedReleaseInVbasProcess)
{
    expectStopSignalsLeaveThePreviousRelease(Tool::VbasProcess);
}

TEST_F(ReleaseOnDisk, StopSignalsRemoveTheStagedReleaseInQgisProcess)
{
    if (!enablePlugin())
        GTEST_SKIP() << "no qgis_process with the plugin here";
    expectStopSignalsLeaveThePreviousRelease(Tool::QgisProcess);
}

TEST_F(ReleaseOnDisk, AReleaseThatWouldPublishNothingFailsAndKeepsThePreviousRelease)
{
    // k = 636, every case: no group of the German cases holds them all.
    const QDir folder(mFolder.path());
    ASSERT_EQ(run(2, releaseOutputs(folder)), 0);
    const Release previous = readRelease(folder);
    ASSERT_TRUE(previous.consistent()) << previous.describe();
    const QMap<QString, QByteArray> files = filesIn(folder.path());
    QString errors;
    EXPECT_EQ(run(636, releaseOutputs(folder), &errors), 1);
    EXPECT_TRUE(
        errors.contains("K: with k = 636 no record can be released: all 636 records would be withheld"))
        << errors.toStdString();
    for (auto file = files.constBegin(); file != files.constEnd(); ++file)
        EXPECT_EQ(contents(folder.filePath(file.key())), file.value()) << file.key().toStdString();
    EXPECT_EQ(leftovers(folder), QStringList());
}

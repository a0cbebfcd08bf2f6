// Outputs are whole or nothing: a run canceled at any point, or stopped by an output it cannot write or
// read back whole, leaves no file behind and the files it was replacing as they were; what a stopped run
// staged is cleaned up (or completed) by the next; the problems a user can fix are named before any work
// is done.

#include "processingtestutils.h"
#include "realdata.h"
#include "releasecheck.h"

#include "vbasalgorithm.h"
#include "vbasoutputguard.h"
#include "vbasoutputs.h"
#include "vbasqgiscompat.h"

#include <qgsapplication.h>
#include <qgsprocessing.h>
#include <qgsprocessingcontext.h>
#include <qgsprocessingoutputs.h>
#include <qgsprocessingparameters.h>
#include <qgsprocessingregistry.h>
#include <qgsprocessingutils.h>
#include <qgsproject.h>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace
{
const QString kAggregate = QStringLiteral("vbas:aggregateregions");
const std::string kCanceled = "Canceled by the user; no output was written.";

/** A 12 x 12 grid of squares with 3,000 records on them (rid, area, age, sex), large enough for progress. */
struct Grid
{
    std::unique_ptr<QgsVectorLayer> regions;
    std::unique_ptr<QgsVectorLayer> records;
    std::unique_ptr<QgsVectorLayer> population; //!< a wide table of one band, 1,000 people in each square

    Grid()
    {
        QList<QVariant> ids;
        for (int i = 0; i < 144; ++i)
            ids << QStringLiteral("g%1").arg(i);
        regions = makeGrid(12, ids);
        QList<QVariantList> rows;
        for (int i = 0; i < 3000; ++i)
            rows.append({i, ids.at(i * 7 % 144), QStringLiteral("age%1").arg(i % 5), i % 3 ? "F" : "M"});
        records = makeTable({"rid:integer", "area:string", "age:string", "sex:string"}, rows);
        QList<QVariantList> people;
        for (const QVariant& id : ids)
            people.append({id, 1000});
        population = makeTable({"area:string", "age_0plus:double"}, people);
    }

    /** The parameters of `algorithm` with every file output it has going to `folder`. */
    QVariantMap parameters(const QString& algorithm, const OutputFolder& folder) const
    {
        QVariantMap parameters{{"REGIONS", asParameter(regions.get())},
                               {"REGION_ID_FIELD", "id"},
                               {"RECORDS", asParameter(records.get())},
                               {"RECORD_REGION_FIELD", "area"},
                               {"QUASI_IDENTIFIERS", QStringList{"age", "sex"}},
                               {"K", 3},
                               {"SITE_COUNT_METHOD", "sitecount.fixed"},
                               {"SITE_COUNT", 20},
                               {"ADC", true}};
        if (algorithm == "vbas:compareapproaches")
        {
            parameters.insert("SITE_COUNT_METHOD",
                              QStringList{"sitecount.fixed", "sitecount.naive_anonymity"});
            parameters.insert("SITE_LOCATION", QStringList{"sitelocation.balanced_density"});
            return folder.output(parameters, "comparison.csv");
        }
        if (algorithm == "vbas:selectsites")
            return folder.output(parameters, "sites.gpkg");
        if (algorithm == "vbas:checkanonymity")
            return folder.output({{"INPUT", asParameter(records.get())},
                                  {"REGION_FIELD", "area"},
                                  {"QUASI_IDENTIFIERS", QStringList{"age", "sex"}},
                                  {"K", 3}},
                                 "small-groups.csv");
        if (algorithm == "vbas:maprelease")
        {
            // Every file output, the adjacency's too.
            QVariantMap map = folder.output({{"REGIONS", asParameter(regions.get())},
                                             {"REGION_ID_FIELD", "id"},
                                             {"RECORDS", asParameter(records.get())},
                                             {"RECORD_REGION_FIELD", "area"},
                                             {"POPULATION_TABLE", asParameter(population.get())},
                                             {"POPULATION_TABLE_AREA_FIELD", "area"},
                                             {"POPULATION_TABLE_BAND_FIELDS", QStringList{"age_0plus"}},
                                             {"POPULATION_FLOOR", 5000},
                                             {"NO_LEDGER", true}},
                                            "regions.gpkg");
            map.insert("OUTPUT_GAL", folder.path("regions.gal"));
            map.insert("OUTPUT_INLA_GRAPH", folder.path("regions.graph"));
            map.insert("OUTPUT_HTML_FILE", folder.path("report.html"));
            return map;
        }
        if (algorithm == "vbas:partitionregions")
            parameters.insert("SITES", asParameter(sites.get()));
        if (algorithm == "vbas:rateaggregation")
            parameters.insert("AGGREGATE_FIELD", "id");
        return folder.release(parameters);
    }

    std::unique_ptr<QgsVectorLayer> sites = makePoints({{2, 2}, {9, 3}, {5, 10}, {11, 11}});
};

/** Returns the SHA-1 of the file at `path`, to tell whether it changed. */
QByteArray digest(const QString& path)
{
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha1);
}

struct CancelPoint
{
    const char* algorithm;
    double percent; //!< the user cancels once progress reaches it; 0: before the run starts
};

std::string cancelPointName(const testing::TestParamInfo<CancelPoint>& info)
{
    return (QString(info.param.algorithm).section(':', 1) + "_at_" +
            QString::number(info.param.percent).replace('.', '_'))
        .toStdString();
}

std::vector<CancelPoint> cancelPoints()
{
    // The releases run in three thirds: reading the inputs, the engine, and the outputs, each output in
    // turn a share of the last third (the aggregates, the mapping, the records, the sites, the report for
    // the two with sites; the aggregates, the records, the report for rateaggregation).
    std::vector<CancelPoint> points;
    for (const char* algorithm : {"vbas:aggregateregions", "vbas:partitionregions", "vbas:rateaggregation"})
        for (const double percent : {0.0, 5.0, 15.0, 30.0, 40.0, 60.0, 70.0, 80.0})
            points.push_back({algorithm, percent});
    for (const char* algorithm : {"vbas:aggregateregions", "vbas:partitionregions"})
        for (const double percent : {85.0, 90.0})
            points.push_back({algorithm, percent});
    for (const char* algorithm :
         {"vbas:compareapproaches", "vbas:selectsites", "vbas:estimatesitecount", "vbas:maprelease"})
        for (const double percent : {0.0, 5.0, 15.0, 30.0, 60.0, 85.0, 95.0})
            points.push_back({algorithm, percent});
    for (const double percent : {0.0, 10.0, 50.0, 90.0})
        points.push_back({"vbas:checkanonymity", percent});
    return points;
}
} // namespace

class CanceledRun : public testing::TestWithParam<CancelPoint>
{
};

TEST_P(CanceledRun, LeavesNoFileAndSaysSo)
{
    const Grid grid;
    const OutputFolder folder;
    const AlgorithmRun run = runAlgorithm(GetParam().algorithm, grid.parameters(GetParam().algorithm, folder),
                                          GetParam().percent == 0.0, GetParam().percent);
    EXPECT_FALSE(run.ok);
    EXPECT_TRUE(run.results.isEmpty());
    EXPECT_EQ(run.errors.toStdString(), kCanceled);
    EXPECT_EQ(folder.entries(), QStringList());
}

INSTANTIATE_TEST_SUITE_P(Progress, CanceledRun, testing::ValuesIn(cancelPoints()), cancelPointName);

TEST(OutputGuard, EveryAlgorithmWritesItsFilesWhenNotCanceled)
{
    // The counterpart of the cancel tests: the same runs, uncanceled, do write into the folder.
    const Grid grid;
    for (const char* algorithm :
         {"vbas:aggregateregions", "vbas:partitionregions", "vbas:rateaggregation", "vbas:compareapproaches",
          "vbas:selectsites", "vbas:checkanonymity", "vbas:maprelease"})
    {
        const OutputFolder folder;
        const AlgorithmRun run = runAlgorithm(algorithm, grid.parameters(algorithm, folder));
        ASSERT_TRUE(run.ok) << algorithm << ": " << run.errors.toStdString();
        EXPECT_FALSE(folder.entries().isEmpty()) << algorithm;
        if (QString(algorithm) == "vbas:maprelease")
        {
            EXPECT_TRUE(folder.entries().contains("regions.gal") &&
                        folder.entries().contains("regions.graph"))
                << folder.entries().join(' ').toStdString();
        }
        EXPECT_EQ(folder.entries().filter(".vbas-").size(), 0) << "no copy or probe is left behind";
    }
}

TEST(OutputGuard, AFolderThatIsMissingOrTakesNoFileIsNamedBeforeAnyWork)
{
    const Grid grid;
    const OutputFolder folder;
    QVariantMap parameters = grid.parameters(kAggregate, folder);
    parameters.insert("OUTPUT_HTML_FILE", folder.path("missing/report.html"));
    expectRejected(kAggregate, parameters, folder,
                   "OUTPUT_HTML_FILE: the folder " + folder.path("missing").toStdString() +
                       " does not exist; create it or choose another place for the output");

    // Not even root may create files in /proc, whatever its permission bits say.
    parameters.insert("OUTPUT_HTML_FILE", "/proc/self/report.html");
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    EXPECT_FALSE(run.ok);
    EXPECT_TRUE(run.errors.startsWith("OUTPUT_HTML_FILE: cannot create files in the folder /proc/self ("))
        << run.errors.toStdString();
    EXPECT_TRUE(run.errors.endsWith("); choose a folder you can write to")) << run.errors.toStdString();
    EXPECT_EQ(folder.entries(), QStringList());
}

TEST(OutputGuard, AnOutputThatIsAFolderIsNamed)
{
    const Grid grid;
    const OutputFolder folder;
    ASSERT_TRUE(QDir().mkpath(folder.path("report.html")));
    const AlgorithmRun run = runAlgorithm(kAggregate, grid.parameters(kAggregate, folder));
    EXPECT_FALSE(run.ok);
    EXPECT_EQ(
        run.errors.toStdString(),
        "OUTPUT_HTML_FILE: " + folder.path("report.html").toStdString() +
            " exists and cannot be replaced (it is a folder); close it in other programs or choose another "
            "file");
    EXPECT_EQ(folder.entries(), QStringList{"report.html"});
}

TEST(OutputGuard, AnOutputThatWouldOverwriteAnInputIsRefused)
{
    // The records as a CSV in the folder, and the released records asked into the same file.
    const OutputFolder folder;
    QFile csv(folder.path("patients.csv"));
    ASSERT_TRUE(csv.open(QIODevice::WriteOnly));
    csv.write("rid,area,sex\n1,A,F\n2,A,F\n3,B,M\n4,B,M\n");
    csv.close();
    const QByteArray before = digest(csv.fileName());
    const auto records = std::make_unique<QgsVectorLayer>(csv.fileName(), "patients", "ogr");
    ASSERT_TRUE(records->isValid());
    const auto squares = makeSquares({"A", "B"});
    const QVariantMap parameters{
        {"REGIONS", asParameter(squares.get())},     {"REGION_ID_FIELD", "id"},
        {"RECORDS", asParameter(records.get())},     {"RECORD_REGION_FIELD", "area"},
        {"QUASI_IDENTIFIERS", QStringList{"sex"}},   {"K", 2},
        {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT}, {"OUTPUT_RECORDS", csv.fileName()}};
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    EXPECT_FALSE(run.ok);
    EXPECT_EQ(run.errors.toStdString(), "OUTPUT_RECORDS: " + csv.fileName().toStdString() +
                                            " is also read as RECORDS; writing it would destroy the input: "
                                            "choose another file");
    EXPECT_EQ(digest(csv.fileName()), before);
    EXPECT_EQ(folder.entries(), QStringList{"patients.csv"});
}

TEST(OutputGuard, TwoOutputsInOneFileAreRefusedUnlessLayersOfOneGeoPackage)
{
    const Grid grid;
    const OutputFolder folder;
    QVariantMap parameters = grid.parameters(kAggregate, folder);
    parameters.insert("OUTPUT", folder.path("release.gpkg"));
    parameters.insert("OUTPUT_MAPPING", folder.path("release.gpkg"));
    parameters.remove("OUTPUT_RECORDS"); // else the records' layer of release.gpkg clashes first
    expectRejected(
        kAggregate, parameters, folder,
        "OUTPUT_MAPPING: " + folder.path("release.gpkg").toStdString() +
            " is also where OUTPUT goes; give each output its own file (or its own layer name in one "
            "GeoPackage)");
    // OutputFolder::release() puts four layers in one GeoPackage: allowed.
    const AlgorithmRun run = runAlgorithm(kAggregate, grid.parameters(kAggregate, folder));
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(outputLayer(run, "OUTPUT_SITES")->source(), folder.path("release.gpkg") + "|layername=sites");
}

TEST(OutputGuard, ExistingOutputsAreReplacedBySuccessAndPutBackOnCancel)
{
    const Grid grid;
    const OutputFolder folder;
    QVariantMap parameters = grid.parameters(kAggregate, folder);
    ASSERT_TRUE(runAlgorithm(kAggregate, parameters).ok);
    const QStringList files = folder.entries();
    EXPECT_EQ(files, (QStringList{"release.gpkg", "report.html"}));
    const QByteArray release = digest(folder.path("release.gpkg"));
    const QByteArray report = digest(folder.path("report.html"));

    // Another release into the same files, canceled while the records are written: the first one stays.
    parameters.insert("SITE_COUNT", 12);
    const AlgorithmRun canceled = runAlgorithm(kAggregate, parameters, false, 94.0);
    EXPECT_EQ(canceled.errors.toStdString(), kCanceled);
    EXPECT_EQ(folder.entries(), files);
    EXPECT_EQ(digest(folder.path("release.gpkg")), release);
    EXPECT_EQ(digest(folder.path("report.html")), report);

    // Not canceled, it replaces them.
    const AlgorithmRun replaced = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(replaced.ok) << replaced.errors.toStdString();
    EXPECT_EQ(folder.entries(), files);
    EXPECT_NE(digest(folder.path("report.html")), report);
    EXPECT_EQ(outputLayer(replaced, "OUTPUT")->featureCount(), number(replaced, "AGGREGATES"));
}

namespace
{
/**
 * Writes COUNT features (a number n and a text: line breaks, quotes and separators, empty, NULL) into OUTPUT
 * through VbasSink and "<p>COUNT</p>" into OUTPUT_HTML_FILE, then ends as MODE says: 0 well, 1 with an error,
 * 2 telling the guard of one feature more than the sink took (a feature lost on the way to the disk), 3
 * cutting the last 4 bytes off the written file (a disk that filled up mid-row).
 */
class StagedWriter : public VbasAlgorithm
{
public:
    QString name() const override { return QStringLiteral("stagedwriter"); }
    QString displayName() const override { return name(); }
    QgsProcessingAlgorithm* createInstance() const override { return new StagedWriter; }
    void initAlgorithm(const QVariantMap&) override
    {
        addParameter(new QgsProcessingParameterNumber("COUNT", "count", VbasCompat::NumberTypeInteger, 10));
        addParameter(new QgsProcessingParameterNumber("MODE", "mode", VbasCompat::NumberTypeInteger, 0));
        addParameter(new QgsProcessingParameterFeatureSink("OUTPUT", "table"));
        addParameter(new QgsProcessingParameterFileDestination("OUTPUT_HTML_FILE", "report", "HTML (*.html)",
                                                               QVariant(), true));
    }

protected:
    QVariantMap processAlgorithm(const QVariantMap& parameters, QgsProcessingContext& context,
                                 QgsProcessingFeedback* feedback) override
    {
        VbasOutputGuard guard(*this, parameters, context, feedback);
        return guard.runAndCommit(feedback,
                                  [&] { return writeStaged(guard.parameters(), context, feedback, guard); });
    }

private:
    QVariantMap writeStaged(const QVariantMap& parameters, QgsProcessingContext& context,
                            QgsProcessingFeedback* feedback, VbasOutputGuard& guard)
    {
        const int count = parameterAsInt(parameters, "COUNT", context);
        QgsFields fields;
        fields.append(QgsField("n", VbasCompat::FieldTypeInt));
        fields.append(QgsField("note", VbasCompat::FieldTypeString));
        const QVariant notes[] = {QStringLiteral("two\nlines, \"quoted\""), QString(""),
                                  VbasCompat::nullOf(VbasCompat::FieldTypeString), QStringLiteral("12")};
        QString destination;
        {
            const std::unique_ptr<QgsFeatureSink> sink(parameterAsSink(
                parameters, "OUTPUT", context, destination, fields, VbasCompat::WkbNoGeometry));
            VbasSink out(*sink, "OUTPUT", *feedback, &guard.writtenCounts());
            for (int i = 0; i < count; ++i)
            {
                QgsFeature feature(fields);
                QgsAttributes attributes;
                attributes << i << notes[i % 4];
                feature.setAttributes(attributes);
                out.add(feature);
            }
        }
        if (parameterAsInt(parameters, "MODE", context) == 3)
        {
            const QString path = destination.section('|', 0, 0);
            EXPECT_TRUE(QFile::resize(path, QFileInfo(path).size() - 4)) << path.toStdString();
        }
        QVariantMap results{{"OUTPUT", destination}};
        const QString report = parameterAsFileOutput(parameters, "OUTPUT_HTML_FILE", context);
        if (!report.isEmpty())
        {
            QFile file(report);
            EXPECT_TRUE(file.open(QIODevice::WriteOnly));
            file.write(QStringLiteral("<p>%1</p>").arg(count).toUtf8());
            results.insert("OUTPUT_HTML_FILE", report);
        }
        const int mode = parameterAsInt(parameters, "MODE", context);
        if (mode == 1)
            throw QgsProcessingException("stopped after writing");
        if (mode == 2)
            guard.writtenCounts().add("OUTPUT", 1);
        return results;
    }
};

AlgorithmRun runWriter(const QVariantMap& parameters)
{
    const std::unique_ptr<QgsProcessingAlgorithm> writer(StagedWriter().create());
    return runAlgorithm(*writer, parameters);
}

/** Returns the contents of a text file. */
QString text(const QString& path)
{
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
    return QString::fromUtf8(file.readAll());
}

void writeText(const QString& path, const QString& contents)
{
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly)) << path.toStdString();
    file.write(contents.toUtf8());
}
} // namespace

TEST(StagedOutputs, LandAtTheirFinalPathsWithTheirContents)
{
    const OutputFolder folder;
    const AlgorithmRun run = runWriter({{"COUNT", 25},
                                        {"OUTPUT", folder.path("table.csv")},
                                        {"OUTPUT_HTML_FILE", folder.path("report.html")}});
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(run.results.value("OUTPUT").toString(), folder.path("table.csv"));
    EXPECT_EQ(run.results.value("OUTPUT_HTML_FILE").toString(), folder.path("report.html"));
    EXPECT_EQ(outputLayer(run, "OUTPUT")->featureCount(), 25);
    EXPECT_EQ(text(folder.path("report.html")), "<p>25</p>");
    EXPECT_EQ(folder.entries(), (QStringList{"report.html", "table.csv"})) << "no staging or lock left";
}

TEST(StagedOutputs, OtherLayersOfAGeoPackageSurvive)
{
    const OutputFolder folder;
    const QString gpkg = folder.path("release.gpkg");
    const auto layer = [&](const char* name)
    {
        return QStringLiteral("ogr:dbname='%1' table=\"%2\"").arg(gpkg, name);
    };
    ASSERT_TRUE(runWriter({{"COUNT", 7}, {"OUTPUT", layer("kept")}}).ok);
    const AlgorithmRun run = runWriter({{"COUNT", 12}, {"OUTPUT", layer("written")}});
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(run.results.value("OUTPUT").toString(), gpkg + "|layername=written");
    for (const auto& [name, count] : {std::pair{"kept", 7}, std::pair{"written", 12}})
    {
        QgsVectorLayer read(gpkg + "|layername=" + name, name, "ogr");
        ASSERT_TRUE(read.isValid()) << name;
        EXPECT_EQ(read.featureCount(), count) << name;
    }
    EXPECT_EQ(folder.entries(), QStringList{"release.gpkg"});
}

namespace
{
/**
 * Writes a complete release of 10 rows and a report into `folder`, then runs the writer again with 20 rows in
 * failure `mode`; checks that the second run fails and leaves the first run's files byte-identical and
 * nothing else behind, and returns the failed run.
 */
AlgorithmRun failAfterAReleaseAndKeepIt(const OutputFolder& folder, int mode)
{
    QVariantMap parameters{{"COUNT", 10},
                           {"OUTPUT", folder.path("table.csv")},
                           {"OUTPUT_HTML_FILE", folder.path("report.html")}};
    EXPECT_TRUE(runWriter(parameters).ok);
    const QByteArray table = digest(folder.path("table.csv"));
    const QByteArray report = digest(folder.path("report.html"));

    parameters.insert("COUNT", 20);
    parameters.insert("MODE", mode);
    const AlgorithmRun failed = runWriter(parameters);
    EXPECT_FALSE(failed.ok);
    EXPECT_EQ(digest(folder.path("table.csv")), table);
    EXPECT_EQ(digest(folder.path("report.html")), report);
    EXPECT_EQ(folder.entries(), (QStringList{"report.html", "table.csv"}));
    return failed;
}
} // namespace

TEST(StagedOutputs, AnErrorAfterWritingLeavesThePreviousFilesByteIdentical)
{
    const OutputFolder folder;
    EXPECT_EQ(failAfterAReleaseAndKeepIt(folder, 1).errors.toStdString(), "stopped after writing");
}

TEST(StagedOutputs, AnOutputThatDoesNotReadBackWholeFailsTheRunAndNothingMoves)
{
    const OutputFolder folder;
    EXPECT_EQ(failAfterAReleaseAndKeepIt(folder, 2).errors.toStdString(),
              "OUTPUT: the file written for " + folder.path("table.csv").toStdString() +
                  " holds 20 of the 21 features written (disk full, or a write error?); nothing was moved "
                  "into place, so the files there are as they were before the run");
}

TEST(StagedOutputs, AnOutputCutShortMidRowFailsTheRunAndNothingMoves)
{
    const OutputFolder folder;
    EXPECT_EQ(
        failAfterAReleaseAndKeepIt(folder, 3).errors.toStdString(),
        "OUTPUT: the file written for " + folder.path("table.csv").toStdString() +
            " ends in the middle of a row (disk full, or a write error?); nothing was moved into place, "
            "so the files there are as they were before the run");
}

TEST(StagedOutputs, LayersToLoadAndTheirStylesNameTheFinalFiles)
{
    const Grid grid;
    const OutputFolder folder;
    QVariantMap parameters = grid.parameters(kAggregate, folder);
    for (const char* output : {"OUTPUT", "OUTPUT_MAPPING", "OUTPUT_SITES", "OUTPUT_RECORDS"})
    {
        QgsProcessingOutputLayerDefinition definition(parameters.value(output).toString(),
                                                      QgsProject::instance());
        parameters.insert(output, QVariant::fromValue(definition));
    }
    parameters.insert("NO_LEDGER", true); // a script keeps no ledger only when it says so
    const std::unique_ptr<QgsProcessingAlgorithm> algorithm(
        QgsApplication::processingRegistry()->createAlgorithmById(kAggregate));
    QgsProcessingContext context;
    context.setProject(QgsProject::instance());
    QgsProcessingFeedback feedback;
    bool ok = false;
    const QVariantMap results = algorithm->run(parameters, context, &feedback, &ok);
    ASSERT_TRUE(ok);
    const auto layers = context.layersToLoadOnCompletion();
    EXPECT_EQ(layers.size(), 4);
    for (auto it = layers.constBegin(); it != layers.constEnd(); ++it)
    {
        EXPECT_TRUE(it.key().startsWith(folder.path("release.gpkg|layername="))) << it.key().toStdString();
        EXPECT_TRUE(results.values().contains(it.key())) << it.key().toStdString();
        // The styled roles keep their post-processor; the records are a table QGIS loads as it is.
        EXPECT_EQ(it.value().postProcessor() != nullptr, it.value().outputName != "OUTPUT_RECORDS")
            << it.key().toStdString();
        EXPECT_NE(QgsProcessingUtils::mapLayerFromString(it.key(), context), nullptr)
            << it.key().toStdString();
    }
    EXPECT_EQ(folder.entries(), (QStringList{"release.gpkg", "report.html"}));
}

TEST(StagedOutputs, WhatStoppedRunsLeftIsRemovedOrCompletedButLiveRunsAreLeftAlone)
{
    const OutputFolder folder;
    writeText(folder.path("other.csv"), "n\n1\n");
    // Killed before its commit: removed.
    ASSERT_TRUE(QDir().mkpath(folder.path(".vbas-staging-dead00/new")));
    writeText(folder.path(".vbas-staging-dead00/run.lock"), "");
    writeText(folder.path(".vbas-staging-dead00/new/other.csv"), "n\n2\n");
    // Killed during its commit: completed.
    ASSERT_TRUE(QDir().mkpath(folder.path(".vbas-staging-half00/new")));
    ASSERT_TRUE(QDir().mkpath(folder.path(".vbas-staging-half00/old")));
    writeText(folder.path(".vbas-staging-half00/new/late.csv"), "n\n3\n");
    writeText(folder.path(".vbas-staging-half00/journal"), "move\tmoved.csv\nmove\tlate.csv\n");
    writeText(folder.path("moved.csv"), "n\n3\n");
    // Still running (its lock held): left alone.
    ASSERT_TRUE(QDir().mkpath(folder.path(".vbas-staging-live00/new")));
    const int live = ::open(QFile::encodeName(folder.path(".vbas-staging-live00/run.lock")).constData(),
                            O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    ASSERT_GE(live, 0);
    ASSERT_EQ(::flock(live, LOCK_EX), 0);

    const AlgorithmRun run = runWriter({{"OUTPUT", folder.path("table.csv")}});
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(folder.entries(),
              (QStringList{".vbas-staging-live00", "late.csv", "moved.csv", "other.csv", "table.csv"}));
    EXPECT_EQ(text(folder.path("other.csv")), "n\n1\n") << "a staged file that was not committed stays out";
    EXPECT_EQ(text(folder.path("late.csv")), "n\n3\n") << "a journaled commit is rolled forward";
    EXPECT_TRUE(run.log.contains("Completed the release that a run stopped while moving it into"))
        << run.log.toStdString();
    ::close(live);
}

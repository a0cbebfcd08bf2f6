// Outputs are all or nothing: a run canceled at any point, or stopped by an output it cannot write, leaves
// no file behind and puts back the files it was replacing; the problems a user can fix are named before
// any work is done.

#include "processingtestutils.h"
#include "realdata.h"
#include "releasecheck.h"

#include <qgsprocessing.h>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>

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
    // Reading the inputs, the engine's stages, and for the releases each output in turn from 90 %: the
    // aggregates, the records, and for the two with sites the mapping and the sites too.
    std::vector<CancelPoint> points;
    for (const char* algorithm : {"vbas:aggregateregions", "vbas:partitionregions", "vbas:rateaggregation"})
        for (const double percent : {0.0, 5.0, 15.0, 30.0, 60.0, 85.0, 90.5, 91.5})
            points.push_back({algorithm, percent});
    for (const char* algorithm : {"vbas:aggregateregions", "vbas:partitionregions"})
        for (const double percent : {93.0, 95.0})
            points.push_back({algorithm, percent});
    for (const char* algorithm : {"vbas:compareapproaches", "vbas:selectsites", "vbas:estimatesitecount"})
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
    for (const char* algorithm : {"vbas:aggregateregions", "vbas:partitionregions", "vbas:rateaggregation",
                                  "vbas:compareapproaches", "vbas:selectsites", "vbas:checkanonymity"})
    {
        const OutputFolder folder;
        const AlgorithmRun run = runAlgorithm(algorithm, grid.parameters(algorithm, folder));
        ASSERT_TRUE(run.ok) << algorithm << ": " << run.errors.toStdString();
        EXPECT_FALSE(folder.entries().isEmpty()) << algorithm;
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

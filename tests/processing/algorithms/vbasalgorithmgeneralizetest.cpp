// vbas:aggregateregions with GENERALIZATION and HIERARCHY_TABLES (SPEC section 12) on the Olinda demo data
// (exact ages 18..62, data/README.md): the released labels recounted from the output alone and by the
// independent verifier, the labels checked against the hierarchy by hand, and the errors a user meets. And
// a case list as a user exports it (data/tests/nc_cases.csv: exact ages, some empty, no .csvt) released with
// the defaults alone: ages in bands, the empty ones NULL, whichever reader reads the file.

#include "processingtestutils.h"
#include "realdata.h"
#include "releasecheck.h"
#include "vbasqgiscompat.h"

#include <qgsapplication.h>
#include <qgsprocessing.h>
#include <qgsprocessingregistry.h>
#include <qgsprocessingutils.h>

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTextDocument>

#include <gtest/gtest.h>

#include <algorithm>

namespace
{
const QString kAggregate = QStringLiteral("vbas:aggregateregions");
const QStringList kQuasiIdentifiers{"age", "sex", "married"};

/** The recommended release (suppression budget 1 %, refinement) of Olinda over exact age, sex and married. */
QVariantMap generalizing(const OlindaInput& olinda, const QString& generalization)
{
    QVariantMap parameters = olinda.parameters(kQuasiIdentifiers);
    parameters.remove("SITE_COUNT_METHOD");
    parameters.insert("GENERALIZATION", generalization);
    return parameters;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(text);
    return path;
}
} // namespace

TEST(Generalize, ReleasedAgesAreBandsOfOneLevelAndEveryGroupHoldsK)
{
    const OlindaInput olinda;
    QTemporaryDir dir;
    QVariantMap parameters = generalizing(olinda, "age: interval 5 10 20");
    parameters.insert("OUTPUT_HTML_FILE", dir.filePath("report.html"));
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    QgsVectorLayer* records = outputLayer(run, "OUTPUT_RECORDS");
    ASSERT_TRUE(records);

    // Every released age is a band "lo-hi" of one width (5, 10 or 20, aligned on it) or "*", and covers
    // only ages of the input (18..62).
    const QMap<QString, qint64> ages = countByValue(*records, "age");
    ASSERT_FALSE(ages.isEmpty());
    const QRegularExpression band(QStringLiteral("^(\\d+)-(\\d+)$"));
    QSet<int> widths;
    for (auto it = ages.constBegin(); it != ages.constEnd(); ++it)
    {
        if (it.key() == "*")
        {
            widths.insert(0);
            continue;
        }
        const QRegularExpressionMatch match = band.match(it.key());
        ASSERT_TRUE(match.hasMatch()) << it.key().toStdString();
        const int lo = match.captured(1).toInt();
        const int hi = match.captured(2).toInt();
        const int width = hi - lo + 1;
        ASSERT_TRUE(width == 5 || width == 10 || width == 20) << it.key().toStdString();
        EXPECT_EQ(lo % width, 0) << it.key().toStdString();
        EXPECT_LE(lo, 62);
        EXPECT_GE(hi, 18);
        widths.insert(width);
    }
    EXPECT_EQ(widths.size(), 1) << "one level for every record";

    // k-anonymous over the released labels, by our recount and by the verifier; nothing lost.
    const Recount recount = recountGroups(*records, QStringList{"aggregate_id"} + kQuasiIdentifiers);
    EXPECT_GE(recount.smallestGroup, 5);
    EXPECT_EQ(checkAnonymity(records, "aggregate_id", kQuasiIdentifiers, 5), "PASS");
    EXPECT_EQ(recount.records, number(run, "RECORDS_RELEASED"));
    EXPECT_EQ(number(run, "RECORDS_RELEASED") + number(run, "SUPPRESSED"), kOlindaPatients);
    EXPECT_LE(number(run, "SUPPRESSED"), kOlindaPatients / 100) << "within the 1 % budget";

    // The report lists the combinations tried and the chosen one, which states the release's own regions
    // (its evaluation, without refinement, found fewer); it says how age was released in words.
    QFile report(dir.filePath("report.html"));
    ASSERT_TRUE(report.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(report.readAll());
    EXPECT_TRUE(html.contains("<h2 id=\"generalization\">Generalization</h2>"));
    const QString table = html.section("<table class=\"generalization\">", 1).section("</table>", 0, 0);
    const QStringList chosen = table.split("\n").filter("<tr class=\"chosen\">");
    ASSERT_EQ(chosen.size(), 1) << table.toStdString();
    EXPECT_TRUE(chosen[0].contains(QStringLiteral("<td>%1 regions, ").arg(number(run, "AGGREGATES"))))
        << chosen[0].toStdString();
    const int width = *widths.begin();
    const QString released =
        width == 0 ? QStringLiteral("not released (all '*')") : QStringLiteral("in bands of %1").arg(width);
    EXPECT_TRUE(chosen[0].contains(QStringLiteral("<td>%1</td>").arg(released))) << chosen[0].toStdString();
    // The summary names the bands with the first few of the published labels, lowest first (from the
    // records output, recounted above).
    QStringList labels = ages.keys();
    std::sort(labels.begin(), labels.end(),
              [](const QString& a, const QString& b)
              { return a.section('-', 0, 0).toInt() < b.section('-', 0, 0).toInt(); });
    const QString examples =
        width == 0 ? QString()
                   : QStringLiteral(": %1%2").arg(labels.mid(0, 3).join(QStringLiteral(", ")),
                                                  labels.size() > 3 ? QStringLiteral("...") : QString());
    EXPECT_TRUE(html.contains(QStringLiteral("<li><strong>age</strong> %1%2</li>").arg(released, examples)))
        << html.section("<h3>How each field is released</h3>", 1).section("</ul>", 0, 0).toStdString();

    // A quiet log (issue 31): the search in one line each, not a line per combination or site count tried.
    const QStringList lines = run.log.split('\n', Qt::SkipEmptyParts);
    EXPECT_EQ(lines
                  .filter(QRegularExpression(
                      '^' + QRegularExpression::escape("generalization: age " + released + ", the best of ")))
                  .size(),
              1)
        << run.log.toStdString();
    EXPECT_EQ(lines.filter(QRegularExpression("^suppression budget: ")).size(), 1) << run.log.toStdString();
    // A line per phase, the release in two, the searches in one each, what the release cost in three and
    // where its report is, and a few notes and warnings, where a line per release tried made some 50.
    EXPECT_LE(lines.size(), 20) << run.log.toStdString();
}

TEST(Generalize, GeneralizingGivesAtLeastTheRegionsOfExactValues)
{
    const OlindaInput olinda;
    QVariantMap exact = olinda.parameters(kQuasiIdentifiers);
    exact.remove("SITE_COUNT_METHOD");
    exact.insert("GENERALIZATION", "age: none");
    const AlgorithmRun plain = runAlgorithm(kAggregate, exact);
    ASSERT_TRUE(plain.ok) << plain.errors.toStdString();
    const AlgorithmRun general = runAlgorithm(kAggregate, generalizing(olinda, "age: interval 5 10 20"));
    ASSERT_TRUE(general.ok) << general.errors.toStdString();
    EXPECT_GE(number(general, "AGGREGATES"), number(plain, "AGGREGATES"));
    EXPECT_LE(number(general, "SUPPRESSED"), kOlindaPatients / 100);
}

TEST(Generalize, AHighestLevelKeepsTheDetailAStudyNeeds)
{
    const OlindaInput olinda;
    const AlgorithmRun run = runAlgorithm(kAggregate, generalizing(olinda, "age: interval 5 10 20 max 5"));
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    const QMap<QString, qint64> ages = countByValue(*outputLayer(run, "OUTPUT_RECORDS"), "age");
    const QRegularExpression fiveOrExact(QStringLiteral("^(\\d+|(\\d+)-(\\d+))$"));
    for (auto it = ages.constBegin(); it != ages.constEnd(); ++it)
    {
        const QRegularExpressionMatch match = fiveOrExact.match(it.key());
        ASSERT_TRUE(match.hasMatch()) << it.key().toStdString();
        if (!match.captured(2).isEmpty())
        {
            EXPECT_EQ(match.captured(3).toInt() - match.captured(2).toInt(), 4) << it.key().toStdString();
        }
    }
}

TEST(Generalize, ATableGeneralizesTextValues)
{
    const OlindaInput olinda;
    QTemporaryDir dir;
    // Olinda's married is yes or no: one level merging both, then "*" is not added twice.
    const QString table = writeFile(dir, "married.csv", "yes;any\nno;any\n");
    QVariantMap parameters = generalizing(olinda, "age: interval 10");
    parameters.insert("HIERARCHY_TABLES", QStringList{table});
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    QgsVectorLayer* records = outputLayer(run, "OUTPUT_RECORDS");
    const QStringList married = countByValue(*records, "married").keys();
    EXPECT_TRUE(married == QStringList({"no", "yes"}) || married == QStringList({"any"}) ||
                married == QStringList({"*"}))
        << married.join(',').toStdString();
    EXPECT_EQ(checkAnonymity(records, "aggregate_id", kQuasiIdentifiers, 5), "PASS");
}

TEST(Generalize, MistakesAreNamedWithWhatToDo)
{
    const OlindaInput olinda;
    QTemporaryDir dir;
    struct Case
    {
        QString generalization;
        QString table;
        QStringList mentions;
    };
    const QString incomplete = writeFile(dir, "married.csv", "yes;any\n");
    const QList<Case> cases{
        {"age: intervals 5", QString(), {"GENERALIZATION", "intervals", "interval"}},
        {"height: interval 5", QString(), {"GENERALIZATION", "height", "age"}},
        {"sex: interval 5", QString(), {"GENERALIZATION", "sex", "female"}},
        {"age: interval 5 7", QString(), {"GENERALIZATION", "age"}},
        {"age interval 5", QString(), {"GENERALIZATION", ":"}},
        {"age: interval 5 max 3", QString(), {"GENERALIZATION", "3"}},
        {QString(), incomplete, {"GENERALIZATION", "married", "no"}},
    };
    for (const Case& c : cases)
    {
        QVariantMap parameters = generalizing(olinda, c.generalization);
        if (!c.table.isEmpty())
            parameters.insert("HIERARCHY_TABLES", QStringList{c.table});
        const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
        EXPECT_FALSE(run.ok) << c.generalization.toStdString();
        for (const QString& mention : c.mentions)
            EXPECT_TRUE(run.errors.contains(mention))
                << c.generalization.toStdString() << ": " << run.errors.toStdString();
    }
}

TEST(Generalize, TheComparisonSweepsEachApproachAtTheLevelsItsReleaseChooses)
{
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters(kQuasiIdentifiers);
    parameters.insert("SITE_LOCATION",
                      QStringList{"sitelocation.balanced_density", "sitelocation.naive_density"});
    parameters.insert("SWEEP_STEPS", 1);
    parameters.insert("GENERALIZATION", "age: interval 5 10 20 max 10");
    const AlgorithmRun run = runAlgorithm("vbas:compareapproaches", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();

    // Each approach is swept at one level of age, at most bands of 10 (the coarsest, "*", would give the most
    // regions); the loss of a band of width w over ages 18..62 is at most w / 44 per record, averaged over 3
    // quasi-identifiers.
    const QRegularExpression levels(QStringLiteral("^age (0|5|10)$"));
    QMap<QString, QSet<QString>> levelsOfApproach;
    QMap<QString, QMap<int, qint64>> aggregatesBySites;
    QgsFeature feature;
    QgsFeatureIterator features = outputLayer(run, "OUTPUT")->getFeatures();
    while (features.nextFeature(feature))
    {
        const QString generalization = feature.attribute("generalization").toString();
        const QRegularExpressionMatch match = levels.match(generalization);
        ASSERT_TRUE(match.hasMatch()) << generalization.toStdString();
        const QString locator = feature.attribute("site_location").toString();
        levelsOfApproach[locator].insert(match.captured(1));
        const double loss = feature.attribute("attribute_loss").toDouble();
        if (match.captured(1) == "0")
            EXPECT_EQ(loss, 0.0);
        else
        {
            EXPECT_GT(loss, 0.0);
            EXPECT_LE(loss, match.captured(1).toDouble() / 44.0 / 3.0 + 1e-12);
        }
        aggregatesBySites[locator].insert(feature.attribute("site_count").toInt(),
                                          feature.attribute("aggregates").toLongLong());
    }
    ASSERT_EQ(levelsOfApproach.size(), 2);

    // The sweep's middle row is the release vbas:aggregateregions makes with that approach unrefined: the
    // same sites, regions and level of age.
    for (const char* locator : {"sitelocation.balanced_density", "sitelocation.naive_density"})
    {
        ASSERT_EQ(levelsOfApproach.value(locator).size(), 1) << locator;
        const QMap<int, qint64> sweep = aggregatesBySites.value(locator);
        ASSERT_EQ(sweep.size(), 3) << locator;
        QVariantMap single = generalizing(olinda, "age: interval 5 10 20 max 10");
        single.insert("SITE_COUNT_METHOD", "sitecount.naive_anonymity");
        single.insert("SITE_LOCATION", locator);
        single.insert("REFINE_SUPPRESSION", false);
        const AlgorithmRun release = runAlgorithm(kAggregate, single);
        ASSERT_TRUE(release.ok) << release.errors.toStdString();
        EXPECT_EQ(number(release, "AGGREGATES") + number(release, "EMPTY_SITES"),
                  std::next(sweep.begin()).key());
        EXPECT_EQ(number(release, "AGGREGATES"), std::next(sweep.begin()).value()) << locator;

        // The level of the released ages: exact numbers (0), all "*", or bands of one width.
        QSet<QString> widths;
        const QStringList ages = countByValue(*outputLayer(release, "OUTPUT_RECORDS"), "age").keys();
        for (const QString& age : ages)
        {
            const QStringList bounds = age.split('-');
            widths.insert(age == "*"           ? QStringLiteral("*")
                          : bounds.size() == 1 ? QStringLiteral("0")
                                               : QString::number(bounds[1].toInt() - bounds[0].toInt() + 1));
        }
        EXPECT_EQ(widths, levelsOfApproach.value(locator)) << locator;
    }
}

TEST(Generalize, TheTooltipShowsTheWholeHelp)
{
    // QGIS shows a parameter's help as HTML: a '<' in it ("'<18'") starts a tag that hides the rest.
    const QgsProcessingAlgorithm* algorithm = QgsApplication::processingRegistry()->algorithmById(kAggregate);
    ASSERT_TRUE(algorithm);
    const QgsProcessingParameterDefinition* generalization = algorithm->parameterDefinition("GENERALIZATION");
    ASSERT_TRUE(generalization);
    QTextDocument shown;
    shown.setHtml(generalization->toolTip());
    const QString text = shown.toPlainText();
    for (const char* part : {"interval W1 W2", "date week month", "prefix L1 L2", "table:", "auto:",
                             "age: none", "max *", "Examples:", "every combination tried."})
        EXPECT_TRUE(text.contains(part)) << part << "\n" << text.toStdString();
}

namespace
{
const QString kCaseList = QStringLiteral("tests/nc_cases.csv");

/** What the test reads of the case list itself, as text, with no reader of QGIS or GDAL. */
struct CaseListText
{
    qint64 cases = 0;
    qint64 emptyAges = 0;
    QMap<QString, qint64> emptyAgesBySex;
};

CaseListText readCaseList()
{
    QFile file(QStringLiteral(VBAS_SOURCE_DIR "/data/") + kCaseList);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    EXPECT_EQ(lines.value(0), "case_id,county,age,sex");
    CaseListText text;
    for (int i = 1; i < lines.size(); ++i)
    {
        const QStringList cells = lines[i].split(',');
        EXPECT_EQ(cells.size(), 4) << lines[i].toStdString();
        ++text.cases;
        if (cells.value(2).isEmpty())
        {
            ++text.emptyAges;
            ++text.emptyAgesBySex[cells.value(3)];
        }
    }
    return text;
}

/** Only the data parameters: no GENERALIZATION, every default. */
QVariantMap caseListParameters(QgsVectorLayer* counties, const QVariant& cases, int k)
{
    const QString temporary = QgsProcessing::TEMPORARY_OUTPUT;
    return {{"REGIONS", asParameter(counties)},
            {"REGION_ID_FIELD", "FIPS"},
            {"RECORDS", cases},
            {"RECORD_REGION_FIELD", "county"},
            {"QUASI_IDENTIFIERS", QStringList{"age", "sex"}},
            {"K", k},
            {"OUTPUT", temporary},
            {"OUTPUT_MAPPING", temporary},
            {"OUTPUT_RECORDS", temporary}};
}

/**
 * Expects every released age to be a band, none an exact age nor "*": "lo-hi" of one width (5, 10 or 20,
 * starting on a multiple of it), "<B" or "T+" (B and T multiples of 5), or NULL. Returns the released
 * NULL ages.
 */
qint64 expectAgesInBands(QgsVectorLayer& records)
{
    const QRegularExpression band(QStringLiteral("^(\\d+)-(\\d+)$"));
    const QRegularExpression end(QStringLiteral("^<(\\d+)$|^(\\d+)\\+$"));
    QSet<int> widths;
    qint64 nulls = 0;
    const QMap<QString, qint64> ages = countByValue(records, "age");
    EXPECT_FALSE(ages.isEmpty());
    for (auto it = ages.constBegin(); it != ages.constEnd(); ++it)
    {
        if (it.key() == "NULL")
        {
            nulls = it.value();
            continue;
        }
        const QRegularExpressionMatch inBand = band.match(it.key());
        const QRegularExpressionMatch atEnd = end.match(it.key());
        EXPECT_TRUE(inBand.hasMatch() || atEnd.hasMatch())
            << "not a band: '" << it.key().toStdString() << "'";
        if (inBand.hasMatch())
        {
            const int lo = inBand.captured(1).toInt();
            const int width = inBand.captured(2).toInt() - lo + 1;
            EXPECT_TRUE(width == 5 || width == 10 || width == 20) << it.key().toStdString();
            EXPECT_EQ(lo % width, 0) << it.key().toStdString();
            widths.insert(width);
        }
        if (atEnd.hasMatch())
        {
            EXPECT_EQ((atEnd.captured(1) + atEnd.captured(2)).toInt() % 5, 0) << it.key().toStdString();
        }
    }
    EXPECT_LE(widths.size(), 1) << "one level for every record";
    return nulls;
}

/**
 * The case list's age bands at each level, by hand from its counts per 5-year band (data/README.md: 65-69
 * 171, 70-74 212, 75-79 129, 80-84 43, 85-89 26, 90-94 4, 95-99 4, 100+ 1; ages 66..102). A range of 36 in at
 * most 20 bands: widths 5 (1 or 5 times a power of ten), 10 and 20 (50 is no multiple of 20, 100 spans the
 * range). The lowest band holds at least k = 5 cases, coded "<" its upper bound; the highest end is widened
 * until it holds k: of 5, from 100 on 1, from 95 on 5: "95+"; of 10, from 100 on 1, from 90 on 9: "90+"; of
 * 20, the bands 60-79 (512 cases) and 80-99 (77) with 100+ (1): "<80", "80+".
 */
const QList<QSet<QString>> kCaseListBands{
    {"<70", "70-74", "75-79", "80-84", "85-89", "90-94", "95+"},
    {"<70", "70-79", "80-89", "90+"},
    {"<80", "80+"},
};

/** Expects the released ages (NULL aside) to be the bands of one level of kCaseListBands. */
void expectCaseListBands(QgsVectorLayer& records)
{
    QStringList released = countByValue(records, "age").keys();
    released.removeAll("NULL");
    const QSet<QString> ages(released.begin(), released.end());
    EXPECT_TRUE(std::any_of(kCaseListBands.begin(), kCaseListBands.end(),
                            [&](const QSet<QString>& level) { return level.contains(ages); }))
        << released.join(", ").toStdString();
}
} // namespace

TEST(CaseList, TheDefaultsReleaseAgesInBandsNoneExactNoneRemoved)
{
    const CaseListText input = readCaseList();
    ASSERT_EQ(input.cases, 608);
    ASSERT_GT(input.emptyAges, 0);
    const auto counties = openData(QStringLiteral("tests/nc_counties.gpkg"), QStringLiteral("counties"));
    // As a user opens the file: OGR, no .csvt, every column text (read whole: GDAL's Arrow stream).
    const auto cases = openData(kCaseList);
    QTemporaryDir reportDir;
    QVariantMap parameters = caseListParameters(counties.get(), asParameter(cases.get()), 5);
    parameters.insert("OUTPUT_HTML_FILE", reportDir.filePath("report.html"));
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    // The empty ages are NULL: counted, a category of their own.
    EXPECT_TRUE(run.log.contains(QStringLiteral("'age' is NULL in %1 record(s)").arg(input.emptyAges)))
        << run.log.toStdString();
    EXPECT_TRUE(run.log.contains("age: numbers, banded automatically as 'age: interval"))
        << run.log.toStdString();

    QgsVectorLayer* records = outputLayer(run, "OUTPUT_RECORDS");
    ASSERT_TRUE(records);
    const qint64 releasedNull = expectAgesInBands(*records);
    expectCaseListBands(*records);
    QFile report(reportDir.filePath("report.html"));
    ASSERT_TRUE(report.open(QIODevice::ReadOnly));
    EXPECT_TRUE(QString::fromUtf8(report.readAll()).contains("age: numbers, banded automatically"));
    EXPECT_LE(releasedNull, input.emptyAges);
    EXPECT_FALSE(countByValue(*records, "age").contains(QString())) << "an empty age is NULL, not ''";
    // k recounted from the released table alone, and by the verifier; every case accounted for.
    const Recount recount = recountGroups(*records, {"aggregate_id", "age", "sex"});
    EXPECT_GE(recount.smallestGroup, 5);
    EXPECT_EQ(checkAnonymity(records, "aggregate_id", {"age", "sex"}, 5), "PASS");
    EXPECT_EQ(recount.records, number(run, "RECORDS_RELEASED"));
    EXPECT_EQ(number(run, "RECORDS_RELEASED") + number(run, "SUPPRESSED") + number(run, "RECORDS_DROPPED"),
              input.cases);
    EXPECT_EQ(number(run, "RECORDS_DROPPED"), 0);
    EXPECT_LE(number(run, "SUPPRESSED"), input.cases / 100) << "within the default budget of 1 %";
    EXPECT_GT(number(run, "AGGREGATES"), 1);

    // The same release whoever reads the file: QGIS's own iteration (a feature limit keeps GDAL's stream
    // out), OGR with a .csvt typing age as a whole number, QGIS's delimited-text reader.
    const QString path = QStringLiteral(VBAS_SOURCE_DIR "/data/") + kCaseList;
    const AlgorithmRun iterated = runAlgorithm(
        kAggregate, caseListParameters(
                        counties.get(),
                        QVariant::fromValue(QgsProcessingFeatureSourceDefinition(path, false, 100000)), 5));
    ASSERT_TRUE(iterated.ok) << iterated.errors.toStdString();
    EXPECT_TRUE(iterated.log.contains("read through QGIS's feature iterator")) << iterated.log.toStdString();
    expectSameRelease(run, iterated, {"aggregate_id", "age", "sex"});

    QTemporaryDir dir;
    QFile::copy(path, dir.filePath("cases.csv"));
    writeFile(dir, "cases.csvt", "\"Integer\",\"String\",\"Integer\",\"String\"\n");
    QgsVectorLayer typed(dir.filePath("cases.csv"), "typed", "ogr");
    ASSERT_TRUE(typed.isValid());
    ASSERT_EQ(typed.fields().field("age").type(), VbasCompat::FieldTypeInt);
    const AlgorithmRun typedRun =
        runAlgorithm(kAggregate, caseListParameters(counties.get(), asParameter(&typed), 5));
    ASSERT_TRUE(typedRun.ok) << typedRun.errors.toStdString();
    expectSameRelease(run, typedRun, {"aggregate_id", "age", "sex"});

    QgsVectorLayer delimited(QStringLiteral("file://%1?type=csv&geomType=none").arg(path), "delimited",
                             "delimitedtext");
    ASSERT_TRUE(delimited.isValid());
    const AlgorithmRun delimitedRun =
        runAlgorithm(kAggregate, caseListParameters(counties.get(), asParameter(&delimited), 5));
    ASSERT_TRUE(delimitedRun.ok) << delimitedRun.errors.toStdString();
    expectSameRelease(run, delimitedRun, {"aggregate_id", "age", "sex"});
}

TEST(CaseList, WhenOnlyRemovingAQuasiIdentifierMeetsTheBudgetTheLogSaysWhichAndAgeStays)
{
    // k = 10: the cases whose age is empty are NULL at every level short of removing age, and each sex holds
    // fewer than 10 of them, so they are withheld (3 % of the cases) against a budget of 1 %. Removing age
    // ("*") merges them with the others; the release keeps the age bands and says so.
    const CaseListText input = readCaseList();
    qint64 unreleasable = 0;
    for (const qint64 nulls : input.emptyAgesBySex)
        unreleasable += nulls < 10 ? nulls : 0;
    ASSERT_GT(unreleasable, input.cases / 100);
    const auto counties = openData(QStringLiteral("tests/nc_counties.gpkg"), QStringLiteral("counties"));
    const auto cases = openData(kCaseList);
    QTemporaryDir reportDir;
    QVariantMap parameters = caseListParameters(counties.get(), asParameter(cases.get()), 10);
    parameters.insert("OUTPUT_HTML_FILE", reportDir.filePath("report.html"));
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    QFile report(reportDir.filePath("report.html"));
    ASSERT_TRUE(report.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(report.readAll());
    for (const char* part : {"cannot be met at the levels allowed", "Without age it would be met",
                             "allow its removal with 'age: auto max *'", "Or raise the suppression budget to",
                             "fewer quasi-identifiers"})
    {
        EXPECT_TRUE(run.log.contains(part)) << part << "\n" << run.log.toStdString();
        EXPECT_TRUE(html.contains(QString(part).toHtmlEscaped())) << part;
    }
    QgsVectorLayer* records = outputLayer(run, "OUTPUT_RECORDS");
    ASSERT_TRUE(records);
    expectAgesInBands(*records);
    EXPECT_GE(number(run, "SUPPRESSED"), unreleasable);
    EXPECT_EQ(checkAnonymity(records, "aggregate_id", {"age", "sex"}, 10), "PASS");
}

TEST(CaseList, TheNextQuarterIsReleasedInTheSameAutomaticBands)
{
    // The ledger records the automatic bands written out: the next quarter's cases, younger (40..64, which
    // would be banded otherwise on their own), are released in the first release's bands at its level.
    const auto counties = openData(QStringLiteral("tests/nc_counties.gpkg"), QStringLiteral("counties"));
    const auto cases = openData(kCaseList);
    QTemporaryDir dir;
    const QString ledger = dir.filePath("ledger.sqlite");
    // Written to files: a release, recorded (temporary layers would be a trial).
    const OutputFolder firstFolder, secondFolder;
    QVariantMap parameters =
        firstFolder.release(caseListParameters(counties.get(), asParameter(cases.get()), 5));
    parameters.insert("RECORD_ID_FIELD", "case_id");
    parameters.insert("RELEASE_LEDGER", ledger);
    parameters.insert("NEW_LEDGER", true);
    const AlgorithmRun first = runAlgorithm(kAggregate, parameters);
    ASSERT_TRUE(first.ok) << first.errors.toStdString();
    const QStringList released = countByValue(*outputLayer(first, "OUTPUT_RECORDS"), "age").keys();
    const QSet<QString> firstAges(released.begin(), released.end());

    const QStringList counted{"37051", "37183", "37063"};
    QList<QVariantList> rows;
    for (int i = 0; i < 150; ++i)
        rows << QVariantList{100000 + i, counted.at(i % 3), 40 + i % 25, i % 2 == 0 ? "female" : "male"};
    const auto next = makeTable({"case_id:integer", "county:string", "age:integer", "sex:string"}, rows);
    QVariantMap onFirst =
        secondFolder.release(caseListParameters(counties.get(), asParameter(next.get()), 5));
    onFirst.remove("OUTPUT_MAPPING");
    onFirst.remove("OUTPUT_SITES");
    onFirst.insert("RECORD_ID_FIELD", "case_id");
    onFirst.insert("RELEASE_LEDGER", ledger);
    onFirst.insert("LEDGER_ENTRY", 1);
    const AlgorithmRun second = runAlgorithm("vbas:releaseonaggregation", onFirst);
    ASSERT_TRUE(second.ok) << second.errors.toStdString();
    const QStringList ages = countByValue(*outputLayer(second, "OUTPUT_RECORDS"), "age").keys();
    ASSERT_FALSE(ages.isEmpty());
    for (const QString& age : ages)
        EXPECT_TRUE(firstAges.contains(age))
            << age.toStdString() << " is not among the first release's bands";
    EXPECT_FALSE(second.log.contains("banded automatically")) << second.log.toStdString();
}

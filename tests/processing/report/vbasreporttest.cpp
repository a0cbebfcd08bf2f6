// The HTML reports: each chart read back from its SVG and checked against the output tables recounted
// here, the Pareto chart against the comparison table, the embedded map, and that a report needs
// nothing from outside itself.

#include "processingtestutils.h"
#include "realdata.h"

#include "Registry.h"
#include "vbasoutputs.h"

#include <qgsprocessing.h>

#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

#include <algorithm>

namespace
{
/** One element of an SVG chart: its tag and attributes. */
struct Mark
{
    QString tag;
    QXmlStreamAttributes attributes;
    QString get(const char* name) const { return attributes.value(QLatin1String(name)).toString(); }
    bool hasClass(const char* name) const { return get("class").split(' ').contains(QLatin1String(name)); }
};

/** A chart: the attributes of its <svg> and every element inside, in document order. */
struct Chart
{
    Mark svg;
    QList<Mark> marks;
    QList<Mark> withClass(const char* name) const
    {
        QList<Mark> found;
        std::copy_if(marks.begin(), marks.end(), std::back_inserter(found),
                     [name](const Mark& mark) { return mark.hasClass(name); });
        return found;
    }
};

/** Returns every inline SVG of `html`, parsed as XML (which also checks that each is well-formed). */
QList<Chart> charts(const QString& html)
{
    QList<Chart> found;
    const QRegularExpression svg(QStringLiteral("<svg[\\s\\S]*?</svg>"));
    for (auto match = svg.globalMatch(html); match.hasNext();)
    {
        QXmlStreamReader xml(match.next().captured());
        Chart chart;
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement)
            {
                const Mark mark{xml.name().toString(), xml.attributes()};
                if (mark.tag == "svg")
                    chart.svg = mark;
                else
                    chart.marks << mark;
            }
        EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
        found << chart;
    }
    return found;
}

QString readText(const QString& path)
{
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
    return QString::fromUtf8(file.readAll());
}

/** Checks that `html` loads nothing from anywhere: embedded data aside, no URL, script or stylesheet link. */
void expectSelfContained(const QString& html)
{
    QString stripped = html;
    stripped.remove(QRegularExpression(QStringLiteral("data:image/png;base64,[A-Za-z0-9+/=]*")));
    for (const char* reference : {"http:", "https:", "//", "<script", "<link", "@import", "url(", "ftp:"})
        EXPECT_FALSE(stripped.contains(QLatin1String(reference), Qt::CaseInsensitive)) << reference;
    const QRegularExpression source(QStringLiteral("(src|href)\\s*=\\s*\"([^\"]*)\""));
    for (auto it = source.globalMatch(html); it.hasNext();)
    {
        const QRegularExpressionMatch match = it.next();
        EXPECT_TRUE(match.captured(2).startsWith("data:image/png;base64,"))
            << "only embedded images: " << match.captured(0).left(80).toStdString();
    }
}

QVector<double> column(QgsVectorLayer& layer, const char* field)
{
    QVector<double> values;
    QgsFeature feature;
    QgsFeatureIterator it = layer.getFeatures();
    while (it.nextFeature(feature))
        values << feature.attribute(field).toDouble();
    return values;
}

double median(QVector<double> values)
{
    std::sort(values.begin(), values.end());
    const auto n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

/** Records and withheld records of a value or region, as a report's data-* attributes or a recount give them.
 */
using Shares = QMap<QString, QPair<qint64, qint64>>;

/** The rows of the report's table that opens with `table`, by their attribute data-`key`. */
Shares reportedShares(const QString& html, const QString& table, const QString& key)
{
    Shares shares;
    const QString body = html.section(table, 1).section(QStringLiteral("</table>"), 0, 0);
    const QRegularExpression rowPattern(
        QStringLiteral(R"re(<tr data-%1="([^"]*)" data-records="(\d+)" data-withheld="(\d+)">)re").arg(key));
    for (auto it = rowPattern.globalMatch(body); it.hasNext();)
    {
        const QRegularExpressionMatch match = it.next();
        shares.insert(match.captured(1), {match.captured(2).toLongLong(), match.captured(3).toLongLong()});
    }
    return shares;
}
} // namespace

TEST(ReleaseReport, ChartsEveryPerRegionDistributionWithTheCountsOfTheAggregatesTable)
{
    const OlindaInput olinda;
    const QTemporaryDir folder;
    QVariantMap parameters = olinda.parameters({"age_band", "sex", "married"});
    parameters.insert("OUTPUT_HTML_FILE", folder.filePath("report.html"));
    parameters.insert("MAP_IMAGE_WIDTH", 1000);
    parameters.insert("MAP_IMAGE_HEIGHT", 640);
    const AlgorithmRun run = runAlgorithm("vbas:aggregateregions", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    const QString html = readText(folder.filePath("report.html"));
    QgsVectorLayer& aggregates = *outputLayer(run, "OUTPUT");
    const int regions = int(aggregates.featureCount());

    const QList<Chart> histograms = charts(html);
    QStringList fields;
    for (const Chart& chart : histograms)
    {
        ASSERT_TRUE(chart.svg.hasClass("histogram"));
        const QString field = chart.svg.get("data-field");
        fields << field;
        const QVector<double> values = column(aggregates, field.toLatin1().constData());
        const QList<Mark> bars = chart.withClass("bar");
        ASSERT_FALSE(bars.isEmpty()) << field.toStdString();
        int total = 0;
        for (int i = 0; i < bars.size(); ++i)
        {
            const double from = bars[i].get("data-from").toDouble(), to = bars[i].get("data-to").toDouble();
            if (i > 0)
            {
                EXPECT_EQ(from, bars[i - 1].get("data-to").toDouble())
                    << field.toStdString() << " bins touch";
            }
            const auto inBar = std::count_if(values.begin(), values.end(),
                                             [&](double value) { return from <= value && value < to; });
            EXPECT_EQ(bars[i].get("data-count").toInt(), int(inBar))
                << field.toStdString() << " [" << from << ", " << to << ")";
            total += bars[i].get("data-count").toInt();
        }
        EXPECT_EQ(total, regions) << field.toStdString() << ": every region in one bar";
        EXPECT_GT(bars.front().get("data-count").toInt(), 0) << "no empty bar before the smallest value";
        EXPECT_GT(bars.back().get("data-count").toInt(), 0) << "no empty bar after the largest value";
        const QList<Mark> box = chart.withClass("boxplot");
        ASSERT_EQ(box.size(), 1);
        EXPECT_DOUBLE_EQ(box[0].get("data-median").toDouble(), median(values)) << field.toStdString();
        EXPECT_EQ(box[0].get("data-min").toDouble(), *std::min_element(values.begin(), values.end()));
        EXPECT_EQ(box[0].get("data-max").toDouble(), *std::max_element(values.begin(), values.end()));
    }
    EXPECT_EQ(fields, (QStringList{"released", "anonymity_after", "mean_distance_m", "compactness"}));
    // Anonymity is whole: one bar per value from the smallest to the largest.
    const QVector<double> anonymity = column(aggregates, "anonymity_after");
    EXPECT_EQ(histograms[1].withClass("bar").size(),
              int(*std::max_element(anonymity.begin(), anonymity.end()) -
                  *std::min_element(anonymity.begin(), anonymity.end())) +
                  1);

    // Every metric with its meaning, its value rounded to what matters: records in full, metres whole, any
    // other figure to three significant digits ("4.02 million").
    for (const vbas::MetricEntry& metric : vbas::Registry::builtIn().metrics)
    {
        EXPECT_TRUE(html.contains(QString::fromStdString(metric.meaning).toHtmlEscaped())) << metric.id;
        const QRegularExpressionMatch shown =
            QRegularExpression(
                QStringLiteral(R"(<tr data-metric="%1"><td>[^<]*</td><td class="n">([^<]*)</td>)")
                    .arg(QString::fromStdString(metric.id)))
                .match(html);
        ASSERT_TRUE(shown.hasMatch()) << metric.id;
        const double value = run.results.value(VbasOutputs::metricOutputName(metric.id)).toDouble();
        QString text = shown.captured(1);
        text.remove(',');
        const double scale = text.endsWith(" million") ? 1e6 : 1.0;
        text.remove(QRegularExpression(QStringLiteral(" (m|million)$")));
        switch (metric.unit)
        {
        case vbas::MetricUnit::Records:
            EXPECT_EQ(text, QString::number(qint64(value))) << metric.id;
            break;
        case vbas::MetricUnit::Metres:
            EXPECT_TRUE(shown.captured(1).endsWith(" m")) << metric.id;
            EXPECT_EQ(text, QString::number(std::llround(value))) << metric.id;
            break;
        case vbas::MetricUnit::Score:
        {
            QString digits = text;
            digits.remove(QRegularExpression(QStringLiteral("[-.]"))).remove(QRegularExpression("^0+|0+$"));
            EXPECT_LE(digits.size(), 3) << metric.id << ": " << shown.captured(1).toStdString();
            EXPECT_NEAR(text.toDouble() * scale, value, std::abs(value) * 0.005 + 1e-12) << metric.id;
            break;
        }
        }
    }
    EXPECT_TRUE(html.contains("<h2 id=\"ledger\">Release ledger, people and published columns</h2>"));

    const QRegularExpressionMatch map =
        QRegularExpression(QStringLiteral("<img class=\"map\"[^>]*src=\"data:image/png;base64,([^\"]+)\""))
            .match(html);
    ASSERT_TRUE(map.hasMatch());
    const QImage image = QImage::fromData(QByteArray::fromBase64(map.captured(1).toLatin1()), "PNG");
    EXPECT_EQ(image.size(), QSize(1000, 640));
    expectSelfContained(html);
}

// Issue 31: who was withheld, per released value of every quasi-identifier and per region. The report counts
// from the records' fates; the test recounts the values from the published records with the withheld ones
// kept (KEEP_SUPPRESSED), and the regions from the review layer's withheld counts (the engine's counters).
TEST(ReleaseReport, SaysWhoWasWithheldAsThePublishedFilesRecountIt)
{
    const OlindaInput olinda;
    const QTemporaryDir folder;
    const QStringList quasiIdentifiers{"age", "sex", "married"};
    QVariantMap parameters = olinda.parameters(quasiIdentifiers);
    parameters.remove("SITE_COUNT_METHOD"); // the suppression budget, with the refinement and region moves
    parameters.insert("GENERALIZATION", "age: interval 5 10 20");
    parameters.insert("KEEP_SUPPRESSED", true);
    parameters.insert("OUTPUT_REVIEW", QgsProcessing::TEMPORARY_OUTPUT);
    parameters.insert("OUTPUT_HTML_FILE", folder.filePath("report.html"));
    const AlgorithmRun run = runAlgorithm("vbas:aggregateregions", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    const QString html = readText(folder.filePath("report.html"));
    ASSERT_GT(number(run, "SUPPRESSED"), 0) << "the release should withhold some records";

    QMap<QString, Shares> recounted;
    QgsVectorLayer& records = *outputLayer(run, "OUTPUT_RECORDS");
    QgsFeature feature;
    for (QgsFeatureIterator it = records.getFeatures(); it.nextFeature(feature);)
    {
        const QString fate = feature.attribute("vbas_fate").toString();
        ASSERT_NE(fate, "dropped") << "Olinda's patients all live in a known tract";
        for (const QString& field : quasiIdentifiers)
        {
            const QVariant value = feature.attribute(field);
            QPair<qint64, qint64>& share =
                recounted[field][value.isNull() ? QStringLiteral("(empty)") : value.toString()];
            share.first += 1;
            share.second += fate == "released" ? 0 : 1;
        }
    }
    ASSERT_FALSE(recounted["age"].contains("33")) << "ages are published as bands";
    for (const QString& field : quasiIdentifiers)
    {
        const Shares reported = reportedShares(
            html, QStringLiteral(R"(<table class="withheld" data-field="%1">)").arg(field), "value");
        EXPECT_EQ(reported, recounted[field]) << field.toStdString();
        qint64 withheld = 0;
        for (const auto& share : reported)
            withheld += share.second;
        EXPECT_EQ(withheld, number(run, "SUPPRESSED")) << field.toStdString();
    }

    Shares regions;
    QgsVectorLayer& review = *outputLayer(run, "OUTPUT_REVIEW");
    for (QgsFeatureIterator it = review.getFeatures(); it.nextFeature(feature);)
    {
        qint64 withheld = 0;
        for (const char* field :
             {"suppressed_local", "suppressed_global", "suppressed_diversity", "suppressed_difference"})
            withheld += feature.attribute(field).toLongLong();
        regions.insert(feature.attribute("aggregate_id").toString(),
                       {feature.attribute("released").toLongLong() + withheld, withheld});
    }
    EXPECT_EQ(regions.size(), number(run, "AGGREGATES"));
    EXPECT_EQ(reportedShares(html, QStringLiteral(R"(<table class="regions">)"), "region"), regions);
}

namespace
{
/** A run of vbas:partitionregions (k = 3) of `records` on `squares` around `sites`, and its report read back.
 */
struct ReportedRelease
{
    AlgorithmRun run;
    QString html;
};

ReportedRelease releaseAroundSites(QgsVectorLayer& squares, QgsVectorLayer& records,
                                   const QStringList& quasiIdentifiers, QgsVectorLayer& sites)
{
    const QTemporaryDir folder;
    const QVariantMap parameters{{"REGIONS", asParameter(&squares)},
                                 {"REGION_ID_FIELD", "id"},
                                 {"RECORDS", asParameter(&records)},
                                 {"RECORD_REGION_FIELD", "area"},
                                 {"QUASI_IDENTIFIERS", quasiIdentifiers},
                                 {"K", 3},
                                 {"SITES", asParameter(&sites)},
                                 {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT},
                                 {"OUTPUT_HTML_FILE", folder.filePath("report.html")}};
    ReportedRelease release{runAlgorithm("vbas:partitionregions", parameters), QString()};
    EXPECT_TRUE(release.run.ok) << release.run.errors.toStdString();
    release.html = readText(folder.filePath("report.html"));
    return release;
}
} // namespace

// Issue 31: the summary and who was withheld, worked out by hand. Squares A..D = [i, i+1] x [0, 1]; sites
// (1, 0.5) and (3, 0.5) take {A, B} (region 1) and {C, D} (region 2); k = 3 over band and sex.
//   A: 3 x (20-29, f), 2 x (30-39, f)    B: 1 x (20-29, f), 1 x (20-29, m)
//   C: 3 x (20-29, m)                     D: 1 x (30-39, m), 1 x (20-29, NULL), 3 x (30-39, NULL)
// In the whole table (30-39, f) has 2 records, (30-39, m) 1 and (20-29, NULL) 1, fewer than 3: those 4 are
// withheld as rare. (20-29, m) has 4, but region 1 holds only B's one: withheld as too few in its region.
// Withheld 5 of 15. Region 1: 7 records, 3 withheld (A's 2, B's m); region 2: 8 records, 2 withheld (D's
// m and the NULL of 20-29). Band 20-29: 9 records, 2 withheld; 30-39: 6 records, 3 withheld. Sex f: 6
// records, 2 withheld; m: 5, 2 withheld; NULL: 4, 1 withheld.
TEST(ReleaseReport, SummaryAndWhoWasWithheldWorkedOutByHand)
{
    const auto squares = makeSquares({"A", "B", "C", "D"});
    QList<QVariantList> rows;
    const auto add = [&](const char* area, const char* band, const QVariant& sex, int times)
    {
        rows += repeated({area, band, sex}, times);
    };
    add("A", "20-29", "f", 3);
    add("A", "30-39", "f", 2);
    add("B", "20-29", "f", 1);
    add("B", "20-29", "m", 1);
    add("C", "20-29", "m", 3);
    add("D", "30-39", "m", 1);
    add("D", "20-29", nullText(), 1);
    add("D", "30-39", nullText(), 3);
    const auto records = makeTable({"area:string", "band:string", "sex:string"}, rows);
    const auto sites = makePoints({{1, 0.5}, {3, 0.5}});
    const ReportedRelease release = releaseAroundSites(*squares, *records, {"band", "sex"}, *sites);
    ASSERT_TRUE(release.run.ok);
    const AlgorithmRun& run = release.run;
    const QString& html = release.html;

    // The plain summary comes first, before the map and the details.
    const QString summary = html.section("<h2 id=\"summary\">", 1).section("<h2 ", 0, 0);
    EXPECT_TRUE(summary.contains("<p>Of 15 records, 10 (66.7 %) are released and 5 (33.3 %) withheld.</p>"))
        << summary.toStdString();
    EXPECT_TRUE(summary.contains("The 4 small areas are merged into 2 regions of 2 small areas each."))
        << summary.toStdString();
    EXPECT_TRUE(
        summary.contains("Every released record shares its region and its band and sex with at least 2 "
                         "other released records (k = 3)."))
        << summary.toStdString();
    EXPECT_TRUE(
        summary.contains("<li><strong>area</strong> (the small area): replaced by aggregate_id, the id "
                         "of its region</li>"));
    EXPECT_TRUE(summary.contains("<li><strong>band</strong> as it is</li>"));
    EXPECT_TRUE(
        summary.contains("5 records (33.3 %) were withheld: 4 as their combination of values is rarer "
                         "than k in the whole data set and 1 as too few like them live in their "
                         "region."))
        << summary.toStdString();
    EXPECT_LT(html.indexOf("id=\"summary\""), html.indexOf("id=\"records\""));

    const Shares bands{{"20-29", {9, 2}}, {"30-39", {6, 3}}};
    const Shares sexes{{"f", {6, 2}}, {"m", {5, 2}}, {"(empty)", {4, 1}}};
    const Shares regions{{"1", {7, 3}}, {"2", {8, 2}}};
    EXPECT_EQ(reportedShares(summary, R"(<table class="withheld" data-field="band">)", "value"), bands);
    EXPECT_EQ(reportedShares(summary, R"(<table class="withheld" data-field="sex">)", "value"), sexes);
    EXPECT_EQ(reportedShares(summary, R"(<table class="withheld" data-field="region">)", "value"), regions);
    EXPECT_EQ(reportedShares(html, R"(<table class="regions">)", "region"), regions);
    // Values in their natural order, NULL last; the shares rounded to a tenth of a per cent.
    const QString sexTable =
        summary.section(R"(<table class="withheld" data-field="sex">)", 1).section("</table>", 0, 0);
    EXPECT_LT(sexTable.indexOf("data-value=\"f\""), sexTable.indexOf("data-value=\"m\""));
    EXPECT_LT(sexTable.indexOf("data-value=\"m\""), sexTable.indexOf("data-value=\"(empty)\""));
    EXPECT_TRUE(sexTable.contains("<td class=\"n\">33.3 %</td>")) << sexTable.toStdString(); // f: 2 of 6
    EXPECT_TRUE(sexTable.contains("<td class=\"n\">40.0 %</td>")) << sexTable.toStdString(); // m: 2 of 5
    EXPECT_TRUE(sexTable.contains("<td class=\"n\">25.0 %</td>")) << sexTable.toStdString(); // NULL: 1 of 4

    // The log's few lines of cost: the highest shares of the values and regions above. No value loses more
    // than twice the 33.3 % overall, so neither the log nor the report warns of one.
    EXPECT_TRUE(run.log.contains("What the release cost: 5 of 15 records withheld (33.3 %).\n"))
        << run.log.toStdString();
    EXPECT_TRUE(
        run.log.contains("Values withheld most: band = 30-39: 50.0 % (3 of 6), sex = m: 40.0 % (2 of 5), "
                         "sex = f: 33.3 % (2 of 6).\n"))
        << run.log.toStdString();
    EXPECT_TRUE(
        run.log.contains("Regions withheld most: region 1: 42.9 % (3 of 7), region 2: 25.0 % (2 of 8).\n"))
        << run.log.toStdString();
    EXPECT_FALSE(run.log.contains("more than twice")) << run.log.toStdString();
    EXPECT_FALSE(html.contains("over_withheld"));
}

// Two squares, each its own region (k = 3). In the whole table (old, M) has 1 record: withheld as rare.
// A's (old, F) and B's (old, F) have 2 each: withheld as too few in their region. Withheld 5 of 30
// (16.7 %); every old record is withheld (100 %, more than twice 16.7 %), every other value loses 16.7 % or
// nothing (F: 4 of 24, M: 1 of 6, young: 0 of 25).
TEST(ReleaseReport, AValueLosingMoreThanTwiceTheOverallShareIsNamedWithWhyInTheLogAndTheReport)
{
    const auto squares = makeSquares({"A", "B"});
    QList<QVariantList> rows;
    rows += repeated({"A", "young", "F"}, 10);
    rows += repeated({"A", "old", "F"}, 2);
    rows += repeated({"B", "young", "F"}, 10);
    rows += repeated({"B", "old", "F"}, 2);
    rows += repeated({"B", "young", "M"}, 5);
    rows += repeated({"B", "old", "M"}, 1);
    const auto records = makeTable({"area:string", "age:string", "sex:string"}, rows);
    const auto sites = makePoints({{0.5, 0.5}, {1.5, 0.5}});
    const ReportedRelease release = releaseAroundSites(*squares, *records, {"age", "sex"}, *sites);
    ASSERT_TRUE(release.run.ok);
    const AlgorithmRun& run = release.run;
    const QString expected = "Withheld more than twice the 16.7 % overall, so analyses of them are biased: "
                             "age = old (100.0 %, 5 of "
                             "5: 4 as too few like them in their region, 1 as rare in the whole data set). "
                             "Coarser values of these "
                             "quasi-identifiers (GENERALIZATION) or fewer, larger regions keep more of them.";
    EXPECT_TRUE(run.log.contains("What the release cost: 5 of 30 records withheld (16.7 %).\n"))
        << run.log.toStdString();
    EXPECT_TRUE(run.log.contains(expected + "\n")) << run.log.toStdString();
    EXPECT_TRUE(
        release.html.contains("<p class=\"warning\" data-field=\"over_withheld\">" + expected + "</p>"))
        << release.html.section("Who was withheld", 1).left(2000).toStdString();
}

TEST(ReleaseReport, IsTheSameForTheSameInput)
{
    const OlindaInput olinda;
    const QTemporaryDir folder;
    QStringList reports;
    for (const char* name : {"first.html", "second.html"})
    {
        QVariantMap parameters = olinda.parameters({"age_band", "sex"});
        parameters.insert("OUTPUT_HTML_FILE", folder.filePath(name));
        ASSERT_TRUE(runAlgorithm("vbas:aggregateregions", parameters).ok);
        reports << readText(folder.filePath(name));
    }
    // The text of the report is the same byte for byte, the map but for the anti-aliasing of its glyphs.
    const QRegularExpression image(QStringLiteral("data:image/png;base64,([A-Za-z0-9+/=]+)"));
    QList<QImage> maps;
    for (QString& report : reports)
    {
        const QRegularExpressionMatch match = image.match(report);
        ASSERT_TRUE(match.hasMatch());
        maps << QImage::fromData(QByteArray::fromBase64(match.captured(1).toLatin1()), "PNG");
        report.replace(match.capturedStart(1), match.capturedLength(1), QStringLiteral("MAP"));
    }
    EXPECT_TRUE(reports[0] == reports[1]) << "no timestamps";
    EXPECT_TRUE(sameButAntialiasing(maps[0], maps[1]));
}

TEST(ComparisonReport, ParetoChartMarksExactlyTheParetoRowsOfTheTable)
{
    const OlindaInput olinda;
    const QTemporaryDir folder;
    // Three ways of placing the sites, each over five site counts around the naive estimate: 15 solutions.
    QVariantMap parameters = olinda.parameters({"age_band", "sex", "married"});
    parameters.insert("SITE_LOCATION", QStringList{"sitelocation.balanced_density",
                                                   "sitelocation.naive_anonymity", "sitelocation.random"});
    parameters.insert("OUTPUT_HTML_FILE", folder.filePath("comparison.html"));
    parameters.insert("PARETO_CHART_X", "precision_loss");
    const AlgorithmRun run = runAlgorithm("vbas:compareapproaches", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(run.results.value("OUTPUT_HTML_FILE").toString(), folder.filePath("comparison.html"));
    const QString html = readText(folder.filePath("comparison.html"));

    // The table as the comparison output holds it, row r numbered r + 1.
    QSet<int> optimalRows;
    QMap<int, QPair<double, double>> plotted;
    const auto pareto = run.outputFields.indexOf("pareto_optimal"),
               x = run.outputFields.indexOf("precision_loss"),
               y = run.outputFields.indexOf("average_distance");
    for (int r = 0; r < run.outputRows.size(); ++r)
    {
        if (run.outputRows[r].at(pareto).toBool())
            optimalRows.insert(r + 1);
        plotted[r + 1] = {run.outputRows[r].at(x).toDouble(), run.outputRows[r].at(y).toDouble()};
    }
    ASSERT_EQ(run.outputRows.size(), 15);
    ASSERT_FALSE(optimalRows.isEmpty());
    ASSERT_LT(optimalRows.size(), run.outputRows.size())
        << "some rows must be dominated for the test to mean much";

    const QList<Chart> found = charts(html);
    ASSERT_EQ(found.size(), 1);
    EXPECT_EQ(found[0].svg.get("data-x"), "precision_loss");
    EXPECT_EQ(found[0].svg.get("data-y"), "average_distance");
    const QList<Mark> points = found[0].withClass("point");
    EXPECT_EQ(points.size(), run.outputRows.size());
    QSet<int> marked;
    for (const Mark& point : points)
    {
        const int row = point.get("data-row").toInt();
        if (point.hasClass("pareto"))
            marked.insert(row);
        EXPECT_EQ(point.get("data-x").toDouble(), plotted.value(row).first) << row;
        EXPECT_EQ(point.get("data-y").toDouble(), plotted.value(row).second) << row;
    }
    EXPECT_EQ(marked, optimalRows);

    // The table in the report: a row per solution, the Pareto ones highlighted.
    const QString table = html.section("<table class=\"solutions\">", 1).section("</table>", 0, 0);
    EXPECT_EQ(table.count("<tr"), 1 + run.outputRows.size());
    EXPECT_EQ(table.count("<tr class=\"pareto\">"), optimalRows.size());
    EXPECT_TRUE(html.contains("Release only one of these aggregations."));
    expectSelfContained(html);
}

// Bad input: every problem a user can fix stops the run with an error that names the parameter to
// change, and nothing is written.

#include "processingtestutils.h"
#include "realdata.h"
#include "vbasqgiscompat.h"

#include <qgsprocessing.h>

#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

namespace
{
const QString kAggregate = QStringLiteral("vbas:aggregateregions");

/** Four unit squares A..D and eight records on them, a valid release input to spoil one parameter at a time.
 */
struct SmallInput
{
    std::unique_ptr<QgsVectorLayer> squares = makeSquares({"A", "B", "C", "D"});
    std::unique_ptr<QgsVectorLayer> records =
        makeTable({"area:string", "sex:string", "n:integer"},
                  {{"A", "F", 2}, {"B", "F", 1}, {"B", "M", 1}, {"C", "F", 3}, {"D", "M", 1}});

    QVariantMap parameters() const
    {
        return {{"REGIONS", QVariant::fromValue<QgsMapLayer*>(squares.get())},
                {"REGION_ID_FIELD", "id"},
                {"RECORDS", QVariant::fromValue<QgsMapLayer*>(records.get())},
                {"RECORD_REGION_FIELD", "area"},
                {"QUASI_IDENTIFIERS", QStringList{"sex"}},
                {"COUNT_FIELD", "n"},
                {"K", 2},
                {"SITE_COUNT_METHOD", "sitecount.fixed"},
                {"SITE_COUNT", 2},
                {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT}};
    }
};

/** Returns the error of a run of `algorithm` that must fail. */
std::string failure(const QVariantMap& parameters, const QString& algorithm = kAggregate)
{
    const AlgorithmRun run = runAlgorithm(algorithm, parameters);
    EXPECT_FALSE(run.ok);
    EXPECT_TRUE(run.results.isEmpty());
    return run.errors.toStdString();
}

QVariantMap with(QVariantMap parameters, const QString& name, const QVariant& value)
{
    parameters.insert(name, value);
    return parameters;
}
} // namespace

TEST(BadInput, TheSmallInputItselfRuns)
{
    const SmallInput input;
    const AlgorithmRun run = runAlgorithm(kAggregate, input.parameters());
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(
        run.results.value("RECORDS_RELEASED").toLongLong() + run.results.value("SUPPRESSED").toLongLong(), 8);
}

TEST(BadInput, RegionsThatAreNotPolygonsAreRejected)
{
    const SmallInput input;
    const auto points = makePoints({{0.5, 0.5}, {1.5, 0.5}});
    EXPECT_EQ(
        failure(with(input.parameters(), "REGIONS", QVariant::fromValue<QgsMapLayer*>(points.get()))),
        "REGIONS: the layer holds Point geometries, but it must hold polygons; choose a layer of polygons");
}

TEST(BadInput, MissingFieldsAreNamedWithTheFieldsThereAre)
{
    const SmallInput input;
    EXPECT_EQ(failure(with(input.parameters(), "REGION_ID_FIELD", "code")),
              "REGION_ID_FIELD: REGIONS has no field 'code'; choose one of its fields (id)");
    EXPECT_EQ(failure(with(input.parameters(), "RECORD_REGION_FIELD", "tract")),
              "RECORD_REGION_FIELD: RECORDS has no field 'tract'; choose one of its fields (area, sex, n)");
    EXPECT_EQ(failure(with(input.parameters(), "QUASI_IDENTIFIERS", QStringList{"sex", "age"})),
              "QUASI_IDENTIFIERS: RECORDS has no field 'age'; choose one of its fields (area, sex, n)");
    EXPECT_EQ(failure(with(input.parameters(), "QUASI_IDENTIFIERS", QStringList{"sex", "area"})),
              "QUASI_IDENTIFIERS: 'area' is also given as RECORD_REGION_FIELD; give each field one role");
}

TEST(BadInput, UnknownRegionIdsAreNamedUnlessDropped)
{
    SmallInput input;
    input.records = makeTable({"area:string", "sex:string", "n:integer"},
                              {{"A", "F", 2}, {"Z9", "F", 3}, {"B", "F", 2}, {"Z8", "M", 1}});
    EXPECT_EQ(
        failure(input.parameters()),
        "RECORD_REGION_FIELD: 4 record(s) in 2 row(s) name regions that are not among the regions (first: "
        "'Z9'); fix the region ids of those records or choose to drop unknown regions");

    // Dropping half the records is refused unless that much is allowed: so many unknown ids mean wrong
    // fields.
    const QVariantMap dropping = with(input.parameters(), "UNKNOWN_REGIONS", "drop");
    EXPECT_EQ(
        failure(dropping),
        "RECORD_REGION_FIELD: 4 record(s) in 2 row(s) name regions that are not among the regions (first: "
        "'Z9'), 50 % of the records: more than the 1 % that may be dropped (MAX_DROPPED). So many unknown "
        "ids mean the region fields do not correspond; fix the ids or choose the right fields rather than "
        "drop them");
    const AlgorithmRun run = runAlgorithm(kAggregate, with(dropping, "MAX_DROPPED", 50));
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(run.results.value("RECORDS_DROPPED").toLongLong(), 4);
    EXPECT_EQ(run.results.value("INPUT_RECORDS").toLongLong(), 8);
    EXPECT_EQ(
        run.results.value("RECORDS_RELEASED").toLongLong() + run.results.value("SUPPRESSED").toLongLong(), 4);
}

// The demo's layers with the fields QGIS would offer first (issue 31): the tracts' fid and the patients'
// patient_id. 470 of the 18,897 patients have an id that is also a fid (1..470); dropping the rest would
// release them in the wrong tracts, so the run is refused either way, showing both fields' values and the
// pair that matches (every patient's tract is a CD_GEOCODI).
TEST(BadInput, FieldsThatDoNotCorrespondAreRefusedWithThePairThatDoes)
{
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters();
    parameters.insert("REGION_ID_FIELD", "fid");
    parameters.insert("RECORD_REGION_FIELD", "patient_id");
    for (const QVariantMap& attempt : {parameters, with(parameters, "UNKNOWN_REGIONS", "drop")})
    {
        const std::string error = failure(attempt);
        EXPECT_NE(error.find(
                      "RECORD_REGION_FIELD: the records' 'patient_id' and the small areas' 'fid' do not "
                      "correspond: only 470 of 18897 records name a small area. 'patient_id' holds '1000', "),
                  std::string::npos)
            << error;
        EXPECT_NE(error.find("'fid' holds '1', '10', '100', '101', '102' and 465 more."), std::string::npos)
            << error;
        EXPECT_NE(
            error.find("Choose the right fields: the small areas' 'CD_GEOCODI' matches the records' 'tract' "
                       "for 5000 of the first 5000 records: give REGION_ID_FIELD=CD_GEOCODI and "
                       "RECORD_REGION_FIELD=tract."),
            std::string::npos)
            << error;
    }
}

TEST(BadInput, KBelowTwoIsRejected)
{
    const SmallInput input;
    EXPECT_EQ(failure(with(input.parameters(), "K", 1)),
              "K: k is 1, but a group must hold at least 2 records to hide anyone; set K to 2 or more (5 is "
              "common)");
}

TEST(BadInput, RegionIdsMustBePresentAndUnique)
{
    SmallInput input;
    input.squares = makeSquares({"A", VbasCompat::nullOf(VbasCompat::FieldTypeString), "C", "D"});
    EXPECT_EQ(failure(input.parameters()),
              "REGION_ID_FIELD: feature 2 of REGIONS has no id (NULL); every region "
              "needs a unique id: fill it in or choose another field");
    input.squares = makeSquares({"A", "B", "A", "D"});
    EXPECT_EQ(
        failure(input.parameters()),
        "REGIONS: 1 region(s) repeat an id already used (first: 'A'); region ids must be unique: pick a "
        "unique id field or dissolve the duplicates first");
}

TEST(BadInput, StrategyParametersAreChecked)
{
    const SmallInput input;
    // The engine checks the options of the chosen strategies; the funnel names the parameter of each.
    EXPECT_EQ(failure(with(input.parameters(), "SITE_COUNT", 0)),
              "SITE_COUNT: sitecount.fixed needs the number of sites; set it to 1 or more");
    const QVariantMap gaps = with(input.parameters(), "SITE_COUNT_METHOD", "sitecount.gaps_maxcombs");
    EXPECT_EQ(failure(with(gaps, "SITE_COUNT_OFFSET", 1.5)),
              "SITE_COUNT_OFFSET: sitecount.gaps_maxcombs takes a number from 0 to 1; got 1.5");
    EXPECT_EQ(failure(with(with(gaps, "GAPS_MODEL", "custom"), "GAPS_C", -3)),
              "GAPS_C: the custom GAPS model needs a positive coefficient c (cutoff = c * x^b)");
    EXPECT_EQ(failure(with(with(input.parameters(), "ADC", true), "ADC_MAX_SECONDS", -1)),
              "ADC_MAX_SECONDS: refinement.adc takes a number of at least 0; got -1");
}

TEST(BadInput, KAboveTheRecordCountNamesK)
{
    const SmallInput input;
    EXPECT_EQ(
        failure(with(input.parameters(), "K", 9)),
        "K: k = 9 is larger than the 8 records: no group can ever reach it; lower k or release more records");
}

TEST(BadInput, CanceledRunWritesNothing)
{
    const SmallInput input;
    const QTemporaryDir folder;
    QVariantMap parameters = with(input.parameters(), "OUTPUT", folder.filePath("aggregates.gpkg"));
    parameters.insert("OUTPUT_RECORDS", folder.filePath("records.csv"));
    parameters.insert("OUTPUT_HTML_FILE", folder.filePath("report.html"));
    const AlgorithmRun run = runAlgorithm(kAggregate, parameters, true);
    EXPECT_FALSE(run.ok);
    EXPECT_EQ(run.errors.toStdString(), "Canceled by the user; no output was written.");
    for (const char* file : {"aggregates.gpkg", "records.csv", "report.html"})
        EXPECT_FALSE(QFile::exists(folder.filePath(file))) << file;
}

TEST(BadInput, SitesMustBePoints)
{
    const SmallInput input;
    QVariantMap parameters = input.parameters();
    parameters.insert("SITES", QVariant::fromValue<QgsMapLayer*>(input.squares.get()));
    EXPECT_EQ(failure(parameters, "vbas:partitionregions"),
              "SITES: the layer holds Polygon geometries, but it must hold points; choose a layer of points");
    const auto none = makePoints({});
    parameters.insert("SITES", QVariant::fromValue<QgsMapLayer*>(none.get()));
    EXPECT_EQ(failure(parameters, "vbas:partitionregions"),
              "SITES: the layer holds no points; give at least one site");
}

TEST(BadInput, RatingNeedsAnExistingAggregateField)
{
    const SmallInput input;
    QVariantMap parameters = input.parameters();
    parameters.insert("AGGREGATE_FIELD", "town");
    EXPECT_EQ(failure(parameters, "vbas:rateaggregation"),
              "AGGREGATE_FIELD: REGIONS has no field 'town'; choose one of its fields (id)");
}

// What a release publishes (SPEC section 10): only fields with a role, no identifier, no order of the input,
// pre-aggregated rows merged, no count below k and no withheld count in a published output, l-diversity
// and the risk threshold. The attacks are the ones a reviewer ran against earlier releases.

#include "processingtestutils.h"
#include "realdata.h"
#include "vbasqgiscompat.h"

#include <qgsfeatureiterator.h>
#include <qgsprocessing.h>
#include <qgsvectorlayer.h>

#include <gtest/gtest.h>

#include <QMap>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>

namespace
{
const QStringList kQuasiIdentifiers{"age_band", "sex", "married"};

/** Every feature of `layer` with its attributes by field name. */
QList<QVariantMap> rowsOf(QgsVectorLayer& layer)
{
    QList<QVariantMap> rows;
    QgsFeature feature;
    QgsFeatureIterator features = layer.getFeatures();
    while (features.nextFeature(feature))
    {
        QVariantMap row;
        for (int i = 0; i < layer.fields().count(); ++i)
            row.insert(layer.fields().at(i).name(), feature.attribute(i));
        rows << row;
    }
    return rows;
}

/** The Olinda patients sorted by tract, as a custodian's export often is, with a copy of the tract. */
std::unique_ptr<QgsVectorLayer> patientsSortedByTract(const OlindaInput& olinda)
{
    QList<QVariantMap> patients = rowsOf(*olinda.patients);
    std::stable_sort(patients.begin(), patients.end(),
                     [](const QVariantMap& a, const QVariantMap& b)
                     { return a.value("tract").toString() < b.value("tract").toString(); });
    QList<QVariantList> rows;
    for (const QVariantMap& patient : patients)
        rows << QVariantList{patient.value("tract").toString(), patient.value("age_band"),
                             patient.value("sex"), patient.value("married"),
                             patient.value("tract").toString()};
    return makeTable({"tract:string", "age_band:string", "sex:string", "married:string", "true_tract:string"},
                     rows);
}

/** The members of each aggregate in the order of their ids (the order of a sorted export), from the mapping.
 */
QMap<QString, QStringList> membersByAggregate(QgsVectorLayer& mapping)
{
    QMap<QString, QStringList> members;
    for (const QVariantMap& row : rowsOf(mapping))
        members[row.value("aggregate_id").toString()] << row.value("CD_GEOCODI").toString();
    for (QStringList& list : members)
        std::sort(list.begin(), list.end());
    return members;
}

/**
 * The attack: released rows of one aggregate, in file order, weighted by `weights`, are cut into runs as long
 * as the members' shares of the population (`population`), in the order of the members' ids; returns the
 * member each row is placed in.
 */
QStringList placeByRuns(const QStringList& members, const QMap<QString, double>& population,
                        const QList<double>& weights)
{
    double memberTotal = 0;
    for (const QString& member : members)
        memberTotal += population.value(member);
    double rowTotal = 0;
    for (const double weight : weights)
        rowTotal += weight;
    QStringList placed;
    double before = 0; // weight of the rows before this one
    for (const double weight : weights)
    {
        // The row's middle, as a share of the aggregate, falls in one member's run.
        const double middle = (before + weight / 2) / rowTotal * memberTotal;
        double end = 0;
        QString member = members.constLast();
        for (const QString& candidate : members)
        {
            end += population.value(candidate);
            if (middle < end)
            {
                member = candidate;
                break;
            }
        }
        placed << member;
        before += weight;
    }
    return placed;
}

/** What the attack got right against what guessing by population share gets on average. */
struct AttackScore
{
    double placedRight = 0;   //!< share of records the attack placed in their true small area
    double byPopulation = 0;  //!< expected share when each record is placed at random by population share
    double standardError = 0; //!< of placedRight around byPopulation when the order tells nothing
};

/**
 * Runs the attack on `rows` (released rows in file order: aggregate, weight and the records of each true
 * small area it holds) with the public `population` of each small area.
 */
struct AttackRow
{
    QString aggregate;
    double weight = 1;
    QMap<QString, double> truth; //!< records of the row per true small area
};
AttackScore attack(const QList<AttackRow>& rows, const QMap<QString, QStringList>& members,
                   const QMap<QString, double>& population)
{
    QMap<QString, QList<int>> rowsOfAggregate;
    for (int i = 0; i < rows.size(); ++i)
        rowsOfAggregate[rows.at(i).aggregate] << i;
    AttackScore score;
    double records = 0, variance = 0;
    for (auto aggregate = rowsOfAggregate.constBegin(); aggregate != rowsOfAggregate.constEnd(); ++aggregate)
    {
        const QStringList& memberIds = members.value(aggregate.key());
        QList<double> weights;
        for (const int i : aggregate.value())
            weights << rows.at(i).weight;
        const QStringList placed = placeByRuns(memberIds, population, weights);
        double memberTotal = 0;
        for (const QString& member : memberIds)
            memberTotal += population.value(member);
        for (int j = 0; j < aggregate.value().size(); ++j)
        {
            const AttackRow& row = rows.at(aggregate.value().at(j));
            score.placedRight += row.truth.value(placed.at(j));
            double expected = 0;
            for (auto part = row.truth.constBegin(); part != row.truth.constEnd(); ++part)
                expected += part.value() * population.value(part.key()) / memberTotal;
            score.byPopulation += expected;
            const double share = expected / row.weight;
            variance += row.weight * row.weight * share * (1 - share);
            records += row.weight;
        }
    }
    score.placedRight /= records;
    score.byPopulation /= records;
    score.standardError = std::sqrt(variance) / records;
    return score;
}

/**
 * Runs vbas:aggregateregions on `records` (fields area, qi and one more) in one unit square "a" around one
 * site at K = 2, with `extra` parameters.
 */
AlgorithmRun runSmallRelease(QgsVectorLayer& records, const QVariantMap& extra)
{
    const auto squares = makeSquares({"a"});
    QVariantMap parameters{{"REGIONS", asParameter(squares.get())},    {"REGION_ID_FIELD", "id"},
                           {"RECORDS", asParameter(&records)},         {"RECORD_REGION_FIELD", "area"},
                           {"QUASI_IDENTIFIERS", QStringList{"qi"}},   {"K", 2},
                           {"SITE_COUNT_METHOD", "sitecount.fixed"},   {"SITE_COUNT", 1},
                           {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT}};
    for (auto it = extra.constBegin(); it != extra.constEnd(); ++it)
        parameters.insert(it.key(), it.value());
    return runAlgorithm("vbas:aggregateregions", parameters);
}

QVariantMap sortedRelease(const OlindaInput& olinda, QgsVectorLayer* patients)
{
    QVariantMap parameters = olinda.parameters(kQuasiIdentifiers);
    parameters.insert("RECORDS", asParameter(patients));
    return parameters;
}
} // namespace

TEST(Publication, OnlyFieldsWithARoleArePublishedAndTheLogNamesTheRest)
{
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters(kQuasiIdentifiers);
    parameters.insert("SENSITIVE_FIELDS", QStringList{"health"});
    parameters.insert("RELEASE_FIELDS", QStringList{"insurance"});
    const AlgorithmRun run = runAlgorithm("vbas:aggregateregions", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    QgsVectorLayer* records = outputLayer(run, "OUTPUT_RECORDS");
    EXPECT_EQ(records->fields().names(),
              QStringList({"aggregate_id", "age_band", "sex", "married", "health", "insurance"}));
    EXPECT_TRUE(run.log.contains("Not published (no role; give them as RELEASE_FIELDS or SENSITIVE_FIELDS to "
                                 "publish them): patient_id, ethnicity, education"))
        << run.log.toStdString();
    // The mapping is the public geography: the id of each small area and its aggregate, nothing else.
    EXPECT_EQ(outputLayer(run, "OUTPUT_MAPPING")->fields().names(),
              QStringList({"CD_GEOCODI", "aggregate_id"}));
}

TEST(Publication, AFieldNearlyUniquePerRecordIsRefusedAsAnIdentifier)
{
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters(kQuasiIdentifiers);
    parameters.insert("RELEASE_FIELDS", QStringList{"patient_id"});
    const AlgorithmRun run = runAlgorithm("vbas:aggregateregions", parameters);
    EXPECT_FALSE(run.ok);
    EXPECT_TRUE(run.errors.contains(
        "RELEASE_FIELDS: 'patient_id' singles records out: 18897 of 18897 records carry a value that fewer "
        "than 5 records share (18897 values, 18897 of them held by one record), and no value is held by 5 "
        "records or more. An identifier is never published: remove it from RELEASE_FIELDS, or declare it a "
        "quasi-identifier (QUASI_IDENTIFIERS)"))
        << run.errors.toStdString();

    // The edge at K = 2 (small sets: fewer than 3 records): 6 records alone, 3 values of 3 records, one of
    // them the most common; S = 6 against N - S - L1 = 15 - 6 - 3 = 6 passes (9 of 15 values distinct, which
    // "more distinct values than half the records" refused). One more record alone is refused.
    QStringList values{"g3", "g3", "g3", "g2", "g2", "g2", "g1", "g1", "g1", "a", "b", "c", "d", "e", "f"};
    for (const bool refused : {false, true})
    {
        if (refused)
            values << "h";
        QList<QVariantList> rows;
        for (const QString& value : values)
            rows << QVariantList{"a", "x", value};
        const auto table = makeTable({"area:string", "qi:string", "note:string"}, rows);
        const AlgorithmRun small = runSmallRelease(*table, {{"RELEASE_FIELDS", QStringList{"note"}}});
        EXPECT_EQ(small.ok, !refused) << small.errors.toStdString();
        // Of the values tied as the most common, the first in text order is named.
        EXPECT_EQ(
            small.errors.contains(
                "RELEASE_FIELDS: 'note' singles records out: 7 of 16 records carry a value that fewer than 3 "
                "records share (7 values, 7 of them held by one record), against 6 records in shared "
                "values other than its most common one ('g1', 3 records)"),
            refused)
            << small.errors.toStdString();
        // Values that also form larger groups: a category with rare values, which can be published coarser.
        EXPECT_EQ(small.errors.contains("a diagnosis code generalized to its chapter"), refused);
    }
}

TEST(Publication, IdsOnNearlyHalfTheRecordsOrValuesSharedByPairsAreRefusedWhateverTheRole)
{
    // 20 records: 9 ids beside NULL in the other 11 (10 distinct values, which the old guard let through),
    // and 10 values shared by pairs (k = 2 linkage).
    QList<QVariantList> idRows, pairRows;
    for (int i = 0; i < 20; ++i)
    {
        idRows << QVariantList{"a", "x",
                               i < 9 ? QVariant(QStringLiteral("P%1").arg(i))
                                     : VbasCompat::nullOf(VbasCompat::FieldTypeString)};
        pairRows << QVariantList{"a", "x", QStringLiteral("H%1").arg(i / 2)};
    }
    const auto ids = makeTable({"area:string", "qi:string", "ref:string"}, idRows);
    const auto pairs = makeTable({"area:string", "qi:string", "ref:string"}, pairRows);
    const QString idsFound =
        "'ref' singles records out: 9 of 20 records carry a value that fewer than 3 records "
        "share (9 values, 9 of them held by one record), against 0 records in shared "
        "values other than its most common one ('NULL', 11 records). An identifier is "
        "never published: remove it from %1, or declare it a quasi-identifier";
    const QString pairsFound =
        "'ref' singles records out: 20 of 20 records carry a value that fewer than 3 "
        "records share (10 values, 0 of them held by one record), and no value is held "
        "by 3 records or more. An identifier is never published: remove it from %1";
    for (const auto& [role, l] :
         {std::pair("RELEASE_FIELDS", 0), std::pair("SENSITIVE_FIELDS", 0), std::pair("SENSITIVE_FIELDS", 2)})
    {
        SCOPED_TRACE(QStringLiteral("%1, L = %2").arg(role).arg(l).toStdString());
        const QVariantMap extra{{role, QStringList{"ref"}}, {"L", l}};
        for (const auto& [table, found] :
             {std::pair(ids.get(), idsFound), std::pair(pairs.get(), pairsFound)})
        {
            const AlgorithmRun run = runSmallRelease(*table, extra);
            EXPECT_FALSE(run.ok);
            EXPECT_TRUE(run.errors.contains(QStringLiteral("%1: ").arg(role) + found.arg(role)))
                << run.errors.toStdString();
            EXPECT_FALSE(run.errors.contains("generalized to its chapter")) << "an id is no category";
        }
    }
}

TEST(Publication, ADiagnosisCodeWithManyRareCodesIsPublished)
{
    // The counts a Zipf law expects of 1,200 codes: code r held by 1200 / r records (rounded down), 8,712
    // records in all. Small sets at K = 5 (fewer than 5 records): codes 241 to 1200, 1,540 records, 600 of
    // them alone; the most common code holds 1,200, the other shared codes 5,972 records.
    QList<QVariantList> rows;
    for (int r = 1; r <= 1200; ++r)
        rows << repeated({"a", "x", QStringLiteral("C%1").arg(r, 4, 10, QLatin1Char('0'))}, 1200 / r);
    ASSERT_EQ(rows.size(), 8712);
    const auto table = makeTable({"area:string", "qi:string", "diagnosis:string"}, rows);
    const AlgorithmRun run = runSmallRelease(*table, {{"SENSITIVE_FIELDS", QStringList{"diagnosis"}},
                                                      {"L", 2},
                                                      {"K", 5},
                                                      {"OUTPUT_RECORDS", QgsProcessing::TEMPORARY_OUTPUT}});
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    QgsVectorLayer* records = outputLayer(run, "OUTPUT_RECORDS");
    EXPECT_EQ(records->fields().names(), QStringList({"aggregate_id", "qi", "diagnosis"}));
    EXPECT_EQ(records->featureCount(), 8712);
    EXPECT_EQ(records->uniqueValues(records->fields().indexOf("diagnosis")).size(), 1200);
}

TEST(Publication, AFieldGivenTwoRolesOrAProviderKeyIsRefused)
{
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters(kQuasiIdentifiers);
    parameters.insert("SENSITIVE_FIELDS", QStringList{"sex"});
    AlgorithmRun run = runAlgorithm("vbas:aggregateregions", parameters);
    EXPECT_FALSE(run.ok);
    EXPECT_TRUE(run.errors.contains("SENSITIVE_FIELDS: 'sex' is also given as QUASI_IDENTIFIERS; give each "
                                    "field one role"))
        << run.errors.toStdString();

    // A GeoPackage's fid is its provider's key: refused by name before any count.
    const auto districts = openData(QStringLiteral("tests/de_districts.gpkg"), QStringLiteral("districts"));
    const auto cases = openData(QStringLiteral("tests/de_districts.gpkg"), QStringLiteral("imd_cases"));
    ASSERT_GE(cases->dataProvider()->pkAttributeIndexes().size(), 1);
    const QString key = cases->fields().at(cases->dataProvider()->pkAttributeIndexes().constFirst()).name();
    run = runAlgorithm("vbas:aggregateregions", {{"REGIONS", asParameter(districts.get())},
                                                 {"REGION_ID_FIELD", "KEY"},
                                                 {"RECORDS", asParameter(cases.get())},
                                                 {"RECORD_REGION_FIELD", "tile"},
                                                 {"QUASI_IDENTIFIERS", QStringList{"sex"}},
                                                 {"RELEASE_FIELDS", QStringList{key}},
                                                 {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT}});
    EXPECT_FALSE(run.ok);
    EXPECT_TRUE(
        run.errors.contains(QStringLiteral("RELEASE_FIELDS: '%1' is the key the data source gives each "
                                           "row; keys tell the rows apart and are never published")
                                .arg(key)))
        << run.errors.toStdString() << run.log.toStdString();
}

TEST(Publication, RowOrderOfASortedExportNoLongerPlacesRecordsInTheirSmallArea)
{
    const OlindaInput olinda;
    const auto sorted = patientsSortedByTract(olinda);
    QVariantMap parameters = sortedRelease(olinda, sorted.get());
    // The truth, which the attack does not read, in the review output (published, it would be refused: it
    // tells the tract); withheld rows are left out below.
    parameters.insert("RELEASE_FIELDS", QStringList{"true_tract"});
    parameters.insert("KEEP_SUPPRESSED", true);
    const AlgorithmRun run = runAlgorithm("vbas:aggregateregions", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    const QMap<QString, QStringList> members = membersByAggregate(*outputLayer(run, "OUTPUT_MAPPING"));
    QMap<QString, double> population; // the public populations: here the records of each tract
    for (const QVariantMap& row : rowsOf(*sorted))
        population[row.value("tract").toString()] += 1;

    QList<AttackRow> released;
    QMap<QString, QString> aggregateOf;
    for (auto it = members.constBegin(); it != members.constEnd(); ++it)
        for (const QString& member : it.value())
            aggregateOf.insert(member, it.key());
    for (const QVariantMap& row : rowsOf(*outputLayer(run, "OUTPUT_RECORDS")))
        if (!row.value("aggregate_id").isNull() && !row.value("aggregate_id").toString().isEmpty())
            released << AttackRow{
                row.value("aggregate_id").toString(), 1, {{row.value("true_tract").toString(), 1}}};
    // Before: the released rows in the input's order, as earlier releases wrote them.
    QList<AttackRow> inInputOrder = released;
    std::stable_sort(inInputOrder.begin(), inInputOrder.end(),
                     [](const AttackRow& a, const AttackRow& b)
                     { return a.truth.firstKey() < b.truth.firstKey(); });

    const AttackScore before = attack(inInputOrder, members, population);
    const AttackScore after = attack(released, members, population);
    std::cout << "row-order attack: placed right " << 100 * before.placedRight << " % in input order, "
              << 100 * after.placedRight << " % in the release; by population share "
              << 100 * after.byPopulation << " % (standard error " << 100 * after.standardError << ")\n";
    EXPECT_GT(before.placedRight, 0.9) << "the attack must work where the order tells";
    EXPECT_LT(after.placedRight, after.byPopulation + 4 * after.standardError);
}

TEST(Publication, PreAggregatedInputIsPublishedMergedWithNoCountBelowK)
{
    const OlindaInput olinda;
    // GROUP BY tract, age_band, sex, married, sorted by tract: one row per (small area, class) cell.
    std::map<QStringList, qint64> cells;
    for (const QVariantMap& row : rowsOf(*olinda.patients))
        ++cells[{row.value("tract").toString(), row.value("age_band").toString(), row.value("sex").toString(),
                 row.value("married").toString()}];
    QList<QVariantList> rows;
    qint64 cellsBelowK = 0;
    for (const auto& [key, count] : cells)
    {
        rows << QVariantList{key.at(0), key.at(1), key.at(2), key.at(3), count};
        cellsBelowK += count < 5 ? 1 : 0;
    }
    const auto table =
        makeTable({"tract:string", "age_band:string", "sex:string", "married:string", "n:integer"}, rows);
    QVariantMap parameters = sortedRelease(olinda, table.get());
    parameters.insert("COUNT_FIELD", "n");
    const AlgorithmRun run = runAlgorithm("vbas:aggregateregions", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();

    QgsVectorLayer* records = outputLayer(run, "OUTPUT_RECORDS");
    EXPECT_EQ(records->fields().names(), QStringList({"aggregate_id", "age_band", "sex", "married", "n"}));
    const QList<QVariantMap> published = rowsOf(*records);
    QSet<QStringList> groups;
    qint64 releasedRecords = 0;
    for (const QVariantMap& row : published)
    {
        EXPECT_GE(row.value("n").toLongLong(), 5) << "a published count below k";
        const QStringList group{row.value("aggregate_id").toString(), row.value("age_band").toString(),
                                row.value("sex").toString(), row.value("married").toString()};
        EXPECT_FALSE(groups.contains(group)) << "one row per released group";
        groups.insert(group);
        releasedRecords += row.value("n").toLongLong();
    }
    EXPECT_EQ(releasedRecords, number(run, "RECORDS_RELEASED"));
    EXPECT_GT(cellsBelowK, qint64(rows.size()) / 2) << "the input's cells are mostly below k";

    // The attack on the merged rows: each row is a whole group of an aggregate, made of the cells of its
    // class in the aggregate's tracts.
    const QMap<QString, QStringList> members = membersByAggregate(*outputLayer(run, "OUTPUT_MAPPING"));
    QMap<QString, double> population;
    for (const auto& [key, count] : cells)
        population[key.at(0)] += double(count);
    QList<AttackRow> released;
    for (const QVariantMap& row : published)
    {
        AttackRow attackRow{row.value("aggregate_id").toString(), row.value("n").toDouble(), {}};
        for (const QString& member : members.value(attackRow.aggregate))
        {
            const auto cell = cells.find({member, row.value("age_band").toString(),
                                          row.value("sex").toString(), row.value("married").toString()});
            if (cell != cells.end())
                attackRow.truth.insert(member, double(cell->second));
        }
        released << attackRow;
    }
    // Before: the input's cells in their order, each with its aggregate, as earlier releases wrote them.
    QMap<QString, QString> aggregateOf;
    for (auto it = members.constBegin(); it != members.constEnd(); ++it)
        for (const QString& member : it.value())
            aggregateOf.insert(member, it.key());
    QList<AttackRow> cellRows;
    for (const auto& [key, count] : cells)
        cellRows << AttackRow{aggregateOf.value(key.at(0)), double(count), {{key.at(0), double(count)}}};

    const AttackScore before = attack(cellRows, members, population);
    const AttackScore after = attack(released, members, population);
    std::cout << "pre-aggregated attack: placed right " << 100 * before.placedRight << " % from the input's "
              << "cells, " << 100 * after.placedRight << " % in the release; by population share "
              << 100 * after.byPopulation << " % (standard error " << 100 * after.standardError << ")\n";
    EXPECT_GT(before.placedRight, 0.9);
    EXPECT_LT(after.placedRight, after.byPopulation + 4 * after.standardError);
}

namespace
{
/**
 * Four squares in one region (one site), k = 5, and a count table whose groups hold k but whose colours split
 * them: F red 3 + 3, F blue 2, F green 5, M red 5, M blue 1 + 1 (20 records; green keeps colour from being an
 * identifier). Published merged by colour, F blue and M blue would be rows of 2.
 */
struct ColouredCounts
{
    std::unique_ptr<QgsVectorLayer> regions = makeSquares({"A", "B", "C", "D"});
    std::unique_ptr<QgsVectorLayer> records =
        makeTable({"area:string", "sex:string", "colour:string", "n:integer"}, {{"A", "F", "red", 3},
                                                                                {"B", "F", "red", 3},
                                                                                {"A", "F", "blue", 2},
                                                                                {"D", "F", "green", 5},
                                                                                {"C", "M", "red", 5},
                                                                                {"D", "M", "blue", 1},
                                                                                {"C", "M", "blue", 1}});

    QVariantMap parameters(const char* role) const
    {
        return {{"REGIONS", asParameter(regions.get())},
                {"REGION_ID_FIELD", "id"},
                {"RECORDS", asParameter(records.get())},
                {"RECORD_REGION_FIELD", "area"},
                {"QUASI_IDENTIFIERS", QStringList{"sex"}},
                {role, QStringList{"colour"}},
                {"COUNT_FIELD", "n"},
                {"K", 5},
                {"SITE_COUNT_METHOD", "sitecount.fixed"},
                {"SITE_COUNT", 1},
                {"KEEP_SUPPRESSED", true},
                {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT},
                {"OUTPUT_RECORDS", QgsProcessing::TEMPORARY_OUTPUT}};
    }
};

/** The records of each (sex, colour, fate) row of a records output kept with its withheld rows. */
QMap<QString, qint64> countRows(QgsVectorLayer& records)
{
    QMap<QString, qint64> rows;
    for (const QVariantMap& row : rowsOf(records))
        rows[QStringLiteral("%1 %2 %3")
                 .arg(row.value("sex").toString(), row.value("colour").toString(),
                      row.value("vbas_fate").toString())] += row.value("n").toLongLong();
    return rows;
}
} // namespace

TEST(Publication, ACountTableWithOtherPublishedFieldsPublishesNoRowBelowK)
{
    // Worked by hand: F blue (2) and M blue (1 + 1) are rows below 5 in groups of 13 and 7; withheld, they
    // leave 16 of the 20 records released in three rows of 6, 5 and 5.
    const ColouredCounts input;
    const AlgorithmRun run = runAlgorithm("vbas:aggregateregions", input.parameters("RELEASE_FIELDS"));
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_EQ(countRows(*outputLayer(run, "OUTPUT_RECORDS")),
              (QMap<QString, qint64>{{"F red released", 6},
                                     {"F green released", 5},
                                     {"M red released", 5},
                                     {"F blue suppressed_row", 2},
                                     {"M blue suppressed_row", 2}}));
    EXPECT_EQ(number(run, "INPUT_RECORDS"), 20);
    EXPECT_EQ(number(run, "RECORDS_RELEASED"), 16);
    EXPECT_EQ(number(run, "SUPPRESSED"), 4);
    EXPECT_TRUE(run.log.contains("Withheld 4 records: 0 as rare in the whole data set, 0 as too few in their "
                                 "region, 4 in count rows below k, 0 for the sensitive values and 0 against "
                                 "earlier releases."))
        << run.log.toStdString();

    // As a sensitive field with l = 2: M keeps red alone once its blue row is withheld, so the whole group
    // goes for l-diversity; F keeps red and green.
    QVariantMap diverse = input.parameters("SENSITIVE_FIELDS");
    diverse.insert("L", 2);
    const AlgorithmRun lDiverse = runAlgorithm("vbas:aggregateregions", diverse);
    ASSERT_TRUE(lDiverse.ok) << lDiverse.errors.toStdString();
    EXPECT_EQ(countRows(*outputLayer(lDiverse, "OUTPUT_RECORDS")),
              (QMap<QString, qint64>{{"F red released", 6},
                                     {"F green released", 5},
                                     {"F blue suppressed_row", 2},
                                     {"M red suppressed_diversity", 5},
                                     {"M blue suppressed_diversity", 2}}));
    EXPECT_EQ(number(lDiverse, "RECORDS_RELEASED"), 11);
    EXPECT_EQ(number(lDiverse, "SUPPRESSED"), 9);
    // The log names the criterion that was on, not every one there is.
    EXPECT_TRUE(lDiverse.log.contains("7 for the sensitive values (distinct 2-diversity) and 0 against"))
        << lDiverse.log.toStdString();
}

TEST(Publication, ACountTableOfRealRecordsWithAReleasedFieldPublishesNoRowBelowK)
{
    // The Olinda patients as a custodian's GROUP BY (tract, quasi-identifiers, education), education
    // published as it is: most cells are below k, and so would many merged rows be.
    const OlindaInput olinda;
    std::map<QStringList, qint64> cells;
    for (const QVariantMap& row : rowsOf(*olinda.patients))
        ++cells[{row.value("tract").toString(), row.value("age_band").toString(), row.value("sex").toString(),
                 row.value("married").toString(), row.value("education").toString()}];
    QList<QVariantList> rows;
    for (const auto& [key, count] : cells)
        rows << QVariantList{key.at(0), key.at(1), key.at(2), key.at(3), key.at(4), count};
    const auto table = makeTable(
        {"tract:string", "age_band:string", "sex:string", "married:string", "education:string", "n:integer"},
        rows);
    QVariantMap parameters = sortedRelease(olinda, table.get());
    parameters.insert("COUNT_FIELD", "n");
    parameters.insert("RELEASE_FIELDS", QStringList{"education"});
    const AlgorithmRun run = runAlgorithm("vbas:aggregateregions", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    qint64 published = 0, belowK = 0, releasedRecords = 0;
    for (const QVariantMap& row : rowsOf(*outputLayer(run, "OUTPUT_RECORDS")))
    {
        ++published;
        belowK += row.value("n").toLongLong() < 5 ? 1 : 0;
        releasedRecords += row.value("n").toLongLong();
    }
    std::cout << "count table with education: " << published << " rows published, " << belowK << " below k; "
              << releasedRecords << " records released\n";
    EXPECT_GT(published, 100);
    EXPECT_EQ(belowK, 0);
    EXPECT_EQ(releasedRecords, number(run, "RECORDS_RELEASED"));
    EXPECT_EQ(number(run, "RECORDS_RELEASED") + number(run, "SUPPRESSED"), kOlindaPatients);
}

TEST(Publication, RecordOrderIsFreshEachRunAndRowIdsOnlyOnRequest)
{
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters(kQuasiIdentifiers);
    const AlgorithmRun first = runAlgorithm("vbas:aggregateregions", parameters);
    parameters.insert("ADD_ROW_ID", true);
    const AlgorithmRun second = runAlgorithm("vbas:aggregateregions", parameters);
    ASSERT_TRUE(first.ok && second.ok);
    QList<QStringList> one, two;
    QList<qint64> ids;
    for (const QVariantMap& row : rowsOf(*outputLayer(first, "OUTPUT_RECORDS")))
        one << QStringList{row.value("aggregate_id").toString(), row.value("age_band").toString(),
                           row.value("sex").toString(), row.value("married").toString()};
    for (const QVariantMap& row : rowsOf(*outputLayer(second, "OUTPUT_RECORDS")))
    {
        two << QStringList{row.value("aggregate_id").toString(), row.value("age_band").toString(),
                           row.value("sex").toString(), row.value("married").toString()};
        ids << row.value("row_id").toLongLong();
    }
    EXPECT_FALSE(outputLayer(first, "OUTPUT_RECORDS")->fields().names().contains("row_id"));
    EXPECT_EQ(outputLayer(second, "OUTPUT_RECORDS")->fields().names().constFirst(), "row_id");
    EXPECT_NE(one, two) << "the same seed must not give the same order";
    std::sort(one.begin(), one.end());
    std::sort(two.begin(), two.end());
    EXPECT_EQ(one, two) << "the same release, in another order";
    for (int i = 0; i < ids.size(); ++i)
        ASSERT_EQ(ids.at(i), i + 1);
}

TEST(Publication, NoPublishedOutputHoldsAWithheldCountWhichTheReviewOutputHolds)
{
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters(kOlindaQuasiIdentifiers);
    parameters.insert("OUTPUT_REVIEW", QgsProcessing::TEMPORARY_OUTPUT);
    const AlgorithmRun run = runAlgorithm("vbas:aggregateregions", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    for (const QString output : {"OUTPUT", "OUTPUT_MAPPING", "OUTPUT_SITES", "OUTPUT_RECORDS"})
        for (const QString& name : outputLayer(run, output)->fields().names())
            EXPECT_FALSE(name.contains("suppressed") || name == "anonymity_before")
                << output.toStdString() << " publishes " << name.toStdString();
    for (const QVariantMap& row : rowsOf(*outputLayer(run, "OUTPUT")))
    {
        const qint64 released = row.value("released").toLongLong();
        EXPECT_TRUE(released == 0 || released >= 5);
        const qint64 anonymity = row.value("anonymity_after").toLongLong();
        EXPECT_TRUE(anonymity == 0 || anonymity >= 5);
    }
    // The review layer holds what was withheld, and it adds up to the run's figures.
    QgsVectorLayer* review = outputLayer(run, "OUTPUT_REVIEW");
    const double withheld = sumOf(*review, "suppressed_local") + sumOf(*review, "suppressed_global") +
                            sumOf(*review, "suppressed_diversity");
    EXPECT_EQ(qint64(withheld) + number(run, "RECORDS_RELEASED"), kOlindaPatients);
    EXPECT_GT(withheld, 0);
}

TEST(Publication, MaxRiskSetsKAsTheCeilingOfItsInverse)
{
    const OlindaInput olinda;
    QVariantMap parameters = olinda.parameters(kQuasiIdentifiers);
    parameters.insert("K", 2);
    parameters.insert("MAX_RISK", 0.09); // 1 / 0.09 = 11.1: k = 12
    const AlgorithmRun run = runAlgorithm("vbas:aggregateregions", parameters);
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    EXPECT_TRUE(run.log.contains("MAX_RISK 0.09: k = ceil(1 / 0.09) = 12 (K is not used)"))
        << run.log.toStdString();
    const Recount recount =
        recountGroups(*outputLayer(run, "OUTPUT_RECORDS"), {"aggregate_id", "age_band", "sex", "married"});
    EXPECT_GE(recount.smallestGroup, 12);
    EXPECT_EQ(checkAnonymity(outputLayer(run, "OUTPUT_RECORDS"), "aggregate_id", kQuasiIdentifiers, 12),
              "PASS");

    parameters.insert("MAX_RISK", 0.7);
    const AlgorithmRun tooHigh = runAlgorithm("vbas:aggregateregions", parameters);
    EXPECT_FALSE(tooHigh.ok);
    EXPECT_TRUE(tooHigh.errors.startsWith("MAX_RISK: ")) << tooHigh.errors.toStdString();
}

TEST(Publication, LDiverseReleaseIsVerifiedIndependently)
{
    const OlindaInput olinda;
    for (const QString measure : {"distinct", "entropy"})
    {
        QVariantMap parameters = olinda.parameters(kQuasiIdentifiers);
        parameters.insert("SENSITIVE_FIELDS", QStringList{"health"});
        parameters.insert("L", 2);
        parameters.insert("L_MEASURE", measure);
        parameters.insert("OUTPUT_REVIEW", QgsProcessing::TEMPORARY_OUTPUT);
        const AlgorithmRun run = runAlgorithm("vbas:aggregateregions", parameters);
        ASSERT_TRUE(run.ok) << run.errors.toStdString();
        QgsVectorLayer* records = outputLayer(run, "OUTPUT_RECORDS");
        // Recounted here: every released group holds both values of health (distinct) or values whose
        // entropy reaches ln 2, which for two values means exactly as many of each.
        std::map<QStringList, QMap<QString, qint64>> groups;
        for (const QVariantMap& row : rowsOf(*records))
            ++groups[{row.value("aggregate_id").toString(), row.value("age_band").toString(),
                      row.value("sex").toString(), row.value("married").toString()}]
                    [row.value("health").toString()];
        for (const auto& [group, values] : groups)
        {
            qint64 size = 0;
            double entropy = 0;
            for (const qint64 count : values)
                size += count;
            for (const qint64 count : values)
                entropy -= double(count) / double(size) * std::log(double(count) / double(size));
            EXPECT_GE(size, 5);
            EXPECT_GE(values.size(), 2) << group.join(',').toStdString();
            if (measure == "entropy")
            {
                EXPECT_GE(entropy, std::log(2.0) - 1e-9) << group.join(',').toStdString();
            }
        }
        QgsVectorLayer* review = outputLayer(run, "OUTPUT_REVIEW");
        const double diversity = sumOf(*review, "suppressed_diversity");
        EXPECT_GT(diversity, 0) << "some groups share one health value";
        EXPECT_EQ(
            qint64(sumOf(*review, "suppressed_local") + sumOf(*review, "suppressed_global") + diversity) +
                number(run, "RECORDS_RELEASED"),
            kOlindaPatients);
        const AlgorithmRun check =
            runAlgorithm("vbas:checkanonymity", {{"INPUT", asParameter(records)},
                                                 {"REGION_FIELD", "aggregate_id"},
                                                 {"QUASI_IDENTIFIERS", kQuasiIdentifiers},
                                                 {"SENSITIVE_FIELDS", QStringList{"health"}},
                                                 {"L", 2},
                                                 {"L_MEASURE", measure},
                                                 {"K", 5}});
        EXPECT_EQ(check.results.value("VERDICT").toString(), "PASS") << check.log.toStdString();
    }
}

TEST(Publication, CheckAnonymityFindsGroupsThatAreNotLDiverseByHand)
{
    // Region r: group (x) holds a,a,a,b: 2 distinct values, entropy 0.562 < ln 2 = 0.693.
    // Group (y) holds a,a,b,b: entropy ln 2. Group (z) holds c,c,c,c: one value.
    QList<QVariantList> rows;
    for (const QString value : {"a", "a", "a", "b"})
        rows << QVariantList{"r", "x", value};
    for (const QString value : {"a", "a", "b", "b"})
        rows << QVariantList{"r", "y", value};
    for (int i = 0; i < 4; ++i)
        rows << QVariantList{"r", "z", "c"};
    const auto table = makeTable({"region:string", "qi:string", "diagnosis:string"}, rows);
    const auto check = [&](const QString& measure)
    {
        return runAlgorithm("vbas:checkanonymity", {{"INPUT", asParameter(table.get())},
                                                    {"REGION_FIELD", "region"},
                                                    {"QUASI_IDENTIFIERS", QStringList{"qi"}},
                                                    {"SENSITIVE_FIELDS", QStringList{"diagnosis"}},
                                                    {"L", 2},
                                                    {"L_MEASURE", measure},
                                                    {"K", 4},
                                                    {"OUTPUT", QgsProcessing::TEMPORARY_OUTPUT}});
    };
    const AlgorithmRun distinct = check("distinct");
    EXPECT_EQ(number(distinct, "VIOLATING_GROUPS"), 1); // z
    EXPECT_EQ(number(distinct, "VIOLATING_RECORDS"), 4);
    ASSERT_EQ(distinct.outputRows.size(), 1);
    EXPECT_EQ(distinct.outputRows.at(0).at(1).toString(), "z");
    const AlgorithmRun entropy = check("entropy");
    EXPECT_EQ(number(entropy, "VIOLATING_GROUPS"), 2); // x and z
    EXPECT_EQ(entropy.results.value("VERDICT").toString(), "FAIL");
    EXPECT_TRUE(entropy.log.contains("do not hold at least 4 records and entropy 2-diversity"))
        << entropy.log.toStdString();
}

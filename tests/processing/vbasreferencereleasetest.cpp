// Reference releases: what the code made on the repository's real data when the fixtures were written
// (data/reference/README.md), re-run in process with the same parameters (data/reference/cases.txt) and
// compared as sets: the aggregated regions by aggregate_id, the mapping as a set of rows, the records as a
// multiset (their order is random on every run). A refactoring that keeps releases must keep these.

#include "processingtestutils.h"
#include "vbasqgiscompat.h"

#include <qgsfeatureiterator.h>
#include <qgsprocessing.h>
#include <qgsvectorlayer.h>

#include <QFile>
#include <QMap>
#include <QTextStream>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace
{
const QString kReferenceFolder = QStringLiteral(VBAS_SOURCE_DIR "/tests/processing/data/reference/");
constexpr double kRelativeTolerance = 1e-9;
/** The fields of OUTPUT_REVIEW that the published OUTPUT leaves out (docs/publishing.md). */
const QStringList kReviewOnlyFields{"suppressed_local", "suppressed_global", "suppressed_diversity",
                                    "anonymity_before", "suppressed_difference"};
/** The last column of a records fixture: how many released rows are equal to the rest of the line. */
const QString kCountField = QStringLiteral("reference_count");

struct ReferenceCase
{
    QString name;
    QString algorithm;
    QMap<QString, QStringList> parameters; //!< as on the command line: NAME -> every VALUE given
};

void PrintTo(const ReferenceCase& referenceCase, std::ostream* out)
{
    *out << referenceCase.name.toStdString();
}

/** Returns the cases of cases.txt, in its order. */
std::vector<ReferenceCase> readCases()
{
    std::vector<ReferenceCase> cases;
    QFile file(kReferenceFolder + QStringLiteral("cases.txt"));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return cases;
    QTextStream in(&file);
    while (!in.atEnd())
    {
        const QStringList words = in.readLine().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (words.size() < 2 || words.first().startsWith(QLatin1Char('#')))
            continue;
        ReferenceCase referenceCase{words.at(0), words.at(1), {}};
        for (int i = 2; i < words.size(); ++i)
        {
            const auto equals = words.at(i).indexOf(QLatin1Char('='));
            QString value = words.at(i).mid(equals + 1);
            if (value.startsWith(QLatin1String("data/")))
                value.prepend(QStringLiteral(VBAS_SOURCE_DIR "/"));
            referenceCase.parameters[words.at(i).left(equals)].append(value);
        }
        cases.push_back(referenceCase);
    }
    return cases;
}

/** Returns the parameters of `referenceCase` as vbas_process gives them to the algorithm (one value as
 * text, several as a list), with every output in memory. */
QVariantMap runParameters(const ReferenceCase& referenceCase, bool withMapping)
{
    QVariantMap parameters;
    for (auto it = referenceCase.parameters.constBegin(); it != referenceCase.parameters.constEnd(); ++it)
        parameters.insert(it.key(),
                          it.value().size() == 1 ? QVariant(it.value().constFirst()) : QVariant(it.value()));
    QStringList outputs{"OUTPUT", "OUTPUT_REVIEW", "OUTPUT_RECORDS"};
    if (withMapping)
        outputs << QStringLiteral("OUTPUT_MAPPING");
    for (const QString& output : outputs)
        parameters.insert(output, QgsProcessing::TEMPORARY_OUTPUT);
    return parameters;
}

/** A table read as text, with which fields hold floating-point numbers. */
struct Table
{
    QStringList fields;
    QList<bool> floating;
    QList<QStringList> rows;
};

QString asText(const QVariant& value)
{
    if (value.isNull())
        return QString();
    if (value.userType() == QMetaType::Double)
        return QString::number(value.toDouble(), 'g', 17);
    return value.toString();
}

/** Returns the attributes of `layer` as text (NULL as empty, as in a CSV file). */
Table readTable(QgsVectorLayer& layer)
{
    Table table;
    for (const QgsField& field : layer.fields())
    {
        table.fields << field.name();
        table.floating << (field.type() == VbasCompat::FieldTypeDouble);
    }
    QgsFeature feature;
    QgsFeatureIterator features = layer.getFeatures();
    while (features.nextFeature(feature))
    {
        QStringList row;
        for (const QVariant& value : feature.attributes())
            row << asText(value);
        table.rows << row;
    }
    return table;
}

/** Returns the fixture `file` of the reference folder, every field as text; empty when it is missing. */
Table readFixture(const QString& file)
{
    if (!QFile::exists(kReferenceFolder + file))
        return {};
    QgsVectorLayer layer(kReferenceFolder + file, file, QStringLiteral("ogr"));
    EXPECT_TRUE(layer.isValid()) << file.toStdString();
    return readTable(layer);
}

std::string describe(const QStringList& fields, const QStringList& row)
{
    QStringList pairs;
    for (int i = 0; i < fields.size() && i < row.size(); ++i)
        pairs << fields.at(i) + QLatin1Char('=') + row.at(i);
    return pairs.join(QStringLiteral(", ")).toStdString();
}

bool sameValue(const QString& expected, const QString& actual, bool floating)
{
    if (expected == actual)
        return true;
    if (!floating)
        return false;
    bool expectedOk = false;
    bool actualOk = false;
    const double e = expected.toDouble(&expectedOk);
    const double a = actual.toDouble(&actualOk);
    return expectedOk && actualOk &&
           std::abs(e - a) <= kRelativeTolerance * std::max(std::abs(e), std::abs(a));
}

/**
 * Compares the aggregated regions `actual` (one of OUTPUT, OUTPUT_REVIEW) with the fixture `expected` row
 * by row, matched by aggregate_id: the same ids, and every field of `actual` equal to the fixture's column
 * of that name (floating-point fields within kRelativeTolerance). Reports the first difference only.
 */
void expectSameAggregates(const std::string& what, const Table& expected, const Table& actual)
{
    const auto expectedKey = expected.fields.indexOf(QStringLiteral("aggregate_id"));
    const auto actualKey = actual.fields.indexOf(QStringLiteral("aggregate_id"));
    ASSERT_GE(expectedKey, 0) << what << ": the fixture has no aggregate_id";
    ASSERT_GE(actualKey, 0) << what << ": no aggregate_id";
    QMap<QString, QStringList> expectedRows;
    for (const QStringList& row : expected.rows)
        expectedRows.insert(row.at(expectedKey), row);
    QMap<QString, QStringList> actualRows;
    for (const QStringList& row : actual.rows)
        actualRows.insert(row.at(actualKey), row);
    ASSERT_EQ(actualRows.size(), actual.rows.size()) << what << ": aggregate_id is not unique";

    for (auto it = expectedRows.constBegin(); it != expectedRows.constEnd(); ++it)
    {
        const auto found = actualRows.constFind(it.key());
        ASSERT_TRUE(found != actualRows.constEnd())
            << what << ": aggregate " << it.key().toStdString()
            << " of the reference is missing; reference row: " << describe(expected.fields, it.value());
        for (int f = 0; f < actual.fields.size(); ++f)
        {
            const auto column = expected.fields.indexOf(actual.fields.at(f));
            ASSERT_TRUE(sameValue(it.value().at(column), found->at(f), actual.floating.at(f)))
                << what << ": aggregate " << it.key().toStdString() << ", field "
                << actual.fields.at(f).toStdString() << ": reference '" << it.value().at(column).toStdString()
                << "', now '" << found->at(f).toStdString()
                << "'\n  reference row: " << describe(expected.fields, it.value())
                << "\n  row now:       " << describe(actual.fields, *found);
        }
    }
    for (auto it = actualRows.constBegin(); it != actualRows.constEnd(); ++it)
        ASSERT_TRUE(expectedRows.contains(it.key()))
            << what << ": aggregate " << it.key().toStdString()
            << " is not in the reference; row now: " << describe(actual.fields, it.value());
}

/** Returns how many times each row occurs; with `countColumn` >= 0, that column holds the count. */
QMap<QStringList, qint64> multiset(const QList<QStringList>& rows, int countColumn = -1)
{
    QMap<QStringList, qint64> counts;
    for (QStringList row : rows)
    {
        qint64 count = 1;
        if (countColumn >= 0)
            count = row.takeAt(countColumn).toLongLong();
        counts[row] += count;
    }
    return counts;
}

/** Compares two multisets of rows (a set when every count is 1); reports the first row, in sorted order,
 * whose count differs. */
void expectSameRows(const std::string& what, const QStringList& fields,
                    const QMap<QStringList, qint64>& expected, const QMap<QStringList, qint64>& actual)
{
    QMap<QStringList, qint64> all = expected;
    for (auto it = actual.constBegin(); it != actual.constEnd(); ++it)
        all.insert(it.key(), 0);
    for (auto it = all.constBegin(); it != all.constEnd(); ++it)
        ASSERT_EQ(expected.value(it.key()), actual.value(it.key()))
            << what << ": the first row whose count differs (copies in the reference, now): "
            << describe(fields, it.key());
}

class ReferenceRelease : public ::testing::TestWithParam<ReferenceCase>
{
};

TEST_P(ReferenceRelease, IsUnchanged)
{
    const ReferenceCase& referenceCase = GetParam();
    const std::string name = referenceCase.name.toStdString();
    const Table aggregates = readFixture(referenceCase.name + QStringLiteral("_aggregates.csv"));
    const Table mapping = readFixture(referenceCase.name + QStringLiteral("_mapping.csv"));
    const Table records = readFixture(referenceCase.name + QStringLiteral("_records.csv"));
    ASSERT_FALSE(aggregates.rows.isEmpty()) << name << ": no reference aggregates";
    ASSERT_FALSE(records.fields.isEmpty()) << name << ": no reference records";
    const bool withMapping = !mapping.fields.isEmpty();

    const AlgorithmRun run = runAlgorithm(referenceCase.algorithm, runParameters(referenceCase, withMapping));
    ASSERT_TRUE(run.ok) << name << ": " << run.errors.toStdString();

    for (const char* output : {"OUTPUT", "OUTPUT_REVIEW", "OUTPUT_RECORDS"})
        ASSERT_TRUE(outputLayer(run, output)) << name;
    // The review layer holds every field of the fixture; the published one the same rows, fewer fields.
    const Table review = readTable(*outputLayer(run, "OUTPUT_REVIEW"));
    ASSERT_EQ(review.fields, aggregates.fields) << name;
    expectSameAggregates(name + " OUTPUT_REVIEW", aggregates, review);
    const Table published = readTable(*outputLayer(run, "OUTPUT"));
    QStringList publishedFields = aggregates.fields;
    for (const QString& field : kReviewOnlyFields)
        publishedFields.removeAll(field);
    ASSERT_EQ(published.fields, publishedFields) << name;
    expectSameAggregates(name + " OUTPUT", aggregates, published);

    if (withMapping)
    {
        ASSERT_TRUE(outputLayer(run, "OUTPUT_MAPPING")) << name;
        const Table mappingNow = readTable(*outputLayer(run, "OUTPUT_MAPPING"));
        ASSERT_EQ(mappingNow.fields, mapping.fields) << name;
        ASSERT_EQ(mappingNow.rows.size(), mapping.rows.size()) << name << " OUTPUT_MAPPING";
        expectSameRows(name + " OUTPUT_MAPPING", mapping.fields, multiset(mapping.rows),
                       multiset(mappingNow.rows));
    }

    const Table recordsNow = readTable(*outputLayer(run, "OUTPUT_RECORDS"));
    ASSERT_EQ(recordsNow.fields + QStringList{kCountField}, records.fields) << name;
    expectSameRows(name + " OUTPUT_RECORDS", recordsNow.fields,
                   multiset(records.rows, int(records.fields.size()) - 1), multiset(recordsNow.rows));
}

INSTANTIATE_TEST_SUITE_P(RealData, ReferenceRelease, ::testing::ValuesIn(readCases()),
                         [](const ::testing::TestParamInfo<ReferenceCase>& parameter)
                         { return parameter.param.name.toStdString(); });

TEST(ReferenceReleaseCases, AreRead)
{
    EXPECT_GE(readCases().size(), 5u) << "tests/processing/data/reference/cases.txt";
}
} // namespace

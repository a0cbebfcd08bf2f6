#include "vbasalgorithmcheckanonymity.h"

#include "privacy/PublishedColumns.h"
#include "vbascolumnfigures.h"
#include "vbasdataparameters.h"
#include "vbasgroupcounts.h"
#include "vbasoutputguard.h"
#include "vbasparameterreader.h"
#include "vbasqgiscompat.h"
#include "vbasstrategyparameters.h"

#include <qgsprocessingoutputs.h>

#include <memory>

using namespace VbasParameters;

void VbasAlgorithmCheckAnonymity::initAlgorithm(const QVariantMap&)
{
    addParameter(new QgsProcessingParameterFeatureSource(kInput, QObject::tr("Released records"),
                                                         {static_cast<int>(VbasCompat::SourceTypeVector)}));
    addParameter(new QgsProcessingParameterField(kRegionField, QObject::tr("Released region field"),
                                                 QStringLiteral(""), kInput));
    VbasDataParameters::addQuasiIdentifiersTo(*this, kInput, false);
    VbasDataParameters::addCountFieldTo(*this, kInput);
    VbasDataParameters::addKTo(*this);
    VbasDataParameters::addDiversityTo(*this, kInput, true);
    addParameter(new QgsProcessingParameterField(kRecordIdField, QObject::tr("Person id field (optional)"),
                                                 QVariant(), kInput, VbasCompat::FieldTypeAny, false, true));
    addParameter(new QgsProcessingParameterField(
        kSmallAreaField, QObject::tr("Small area of each row (optional, for placement)"), QVariant(), kInput,
        VbasCompat::FieldTypeAny, false, true));
    addParameter(forReview(new QgsProcessingParameterFeatureSink(
        kOutput, QObject::tr("Groups below k or not l-diverse (review only: never publish)"),
        VbasCompat::SourceTypeVector, QVariant(), true)));
    addParameter(forReview(new QgsProcessingParameterFeatureSink(
        kOutputColumns, QObject::tr("What each other column reveals (review only: never publish)"),
        VbasCompat::SourceTypeVector, QVariant(), true, false)));
    addOutput(
        new QgsProcessingOutputNumber(kGroups, QObject::tr("Groups (region × quasi-identifier values)")));
    addOutput(new QgsProcessingOutputNumber(kRecords, QObject::tr("Records")));
    addOutput(
        new QgsProcessingOutputNumber(kViolatingGroups, QObject::tr("Groups below k or not l-diverse")));
    addOutput(new QgsProcessingOutputNumber(kViolatingRecords,
                                            QObject::tr("Records in groups below k or not l-diverse")));
    addOutput(new QgsProcessingOutputNumber(kMinGroupSize, QObject::tr("Smallest group size")));
    addOutput(new QgsProcessingOutputString(
        kVerdict,
        QObject::tr("Verdict (PASS, FAIL, or REGION_SIZES_PASS when no quasi-identifier was checked)")));
}

QString VbasAlgorithmCheckAnonymity::name() const
{
    return QStringLiteral("checkanonymity");
}

QString VbasAlgorithmCheckAnonymity::displayName() const
{
    return QObject::tr("Check k-anonymity of a release");
}

QStringList VbasAlgorithmCheckAnonymity::tags() const
{
    return QObject::tr("k-anonymity,anonymity,verify,check,release,privacy,disclosure,health,records")
        .split(',');
}

QString VbasAlgorithmCheckAnonymity::group() const
{
    return QObject::tr("Verification");
}

QString VbasAlgorithmCheckAnonymity::groupId() const
{
    return QStringLiteral("verification");
}

QString VbasAlgorithmCheckAnonymity::shortHelpString() const
{
    return QObject::
        tr("Checks that a released table is k-anonymous: every group of records that share a released region "
           "and the same quasi-identifier values must hold at least k records.\n\n"
           "Released records (INPUT): any vector layer or table, one row per record or per group of "
           "identical records.\n"
           "Released region field (REGION_FIELD): the released region (aggregate) of each row.\n"
           "Quasi-identifier fields (QUASI_IDENTIFIERS): the fields an attacker may know, such as age group "
           "and sex. Left empty, only the size of each region is checked (a population floor), and a table "
           "that passes gets REGION_SIZES_PASS, never PASS: it says nothing of the groups of look-alike "
           "records.\n"
           "Record count field (COUNT_FIELD): how many records each row stands for, as in a pre-aggregated "
           "table; whole numbers of 0 or more (0: the row holds no records). Empty: each row is one record.\n"
           "Required anonymity k (K): the smallest allowed group size.\n"
           "Sensitive fields, L and L_MEASURE (optional): with L of 2 or more, every group must also hold at "
           "least L distinct values of each sensitive field (distinct), or values whose entropy is at least "
           "ln(L) (entropy).\n"
           "Person id field (RECORD_ID_FIELD, optional): when a person can have several rows (visits), every "
           "group "
           "counts its distinct people, and k is a number of people.\n"
           "Small area field (SMALL_AREA_FIELD, optional): the small area of each row, in a table kept for "
           "review, "
           "to measure how well each other column tells it inside the region.\n\n"
           "Every other column (not the region, a quasi-identifier, the count, the person id, a sensitive "
           "field or "
           "a key such as fid or row_id) is judged together with the region and the quasi-identifiers: the "
           "share of "
           "rows it puts in groups below k and the share it makes unique, and, with SMALL_AREA_FIELD, its "
           "placement "
           "(how well it tells the small area beyond the region alone, 0 no better, 1 every row). A column "
           "above "
           "%1 % of rows below k, or with placement above %2, fails the check; sensitive fields are judged "
           "on "
           "placement only. OUTPUT_COLUMNS lists the figures of every column.\n\n"
           "Values are compared exactly, as text; NULL is a value of its own, distinct from an empty "
           "text.\n\n"
           "Groups below k or not l-diverse (OUTPUT, optional) lists every such group with its region, "
           "quasi-identifier values and group_size (with sensitive fields also distinct_values and entropy, "
           "the "
           "lowest over the fields), sorted by region and then by values. The outputs GROUPS, RECORDS, "
           "VIOLATING_GROUPS, VIOLATING_RECORDS and MIN_GROUP_SIZE (empty for an empty table) sum up the "
           "check; VERDICT is PASS when no group fails, else FAIL (REGION_SIZES_PASS instead of PASS without "
           "quasi-identifiers).\n\n"
           "A FAIL means the table must not be released as it is: merge the listed regions further, "
           "generalize the quasi-identifiers or suppress the listed records, then check again. The check "
           "uses none of the VBAS engine, so it verifies any release, made by VBAS or not.")
            .arg(100.0 * vbas::kMaxShareBelowK)
            .arg(vbas::kMaxPlacement);
}

QString VbasAlgorithmCheckAnonymity::shortDescription() const
{
    return QObject::tr(
        "Counts every released group of any table, independently of the engine: PASS or the groups below k.");
}

VbasAlgorithmCheckAnonymity* VbasAlgorithmCheckAnonymity::createInstance() const
{
    return new VbasAlgorithmCheckAnonymity();
}

QVariantMap VbasAlgorithmCheckAnonymity::processAlgorithm(const QVariantMap& parameters,
                                                          QgsProcessingContext& context,
                                                          QgsProcessingFeedback* feedback)
{
    VbasOutputGuard guard(*this, parameters, context, feedback);
    const VbasParameterReader read(*this, guard.parameters(), context);
    return guard.runAndCommit(
        feedback,
        [&]
        {
            const std::unique_ptr<QgsProcessingFeatureSource> source = read.source(kInput);
            const QgsFields fields = source->fields();
            QList<int> keyFields{read.fieldIndex(kRegionField, fields)};
            for (const int field : read.fieldIndices(kParameterQuasiIdentifiers, fields))
            {
                if (keyFields.contains(field))
                    throw parameterError(
                        kParameterQuasiIdentifiers,
                        QObject::tr("'%1' is listed twice or is the REGION_FIELD; list each field once")
                            .arg(fields.at(field).name()));
                keyFields.append(field);
            }
            const int countField = read.fieldIndex(kParameterCountField, fields);
            const int personField = read.fieldIndex(kRecordIdField, fields);
            const int smallAreaField = read.fieldIndex(kSmallAreaField, fields);
            const int k = read.k();
            // l-diversity, t-closeness...: the criteria the registry's options turn on, decided on what is
            // counted here.
            const vbas::Criteria criteria = VbasStrategyParameters::readCriteria(read);
            const QList<int> sensitive =
                criteria.empty() ? QList<int>() : read.fieldIndices(kParameterSensitiveFields, fields);
            if (!criteria.empty() && sensitive.isEmpty())
                throw parameterError(
                    kParameterSensitiveFields,
                    QObject::tr("%1 needs the fields it protects; give them as SENSITIVE_FIELDS")
                        .arg(QString::fromStdString(criteria.describe())));

            const VbasGroupCounts counts =
                VbasGroupCounts::count(*source, keyFields, sensitive, countField, personField, *feedback);
            // Every other column, judged with the region and the quasi-identifiers (keys VBAS or a provider
            // adds, fresh numbers in a random order, aside).
            QList<int> columns;
            const QList<int> allSensitive = read.fieldIndices(kParameterSensitiveFields, fields);
            for (int field = 0; field < fields.size(); ++field)
            {
                const QString name = fields.at(field).name();
                if (keyFields.contains(field) || field == countField || field == personField ||
                    field == smallAreaField || name == QLatin1String("fid") ||
                    name == QLatin1String("row_id"))
                    continue;
                columns << field;
            }
            const std::vector<VbasColumnFigures> columnFigures = VbasColumnFigures::count(
                *source, keyFields, columns, personField, countField, smallAreaField, k, *feedback);
            QStringList failingColumns;
            for (std::size_t c = 0; c < columnFigures.size(); ++c)
            {
                const VbasColumnFigures& column = columnFigures[c];
                const bool isSensitive = allSensitive.contains(columns.at(int(c)));
                const bool placed = column.placement && *column.placement > vbas::kMaxPlacement;
                const bool singles = !isSensitive && column.shareBelowK > vbas::kMaxShareBelowK;
                feedback->pushInfo(
                    QObject::tr("Column %1%2: rows in groups below k %3 %, unique %4 %%5")
                        .arg(column.name, isSensitive ? QObject::tr(" (sensitive)") : QString())
                        .arg(100.0 * column.shareBelowK, 0, 'f', 1)
                        .arg(100.0 * column.shareUnique, 0, 'f', 1)
                        .arg(column.placement ? QObject::tr(", placement in the small area %1 %")
                                                    .arg(100.0 * *column.placement, 0, 'f', 1)
                                              : QString()));
                if (placed || singles)
                    failingColumns << column.name;
            }
            const std::vector<VbasGroupCounts::Group> violating = counts.groupsFailing(k, criteria);
            const QString requirement = criteria.empty()
                                            ? QObject::tr("at least %1 records").arg(k)
                                            : QObject::tr("at least %1 records and %2")
                                                  .arg(k)
                                                  .arg(QString::fromStdString(criteria.describe()));
            qint64 violatingRecords = 0;
            for (const VbasGroupCounts::Group& group : violating)
                violatingRecords += group.records;

            // The sink is created only now, after counting, so that a cancel or a bad count leaves no file.
            QVariantMap outputs;
            QString destination;
            const std::unique_ptr<QgsFeatureSink> sink =
                read.sink(kOutput, destination, counts.fields(), VbasCompat::WkbNoGeometry);
            if (sink) // OUTPUT is optional: no sink when the user skipped it
            {
                for (const VbasGroupCounts::Group& group : violating)
                {
                    QgsFeature row;
                    row.setAttributes(group.row());
                    if (!sink->addFeature(row, QgsFeatureSink::FastInsert))
                        throw read.writeFeatureError(sink.get(), kOutput);
                }
                // The output guard reads the file back and expects as many rows.
                guard.writtenCounts().add(kOutput, qint64(violating.size()));
                outputs.insert(kOutput, destination);
            }

            QgsFields columnFields;
            columnFields.append(QgsField(QStringLiteral("column"), VbasCompat::FieldTypeString));
            columnFields.append(QgsField(QStringLiteral("share_below_k"), VbasCompat::FieldTypeDouble));
            columnFields.append(QgsField(QStringLiteral("share_unique"), VbasCompat::FieldTypeDouble));
            columnFields.append(QgsField(QStringLiteral("placement"), VbasCompat::FieldTypeDouble));
            QString columnsDestination;
            const std::unique_ptr<QgsFeatureSink> columnSink =
                read.sink(kOutputColumns, columnsDestination, columnFields, VbasCompat::WkbNoGeometry);
            if (columnSink) // optional
            {
                for (const VbasColumnFigures& column : columnFigures)
                {
                    QgsFeature row;
                    row.setAttributes(QgsAttributes()
                                      << column.name << column.shareBelowK << column.shareUnique
                                      << (column.placement ? QVariant(*column.placement) : QVariant()));
                    if (!columnSink->addFeature(row, QgsFeatureSink::FastInsert))
                        throw read.writeFeatureError(columnSink.get(), kOutputColumns);
                }
                guard.writtenCounts().add(kOutputColumns, qint64(columnFigures.size()));
                outputs.insert(kOutputColumns, columnsDestination);
            }
            if (!failingColumns.isEmpty())
                feedback->pushWarning(
                    QObject::tr(
                        "VERDICT FAIL: column(s) %1 put more than %2 % of the rows in groups below k or tell "
                        "the small area inside the region (placement above %3): make them quasi-identifiers, "
                        "generalize them or leave them out")
                        .arg(failingColumns.join(QStringLiteral(", ")))
                        .arg(100.0 * vbas::kMaxShareBelowK)
                        .arg(vbas::kMaxPlacement));
            const bool passes = violating.empty() && failingColumns.isEmpty();
            // Without quasi-identifiers only the regions' sizes were counted: a pass says nothing of
            // k-anonymity.
            const bool sizesOnly = keyFields.size() == 1;
            const QString passed = sizesOnly ? QStringLiteral("REGION_SIZES_PASS") : QStringLiteral("PASS");
            if (counts.groupCount() == 0)
                feedback->pushWarning(QObject::tr("INPUT has no records, so no group can be below k"));
            if (passes && sizesOnly)
                feedback->pushWarning(
                    QObject::tr(
                        "VERDICT %1: all %2 regions (%3 records) hold %4, but no quasi-identifier was "
                        "given (%5), so only the size of each region was checked, not the groups of "
                        "look-alike records within them: give the fields someone may know about a "
                        "person (age, sex...) to check k-anonymity")
                        .arg(passed)
                        .arg(counts.groupCount())
                        .arg(counts.records())
                        .arg(requirement, kParameterQuasiIdentifiers));
            else if (passes)
                feedback->pushInfo(QObject::tr("VERDICT %1: all %2 groups (%3 records) hold %4")
                                       .arg(passed)
                                       .arg(counts.groupCount())
                                       .arg(counts.records())
                                       .arg(requirement));
            else if (!violating.empty())
                feedback->pushWarning(
                    QObject::tr("VERDICT FAIL: %1 of %2 groups (%3 of %4 records) do not hold %5; "
                                "the smallest group holds %6 records")
                        .arg(violating.size())
                        .arg(counts.groupCount())
                        .arg(violatingRecords)
                        .arg(counts.records())
                        .arg(requirement)
                        .arg(counts.minGroupSize().toLongLong()));

            outputs.insert(kGroups, static_cast<qlonglong>(counts.groupCount()));
            outputs.insert(kRecords, counts.records());
            outputs.insert(kViolatingGroups, static_cast<qlonglong>(violating.size()));
            outputs.insert(kViolatingRecords, violatingRecords);
            outputs.insert(kMinGroupSize, counts.minGroupSize());
            outputs.insert(kVerdict, passes ? passed : QStringLiteral("FAIL"));
            return outputs;
        });
}

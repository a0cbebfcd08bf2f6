#include "vbaspopulationparameters.h"

#include "vbasalgorithm.h"
#include "vbasjob.h"
#include "vbasparameterreader.h"
#include "vbasqgiscompat.h"
#include "vbasstrategyparameters.h"

#include "base/Error.h"

#include <qgsfeaturerequest.h>
#include <qgsprocessingparameters.h>

#include <QRegularExpression>

#include <algorithm>
#include <map>
#include <unordered_map>

using namespace VbasParameters;

namespace
{
const QString kPopulationTable = QStringLiteral("POPULATION_TABLE");
const QString kTableAreaField = QStringLiteral("POPULATION_TABLE_AREA_FIELD");
const QString kTableBandField = QStringLiteral("POPULATION_TABLE_BAND_FIELD");
const QString kTableSexField = QStringLiteral("POPULATION_TABLE_SEX_FIELD");
const QString kTableCountField = QStringLiteral("POPULATION_TABLE_COUNT_FIELD");
const QString kTableBandFields = QStringLiteral("POPULATION_TABLE_BAND_FIELDS");
const QString kCaseAgeField = QStringLiteral("CASE_AGE_FIELD");
const QString kCaseSexField = QStringLiteral("CASE_SEX_FIELD");

/** The age band `text` names (a value, or a field name such as age_0_4 or a85plus), or an error naming
 * `parameter`. */
vbas::AgeBand band(const QString& text, const QString& parameter)
{
    QString label = text.trimmed();
    static const QRegularExpression prefix(QStringLiteral("^[A-Za-z_ ]+(?=\\d)"));
    label.remove(prefix);
    label.replace(
        QRegularExpression(QStringLiteral("_?(plus|p)$"), QRegularExpression::CaseInsensitiveOption),
        QStringLiteral("+"));
    label.replace(QLatin1Char('_'), QLatin1Char('-'));
    try
    {
        return vbas::parseAgeBand(label.toStdString());
    }
    catch (const vbas::Error&)
    {
        throw parameterError(parameter,
                             QObject::tr("'%1' is not an age band; name the bands as 0-4, 85+ or 85 "
                                         "and over (fields may be named age_0_4, age_85plus)")
                                 .arg(text));
    }
}

double people(const QVariant& value, const QString& parameter, const QString& area)
{
    bool number = false;
    const double count = value.toDouble(&number);
    if (VbasCompat::isNull(value) || !number || count < 0.0)
        throw parameterError(parameter,
                             QObject::tr("small area '%1' has '%2' people; give every small area and "
                                         "band a number of people of 0 or more")
                                 .arg(area, value.toString()));
    return count;
}

/** The strata: (band, sex) in order of age then sex. */
struct Strata
{
    std::map<std::pair<std::pair<int, int>, QString>, std::size_t> index;

    void add(const vbas::AgeBand& band, const QString& sex)
    {
        index.emplace(std::make_pair(std::make_pair(band.from, band.to), sex), 0);
    }
    void number()
    {
        std::size_t next = 0;
        for (auto& [key, value] : index)
            value = next++;
    }
    std::size_t of(const vbas::AgeBand& band, const QString& sex) const
    {
        return index.at(std::make_pair(std::make_pair(band.from, band.to), sex));
    }
};
} // namespace

void VbasPopulationParameters::addTo(VbasAlgorithm& algorithm, bool advanced)
{
    const auto add = [&](QgsProcessingParameterDefinition* parameter)
    {
        algorithm.addParameter(advanced ? VbasCompat::advanced(parameter) : parameter);
    };
    auto* population =
        new QgsProcessingParameterField(kPopulationField, QObject::tr("Population of each small area"),
                                        QVariant(), kRegions, VbasCompat::FieldNumeric, false, true);
    population->setHelp(QObject::tr("The number of people of each small area, the denominator of every rate. "
                                    "Not needed with POPULATION_TABLE."));
    add(population);
    auto* table = new QgsProcessingParameterFeatureSource(
        kPopulationTable, QObject::tr("Population by small area and age band"),
        {static_cast<int>(VbasCompat::SourceTypeVector)}, QVariant(), true);
    table->setHelp(QObject::tr(
        "A census table of people per small area and age band (and sex), for age-standardized rates: long, a "
        "row per small area and band (POPULATION_TABLE_BAND_FIELD, POPULATION_TABLE_COUNT_FIELD, optionally "
        "POPULATION_TABLE_SEX_FIELD), or wide, a row per small area and a field per band "
        "(POPULATION_TABLE_BAND_FIELDS, named like 0-4, age_0_4 or age_85plus). For rates the bands must fit "
        "the standard population's age groups (STANDARD_POPULATION); for k-map (K_COUNTS) they must cover "
        "the "
        "values of CASE_AGE_FIELD, and the sexes those of CASE_SEX_FIELD."));
    add(table);
    const auto field = [&](const QString& name, const QString& label, const QString& parent, bool multiple,
                           const QString& help)
    {
        auto* parameter = new QgsProcessingParameterField(name, label, QVariant(), parent,
                                                          VbasCompat::FieldTypeAny, multiple, true);
        parameter->setHelp(help);
        add(parameter);
    };
    field(
        kTableAreaField, QObject::tr("Small area of each row of the population table"), kPopulationTable,
        false,
        QObject::tr("The field of POPULATION_TABLE holding the small area id (as REGION_ID_FIELD has it)."));
    field(kTableBandField, QObject::tr("Age band of each row (long table)"), kPopulationTable, false,
          QObject::tr("The field holding each row's age band: 0-4, 85+."));
    field(kTableSexField, QObject::tr("Sex of each row (long table)"), kPopulationTable, false,
          QObject::tr("The field holding each row's sex, compared as text with CASE_SEX_FIELD."));
    field(kTableCountField, QObject::tr("People of each row (long table)"), kPopulationTable, false,
          QObject::tr("The field holding the people of each row."));
    field(kTableBandFields, QObject::tr("A field per age band (wide table)"), kPopulationTable, true,
          QObject::tr("The fields holding the people of each band, one per band, named by it."));
    field(kCaseAgeField, QObject::tr("Age of each case"), kRecords, false,
          QObject::tr(
              "The field of RECORDS holding each case's age in whole years (or its band): the cases are "
              "counted per band of the population table, as age standardization needs."));
    field(kCaseSexField, QObject::tr("Sex of each case"), kRecords, false,
          QObject::tr("The field of RECORDS holding each case's sex, with POPULATION_TABLE_SEX_FIELD."));
}

void VbasPopulationParameters::read(const VbasParameterReader& read, const VbasJob& job,
                                    vbas::MapReleaseInputs& inputs)
{
    const vbas::Dataset& dataset = *job.data.dataset;
    const std::size_t areas = dataset.regionCount();
    std::unordered_map<std::string, std::size_t> areaOf;
    for (vbas::RegionIndex r = 0; r < areas; ++r)
    {
        inputs.areaIds.push_back(dataset.regionId(r));
        areaOf.emplace(dataset.regionId(r), r);
    }
    const std::unique_ptr<QgsProcessingFeatureSource> table =
        read.isGiven(kPopulationTable) ? read.source(kPopulationTable) : nullptr;
    if (!table)
    {
        // A total per small area, on the small areas themselves.
        const int population = read.fieldIndex(kPopulationField, job.regions->fields());
        if (population < 0)
            throw parameterError(kPopulationField,
                                 QObject::tr("give the field of the small areas holding their people, or a "
                                             "population table (POPULATION_TABLE)"));
        QHash<QgsFeatureId, std::size_t> index;
        for (std::size_t a = 0; a < areas; ++a)
            index.insert(job.data.regionFeatures[a], a);
        inputs.population.assign(areas, 0.0);
        QgsFeatureRequest request = QgsFeatureRequest().setFlags(VbasCompat::RequestNoGeometry);
        request.setFilterFids(QgsFeatureIds(index.keyBegin(), index.keyEnd()));
        QgsFeatureIterator it = job.regions->getFeatures(request);
        QgsFeature feature;
        while (it.nextFeature(feature))
        {
            const std::size_t a = index.value(feature.id());
            inputs.population[a] = people(feature.attribute(population), kPopulationField,
                                          QString::fromStdString(inputs.areaIds[a]));
        }
        for (std::size_t a = 0; a < areas; ++a)
            inputs.cases.push_back(double(dataset.regionHistograms().total(vbas::RegionIndex(a))));
        return;
    }

    // The table's rows: (small area, band, sex, people).
    const QgsFields fields = table->fields();
    const int areaField = read.fieldIndex(kTableAreaField, fields);
    if (areaField < 0)
        throw parameterError(kTableAreaField,
                             QObject::tr("name the field of the population table holding the small area"));
    const QList<int> bandFields = read.fieldIndices(kTableBandFields, fields);
    const int bandField = read.fieldIndex(kTableBandField, fields),
              countField = read.fieldIndex(kTableCountField, fields);
    const int sexField = read.fieldIndex(kTableSexField, fields);
    if (bandFields.isEmpty() == (bandField < 0 || countField < 0))
        throw parameterError(kTableBandField,
                             QObject::tr("give POPULATION_TABLE_BAND_FIELD and "
                                         "POPULATION_TABLE_COUNT_FIELD (a long table) or "
                                         "POPULATION_TABLE_BAND_FIELDS (a wide one), not both"));
    struct Row
    {
        std::size_t area;
        vbas::AgeBand band;
        QString sex;
        double people;
    };
    std::vector<Row> rows;
    Strata strata;
    QgsFeatureIterator it = table->getFeatures(QgsFeatureRequest().setFlags(VbasCompat::RequestNoGeometry));
    QgsFeature feature;
    while (it.nextFeature(feature))
    {
        const QString id = feature.attribute(areaField).toString();
        const auto area = areaOf.find(id.toStdString());
        if (area == areaOf.end())
            throw parameterError(kTableAreaField,
                                 QObject::tr("the population table names the small area '%1', which "
                                             "REGIONS does not hold; fix the ids or leave the row out")
                                     .arg(id));
        const QString sex = sexField >= 0 ? feature.attribute(sexField).toString() : QString();
        const std::size_t first = rows.size();
        if (bandFields.isEmpty())
            rows.push_back({area->second, band(feature.attribute(bandField).toString(), kTableBandField), sex,
                            people(feature.attribute(countField), kTableCountField, id)});
        else
            for (const int f : bandFields)
                rows.push_back({area->second, band(fields.at(f).name(), kTableBandFields), sex,
                                people(feature.attribute(f), kTableBandFields, id)});
        for (std::size_t row = first; row < rows.size(); ++row)
            strata.add(rows[row].band, sex);
    }
    strata.number();
    inputs.strata = strata.index.size();
    for (const auto& [key, s] : strata.index)
    {
        inputs.strataAges.push_back({key.first.first, key.first.second});
        inputs.strataSexes.push_back(key.second.toStdString());
        inputs.strataLabels.push_back(
            inputs.strataAges.back().label() +
            (key.second.isEmpty() ? std::string() : " " + key.second.toStdString()));
    }
    inputs.population.assign(areas * inputs.strata, 0.0);
    for (const Row& row : rows)
        inputs.population[row.area * inputs.strata + strata.of(row.band, row.sex)] += row.people;

    const int ageField = read.fieldIndex(kCaseAgeField, job.records->fields());
    if (ageField < 0)
    {
        // Cases as totals: the rates have no standardization, and the log says why.
        for (std::size_t a = 0; a < areas; ++a)
            inputs.cases.push_back(double(dataset.regionHistograms().total(vbas::RegionIndex(a))));
        return;
    }
    // The cases again, by stratum: each case's band holds its age (or is its band), its sex as the table's.
    const QgsFields recordFields = job.records->fields();
    const int regionField = read.fieldIndex(kRecordRegionField, recordFields);
    const int caseSexField = read.fieldIndex(kCaseSexField, recordFields);
    const int recordCount = read.fieldIndex(kParameterCountField, recordFields);
    inputs.casesByStratum = true;
    inputs.cases.assign(areas * inputs.strata, 0.0);
    QgsFeatureIterator cases =
        job.records->getFeatures(QgsFeatureRequest().setFlags(VbasCompat::RequestNoGeometry));
    while (cases.nextFeature(feature))
    {
        const double count = recordCount >= 0 ? feature.attribute(recordCount).toDouble() : 1.0;
        if (count == 0.0)
            continue;
        const auto area = areaOf.find(feature.attribute(regionField).toString().toStdString());
        if (area == areaOf.end())
            continue; // the job refused or dropped it already, as UNKNOWN_REGIONS says
        const QVariant ageValue = feature.attribute(ageField);
        bool number = false;
        const double age = ageValue.toDouble(&number);
        std::optional<std::size_t> s;
        for (const auto& [key, index] : strata.index)
        {
            const vbas::AgeBand b{key.first.first, key.first.second};
            const bool inBand =
                number ? age >= b.from && age < double(b.to) + 1.0
                       : !VbasCompat::isNull(ageValue) && band(ageValue.toString(), kCaseAgeField) == b;
            const QString sex = caseSexField >= 0 ? feature.attribute(caseSexField).toString() : QString();
            if (inBand && key.second == sex)
                s = index;
        }
        if (!s)
            throw parameterError(
                kCaseAgeField,
                QObject::tr("a case of small area '%1' has the age '%2'%3, which no "
                            "band of the population table holds; give every case "
                            "its age, or leave CASE_AGE_FIELD empty")
                    .arg(QString::fromStdString(inputs.areaIds[area->second]), ageValue.toString(),
                         caseSexField >= 0
                             ? QObject::tr(" and sex '%1'").arg(feature.attribute(caseSexField).toString())
                             : QString()));
        inputs.cases[area->second * inputs.strata + *s] += count;
    }
}

void VbasPopulationParameters::addKMapTo(VbasAlgorithm& algorithm)
{
    VbasStrategyParameters::addSuppressionTo(algorithm);
    addTo(algorithm, true);
}

vbas::PopulationTable VbasPopulationParameters::readKMapTable(const VbasParameterReader& read,
                                                              const VbasJob& job)
{
    vbas::MapReleaseInputs inputs;
    VbasPopulationParameters::read(read, job, inputs);
    vbas::PopulationTable table;
    table.areaIds = std::move(inputs.areaIds);
    table.strataAges = std::move(inputs.strataAges);
    if (std::any_of(inputs.strataSexes.begin(), inputs.strataSexes.end(),
                    [](const std::string& sex) { return !sex.empty(); }))
        table.strataSexes = std::move(inputs.strataSexes);
    table.people = std::move(inputs.population);
    const QgsFields fields = job.records->fields();
    const int age = read.fieldIndex(kCaseAgeField, fields), sex = read.fieldIndex(kCaseSexField, fields);
    if (age >= 0)
        table.ageField = fields.at(age).name().toStdString();
    if (sex >= 0)
        table.sexField = fields.at(sex).name().toStdString();
    // Every quasi-identifier must be one the table is split by: name the parameter that says which.
    for (const int field : job.recordFields.quasiIdentifiers)
        if (field != age && field != sex)
            throw parameterError(
                kParameterQuasiIdentifiers,
                QObject::tr("k-map (K_COUNTS population) counts the people who share a record's values, but "
                            "the quasi-identifier '%1' is not in the population table: name it as "
                            "CASE_AGE_FIELD (ages or age bands) or CASE_SEX_FIELD, or leave it out of "
                            "QUASI_IDENTIFIERS")
                    .arg(fields.at(field).name()));
    return table;
}

#include "KMap.h"

#include "base/Error.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <unordered_map>

namespace vbas
{
namespace
{
std::string folded(const std::string& text)
{
    const auto first = text.find_first_not_of(" \t");
    const auto last = text.find_last_not_of(" \t");
    std::string out = first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

/** Whether `value` stands for every value of its field: NULL, or a generalization's "*". */
bool anyValue(const CategoryValue& value)
{
    return value.null || value.text == "*";
}

/** The ages a value of the age quasi-identifier stands for; none for any age. */
std::optional<AgeBand> agesOf(const CategoryValue& value, const std::string& field)
{
    if (anyValue(value))
        return std::nullopt;
    if (value.number)
    {
        const int age = int(std::floor(*value.number));
        return AgeBand{age, age};
    }
    try
    {
        return parseAgeBand(value.text);
    }
    catch (const Error&)
    {
        throw Error(
            Subject::Population,
            field + ": '" + value.text +
                "' is neither an age nor an age band; k-map counts the population by age band, so "
                "give ages in whole years or bands such as 0-4, 85+ or [3,19) (or NULL when unknown)");
    }
}

std::string sexList(const std::vector<std::string>& sexes)
{
    std::vector<std::string> distinct = sexes;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    std::string text;
    for (const std::string& sex : distinct)
        text += (text.empty() ? "'" : ", '") + sex + "'";
    return text;
}

/**
 * Keeps in `covered` only the strata that `value`, a class's value of one quasi-identifier, covers (all for
 * NULL and "*"); throws when it covers none, or cuts an age band.
 */
void markStrata(const PopulationTable& table, const std::string& field, bool age, const CategoryValue& value,
                std::vector<bool>& covered)
{
    const std::size_t strata = table.strata();
    if (age)
    {
        const std::optional<AgeBand> ages = agesOf(value, field);
        bool any = false;
        for (std::size_t s = 0; s < strata; ++s)
        {
            const AgeBand& band = table.strataAges[s];
            const bool inside = !ages || (band.from >= ages->from && band.to <= ages->to);
            const bool overlaps = ages && band.from <= ages->to && band.to >= ages->from;
            if (overlaps && !inside)
                throw Error(Subject::Population,
                            field + ": the value '" + value.text + "' cuts the population table's band " +
                                band.label() +
                                ": fewer people share it than the band holds, so k-map cannot count them; "
                                "release " +
                                field +
                                " in the table's bands (GENERALIZATION) or give a table by finer bands");
            covered[s] = covered[s] && inside;
            any = any || inside;
        }
        if (!any)
            throw Error(Subject::Population, field + ": the value '" + value.text +
                                                 "' falls in no age band of the population table; give "
                                                 "bands that cover every age of the records");
        return;
    }
    bool any = false;
    for (std::size_t s = 0; s < strata; ++s)
    {
        const bool same = anyValue(value) || folded(table.strataSexes[s]) == folded(value.text);
        covered[s] = covered[s] && same;
        any = any || same;
    }
    if (!any)
        throw Error(Subject::Population,
                    field + ": the value '" + value.text + "' is none of the population table's sexes (" +
                        sexList(table.strataSexes) + "); recode it, or make it NULL when unknown");
}
} // namespace

ClassPopulation ClassPopulation::build(const PopulationTable& table, const Dataset& dataset)
{
    const std::size_t strata = table.strata();
    if (table.people.size() != table.areaIds.size() * strata ||
        (!table.strataAges.empty() && table.strataAges.size() != strata) ||
        (!table.strataSexes.empty() && table.strataSexes.size() != strata))
        throw Error(Subject::Population,
                    "k-map needs a population table of people per small area and stratum");
    const Schema& schema = dataset.schema();
    const ClassDictionary& classes = dataset.classes();
    const auto& values = dataset.quasiIdentifierValues();
    if (!schema.empty() && values.size() != schema.size())
        throw Error(Subject::Population, "k-map needs the values of the quasi-identifiers");
    // The strata each class covers: those every quasi-identifier's value covers.
    std::vector<std::vector<bool>> covered(classes.size(), std::vector<bool>(strata, true));
    for (std::size_t j = 0; j < schema.size(); ++j)
    {
        const std::string& field = schema.at(j).name;
        const bool age = !table.ageField.empty() && field == table.ageField;
        const bool sex = !table.sexField.empty() && field == table.sexField;
        if ((!age && !sex) || (age && table.strataAges.empty()) || (sex && table.strataSexes.empty()))
            throw Error(
                Subject::Population,
                "k-map counts the people who share a record's region and class, but the population "
                "table is not split by the quasi-identifier '" +
                    field +
                    "'; leave it out of the quasi-identifiers, or give a table by it (age bands for the "
                    "age field, sexes for the sex field)");
        for (ClassId c = 0; c < classes.size(); ++c)
            markStrata(table, field, age, values[j][classes.codes(c)[j]], covered[c]);
    }

    std::unordered_map<std::string, RegionIndex> regionOf;
    for (RegionIndex r = 0; r < dataset.regionCount(); ++r)
        regionOf.emplace(dataset.regionId(r), r);
    std::vector<double> regionStrata(dataset.regionCount() * strata, 0.0);
    for (std::size_t a = 0; a < table.areaIds.size(); ++a)
    {
        const auto region = regionOf.find(table.areaIds[a]);
        if (region == regionOf.end())
            throw Error(Subject::Population, "the population table names the small area '" +
                                                 table.areaIds[a] +
                                                 "', which is not among the regions; fix the ids or leave "
                                                 "it out");
        for (std::size_t s = 0; s < strata; ++s)
        {
            const double people = table.people[a * strata + s];
            if (!(people >= 0.0))
                throw Error(Subject::Population, "small area '" + table.areaIds[a] +
                                                     "' has a negative number of people in the population "
                                                     "table; give 0 or more");
            regionStrata[region->second * strata + s] += people;
        }
    }

    ClassPopulation population;
    population.mClasses = classes.size();
    population.mPeople.assign(dataset.regionCount() * population.mClasses, 0);
    const HistogramTable& records = dataset.regionHistograms();
    for (RegionIndex r = 0; r < dataset.regionCount(); ++r)
    {
        const double* people = regionStrata.data() + std::size_t(r) * strata;
        if (records.total(r) > 0 && std::all_of(people, people + strata, [](double p) { return p == 0.0; }))
            throw Error(Subject::Population,
                        "small area '" + dataset.regionId(r) + "' holds " + std::to_string(records.total(r)) +
                            " records but no people in the population table; give its population");
        for (ClassId c = 0; c < population.mClasses; ++c)
        {
            double sum = 0.0;
            for (std::size_t s = 0; s < strata; ++s)
                if (covered[c][s])
                    sum += people[s];
            // Whole people: a share of a person is no one to hide behind.
            population.mPeople[std::size_t(r) * population.mClasses + c] = Count(std::floor(sum + 1e-9));
        }
    }
    return population;
}

std::vector<Count> ClassPopulation::totals() const
{
    std::vector<Count> total(mClasses, 0);
    for (std::size_t i = 0; i < mPeople.size(); ++i)
        total[i % mClasses] += mPeople[i];
    return total;
}

std::vector<bool> ClassPopulation::fewerThan(const Aggregation& aggregation, Count k) const
{
    const HistogramTable& histograms = aggregation.histograms;
    std::vector<bool> fewer(histograms.allEntries().size(), false);
    for (std::size_t a = 0; a < aggregation.size(); ++a)
        for (std::size_t e = histograms.firstEntry(a); e < histograms.firstEntry(a + 1); ++e)
        {
            const ClassId cls = histograms.allEntries()[e].cls;
            Count sum = 0;
            for (std::size_t m = aggregation.memberOffsets[a]; m < aggregation.memberOffsets[a + 1]; ++m)
                sum += people(aggregation.members[m], cls);
            fewer[e] = sum < k;
        }
    return fewer;
}

const OptionSpec& KMap::option()
{
    static const OptionSpec spec =
        OptionSpec::choice("k_counts", "What k counts", {"records", "population"}, "records",
                           "records: every released class holds at least k records (k-anonymity; k people "
                           "when the records are counted by person); population: at least k people of the "
                           "population share every released class in its region (k-map, the journalist "
                           "model, for a case list that samples the population), counted in a population "
                           "table per small area, age band and sex that covers every quasi-identifier")
            .asAdvanced();
    return spec;
}

bool KMap::on(const StrategyOptions& options)
{
    return options.choiceIndex(option()) == 1;
}

std::string KMap::describe(Count k, bool kMap)
{
    const std::string n = std::to_string(k);
    return kMap ? "k-map: every released class has at least " + n + " people in its region's population"
                : "every released class holds at least " + n + " records";
}

} // namespace vbas

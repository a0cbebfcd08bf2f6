#include "StandardPopulation.h"

#include "base/Error.h"

#include <algorithm>
#include <sstream>

namespace vbas
{
namespace
{
/** The CSV text of each data/standard-populations/<id>.csv, embedded by core/CMakeLists.txt. */
struct EmbeddedTable
{
    const char* id;
    const char* csv;
};
const EmbeddedTable kEmbeddedTables[] = {
#include "StandardPopulationTables.inc"
};

struct Description
{
    const char* id;
    const char* name;
    const char* source;
};
const Description kDescriptions[] = {
    {"us2000", "US 2000 standard population (19 age groups)",
     "The 2000 U.S. standard population of NCHS and NCI (Census P25-1130), in SEER*Stat's 19 age groups "
     "(0, 1-4, 5-9, ..., 85+)."},
    {"who2000_2025", "WHO World Standard 2000-2025",
     "The WHO World Standard Population, the average world age structure of 2000-2025 (Ahmad et al., GPE "
     "Discussion Paper 31, WHO 2001), in percent, 0-4 to 100+."},
    {"esp2013", "European Standard Population 2013",
     "The 2013 European Standard Population of Eurostat (EU-27 and EFTA, 2011-2030 projections), 0, 1-4, "
     "5-9, ..., 95+."},
};

StandardPopulation parseTable(const EmbeddedTable& table)
{
    StandardPopulation standard;
    standard.id = table.id;
    for (const Description& description : kDescriptions)
        if (standard.id == description.id)
        {
            standard.name = description.name;
            standard.source = description.source;
        }
    std::istringstream lines(table.csv);
    std::string line;
    std::getline(lines, line); // header: age_from,age_to,population
    while (std::getline(lines, line))
    {
        if (line.empty())
            continue;
        std::istringstream fields(line);
        std::string from, to, population;
        std::getline(fields, from, ',');
        std::getline(fields, to, ',');
        std::getline(fields, population, ',');
        standard.groups.push_back({std::stoi(from), to.empty() ? AgeBand::kOpenAge : std::stoi(to)});
        standard.populations.push_back(std::stod(population));
    }
    return standard;
}

std::string knownIds()
{
    std::string ids;
    for (const EmbeddedTable& table : kEmbeddedTables)
        ids += (ids.empty() ? "" : ", ") + std::string(table.id);
    return ids;
}
} // namespace

std::vector<double> StandardPopulation::forBands(const std::vector<AgeBand>& bands) const
{
    auto refuse = [&](const AgeBand& band, const std::string& why)
    {
        return optionError("standard_population", "the age band " + band.label() + " " + why + " of " + name +
                                                      "; give the population in bands made of whole groups "
                                                      "of the standard, or choose another standard");
    };
    std::vector<double> result(bands.size(), 0.0);
    for (std::size_t b = 0; b < bands.size(); ++b)
    {
        const AgeBand& band = bands[b];
        bool startsAtGroup = false, endsAtGroup = false;
        for (std::size_t g = 0; g < groups.size(); ++g)
        {
            const AgeBand& group = groups[g];
            startsAtGroup = startsAtGroup || group.from == band.from;
            endsAtGroup = endsAtGroup || group.to == band.to;
            if (group.from >= band.from && group.to <= band.to)
                result[b] += populations[g];
            else if (group.from <= band.to && group.to >= band.from)
                throw refuse(band, "cuts the group " + group.label());
        }
        if (!startsAtGroup || !endsAtGroup || result[b] == 0.0)
            throw refuse(band, "does not begin and end with the groups");
        for (std::size_t other = 0; other < b; ++other)
            if (!(bands[other] == band) && bands[other].from <= band.to && bands[other].to >= band.from)
                throw refuse(band, "overlaps the band " + bands[other].label() + " in the strata");
    }
    // A band listed n times (ages by sex) stands for n strata sharing its standard population.
    for (std::size_t b = 0; b < bands.size(); ++b)
        result[b] /= double(std::count(bands.begin(), bands.end(), bands[b]));
    return result;
}

const std::vector<StandardPopulation>& standardPopulations()
{
    static const std::vector<StandardPopulation> all = []
    {
        std::vector<StandardPopulation> parsed;
        for (const EmbeddedTable& table : kEmbeddedTables)
            parsed.push_back(parseTable(table));
        return parsed;
    }();
    return all;
}

const StandardPopulation& findStandardPopulation(const std::string& id)
{
    for (const StandardPopulation& standard : standardPopulations())
        if (standard.id == id)
            return standard;
    throw optionError("standard_population",
                      "unknown standard population '" + id + "'; use one of: " + knownIds());
}

const OptionSpec& standardPopulationOption()
{
    static const OptionSpec spec = []
    {
        std::vector<std::string> ids;
        std::string help = "The standard population the age-standardized rates are weighted by:";
        for (const StandardPopulation& standard : standardPopulations())
        {
            ids.push_back(standard.id);
            help += " " + standard.id + ", " + standard.source;
        }
        return OptionSpec::choice("standard_population", "Standard population", ids, "us2000", help);
    }();
    return spec;
}

} // namespace vbas

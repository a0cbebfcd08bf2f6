// Every figure of the rate engine against R's reference implementations on the same files (SPEC section 15):
// rates-reference.R computes them with poisson.test, qgamma, epitools::ageadjust.direct, spdep::EBest and
// spdep::EBlocal; this test computes them with computeRegionRates() and compares every value to 1e-9 relative
// (exactly where R gives 0), printing the largest difference of each figure.
#include "RateTestData.h"
#include "rates/GammaDistribution.h"
#include "rates/RegionRates.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace vbas;
using namespace ratetest;

namespace
{
const std::string kData = VBAS_TEST_DATA_DIR;
const std::string kStandards = std::string(VBAS_TEST_DATA_DIR) + "/../standard-populations";

/** R's figures by "data set/figure", each a value per row. */
using Figures = std::map<std::string, std::vector<double>>;

/** |ours - theirs| relative to theirs, or |ours| where theirs is 0. */
double relativeDifference(double ours, double theirs)
{
    return theirs == 0.0 ? std::abs(ours) : std::abs(ours - theirs) / std::abs(theirs);
}

/** Runs rates-reference.R; an empty result means it failed (the failure is recorded). */
Figures referenceFigures()
{
    const std::string output =
        testing::TempDir() + "/vbas-rates-reference-" + std::to_string(getpid()) + ".csv";
    const std::string command = std::string("'") + VBAS_RSCRIPT + "' '" + VBAS_RATES_REFERENCE_SCRIPT +
                                "' '" + kData + "' '" + kStandards + "' '" + output + "' 2>&1";
    std::string messages;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr)
    {
        ADD_FAILURE() << "cannot run " << command;
        return {};
    }
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr)
        messages += buffer;
    if (pclose(pipe) != 0)
    {
        ADD_FAILURE() << "R failed (are r-cran-epitools and r-cran-spdep installed? scripts/install-deps.sh "
                         "installs them):\n"
                      << command << "\n"
                      << messages;
        return {};
    }
    Figures figures;
    for (const auto& [key, values] :
         [&]
         {
             std::map<std::string, std::vector<std::pair<std::size_t, double>>> rows;
             std::ifstream file(output);
             std::string line;
             while (std::getline(file, line))
             {
                 std::istringstream fields(line);
                 std::string set, figure, row, value;
                 std::getline(fields, set, ',');
                 std::getline(fields, figure, ',');
                 std::getline(fields, row, ',');
                 std::getline(fields, value, ',');
                 rows[set + "/" + figure].emplace_back(std::stoul(row) - 1, std::stod(value));
             }
             return rows;
         }())
    {
        std::vector<double>& column = figures[key];
        column.resize(values.size());
        for (const auto& [row, value] : values)
            column.at(row) = value;
    }
    std::remove(output.c_str());
    return figures;
}

/**
 * Compares figures to R's and keeps the largest difference of each. Where R divides 0 by 0 (no case: the
 * lower bound of a Fay-Feuer interval, an empirical Bayes rate whose prior mean is 0), R gives NaN and the
 * engine the limit 0, as its documentation says: those values must be 0 and are counted apart.
 */
class Comparison
{
public:
    explicit Comparison(Figures reference)
        : mReference(std::move(reference))
    {
    }

    void check(const std::string& key, const std::vector<double>& ours, double tolerance = 1e-9)
    {
        auto found = mReference.find(key);
        ASSERT_NE(found, mReference.end()) << "R gave no " << key;
        const std::vector<double>& theirs = found->second;
        ASSERT_EQ(ours.size(), theirs.size()) << key;
        double largest = 0.0;
        std::size_t limits = 0;
        for (std::size_t i = 0; i < ours.size(); ++i)
        {
            if (std::isnan(theirs[i]))
            {
                EXPECT_EQ(ours[i], 0.0) << key << " row " << i + 1 << ": R gives NaN (0 / 0), the engine 0";
                ++limits;
                continue;
            }
            const double difference = relativeDifference(ours[i], theirs[i]);
            largest = std::max(largest, difference);
            EXPECT_LE(difference, tolerance) << key << " row " << i + 1 << ": engine "
                                             << std::setprecision(17) << ours[i] << ", R " << theirs[i];
        }
        mLargest[key] = {largest, ours.size(), limits};
    }

    void print() const
    {
        std::cout << "largest relative difference from R, per figure:\n";
        for (const auto& [key, entry] : mLargest)
            std::cout << "  " << std::left << std::setw(34) << key << std::setw(12) << std::setprecision(3)
                      << entry.largest << entry.values << " values"
                      << (entry.limits
                              ? ", " + std::to_string(entry.limits) + " where R gives NaN and the engine 0"
                              : std::string())
                      << "\n";
    }

    const std::vector<double>& reference(const std::string& key) const { return mReference.at(key); }

private:
    struct Largest
    {
        double largest;
        std::size_t values;
        std::size_t limits;
    };
    Figures mReference;
    std::map<std::string, Largest> mLargest;
};

/** The figures computeRegionRates() gives, by the names rates-reference.R uses. */
Figures engineFigures(const RateReport& report)
{
    Figures figures;
    auto add = [&](const std::string& name, double value)
    {
        figures[name].push_back(value);
    };
    for (const RegionRates& region : report.regions)
    {
        add("crude_rate", region.crudeRate);
        add("crude_lower", region.crudeInterval.lower);
        add("crude_upper", region.crudeInterval.upper);
        if (region.adjusted)
        {
            add("adjusted_rate", region.adjusted->rate);
            add("adjusted_lower", region.adjusted->interval.lower);
            add("adjusted_upper", region.adjusted->interval.upper);
        }
        if (region.ratio)
        {
            add("expected", region.ratio->expected);
            add("sir", region.ratio->ratio);
            add("sir_lower", region.ratio->interval.lower);
            add("sir_upper", region.ratio->interval.upper);
        }
        add("global_eb", region.globalSmoothedRate);
        add("local_eb", region.localSmoothedRate);
    }
    figures["global_prior"] = {report.globalPriorMean, report.globalPriorVariance};
    return figures;
}

RateSettings settingsFor(LocalVariance variance = LocalVariance::Spdep)
{
    RateSettings settings;
    settings.multiplier = 1e5;
    settings.confidence = 0.95;
    settings.preset = "none";
    settings.localVariance = variance;
    return settings;
}

/** Compares the figures every data set has, and the local smoothing of both variances. */
void compareCommon(Comparison& comparison, const std::string& set, const RateInputs& inputs)
{
    const Figures ours = engineFigures(computeRegionRates(inputs, settingsFor()));
    for (const char* figure : {"crude_rate", "crude_lower", "crude_upper", "expected", "sir", "sir_lower",
                               "sir_upper", "global_eb", "global_prior", "local_eb"})
        comparison.check(set + "/" + figure, ours.at(figure));
    const Figures geoda = engineFigures(computeRegionRates(inputs, settingsFor(LocalVariance::GeoDa)));
    comparison.check(set + "/local_eb_geoda", geoda.at("local_eb"));
}

RateInputs identityInputs(std::vector<double> cases, std::vector<double> population,
                          std::vector<std::vector<std::size_t>> neighbours)
{
    RateInputs inputs;
    inputs.regionCount = cases.size();
    inputs.cases = std::move(cases);
    inputs.population = std::move(population);
    for (std::size_t i = 0; i < inputs.regionCount; ++i)
        inputs.regionOfArea.push_back(i);
    inputs.regionNeighbours = std::move(neighbours);
    return inputs;
}
} // namespace

TEST(RatesAgainstR, EveryFigureEqualsR)
{
    if (std::string(VBAS_RSCRIPT).empty())
        GTEST_SKIP() << "Rscript was not found when the build was configured: install r-base-core, "
                        "r-cran-epitools and r-cran-spdep (scripts/install-deps.sh) and configure again";
    Figures reference = referenceFigures();
    ASSERT_FALSE(reference.empty());
    Comparison comparison(std::move(reference));

    // North Carolina SIDS 1974-78, each county its own region, neighbours ncCC89 (two counties without any).
    const auto sids = readColumns(kData + "/nc_sids.csv");
    const std::vector<std::string>& fips = sids.at("FIPSNO");
    RateInputs nc = identityInputs(numbers(sids.at("SID74")), numbers(sids.at("BIR74")),
                                   readGal(kData + "/nc_sids_ncCC89.gal", fips));
    compareCommon(comparison, "nc", nc);
    {
        // One stratum: the Fay-Feuer interval of ageadjust.direct with a standard of one group.
        const Figures ours = engineFigures(computeRegionRates(nc, settingsFor()));
        comparison.check("nc/one_stratum_rate", ours.at("adjusted_rate"));
        comparison.check("nc/one_stratum_lower", ours.at("adjusted_lower"));
        comparison.check("nc/one_stratum_upper", ours.at("adjusted_upper"));
        RateInputs cr85 = nc;
        cr85.regionNeighbours = readGal(kData + "/nc_sids_ncCR85.gal", fips);
        comparison.check("nc_cr85/local_eb",
                         engineFigures(computeRegionRates(cr85, settingsFor())).at("local_eb"));
    }

    // The counties merged into the four regions of M_id: the aggregation and its adjacency from ncCR85.
    {
        RateInputs regions = nc;
        const std::vector<double> regionIds = numbers(sids.at("M_id"));
        std::vector<double> sorted = regionIds;
        std::sort(sorted.begin(), sorted.end());
        sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
        regions.regionCount = sorted.size();
        for (std::size_t a = 0; a < regionIds.size(); ++a)
            regions.regionOfArea[a] =
                std::size_t(std::lower_bound(sorted.begin(), sorted.end(), regionIds[a]) - sorted.begin());
        const auto countyNeighbours = readGal(kData + "/nc_sids_ncCR85.gal", fips);
        std::vector<std::set<std::size_t>> touching(sorted.size());
        for (std::size_t a = 0; a < countyNeighbours.size(); ++a)
            for (std::size_t b : countyNeighbours[a])
                if (regions.regionOfArea[a] != regions.regionOfArea[b])
                    touching[regions.regionOfArea[a]].insert(regions.regionOfArea[b]);
        regions.regionNeighbours.clear();
        for (const auto& neighbours : touching)
            regions.regionNeighbours.emplace_back(neighbours.begin(), neighbours.end());
        compareCommon(comparison, "nc_regions", regions);
    }

    // Danish lung cancer: 11 periods as regions, 10 age bands as strata, each period bordering the next.
    {
        const auto lung = readColumns(kData + "/lung_dk.csv");
        const std::vector<double> ages = numbers(lung.at("age")), periods = numbers(lung.at("period"));
        const std::vector<double> cases = numbers(lung.at("cases")), years = numbers(lung.at("person_years"));
        std::vector<double> distinctAges = ages, distinctPeriods = periods;
        for (auto* distinct : {&distinctAges, &distinctPeriods})
        {
            std::sort(distinct->begin(), distinct->end());
            distinct->erase(std::unique(distinct->begin(), distinct->end()), distinct->end());
        }
        RateInputs inputs;
        inputs.strata = distinctAges.size();
        inputs.casesByStratum = true;
        inputs.cases.assign(distinctPeriods.size() * inputs.strata, -1.0);
        inputs.population.assign(inputs.cases.size(), -1.0);
        for (std::size_t row = 0; row < ages.size(); ++row)
        {
            const auto period =
                std::lower_bound(distinctPeriods.begin(), distinctPeriods.end(), periods[row]) -
                distinctPeriods.begin();
            const auto age =
                std::lower_bound(distinctAges.begin(), distinctAges.end(), ages[row]) - distinctAges.begin();
            inputs.cases[std::size_t(period) * inputs.strata + std::size_t(age)] = cases[row];
            inputs.population[std::size_t(period) * inputs.strata + std::size_t(age)] = years[row];
        }
        for (double age : distinctAges)
            inputs.strataAges.push_back(age < 85 ? AgeBand{int(age), int(age) + 4}
                                                 : AgeBand{int(age), AgeBand::kOpenAge});
        inputs.regionCount = distinctPeriods.size();
        for (std::size_t p = 0; p < distinctPeriods.size(); ++p)
        {
            inputs.regionOfArea.push_back(p);
            std::vector<std::size_t> chain;
            if (p > 0)
                chain.push_back(p - 1);
            if (p + 1 < distinctPeriods.size())
                chain.push_back(p + 1);
            inputs.regionNeighbours.push_back(chain);
        }
        compareCommon(comparison, "lung", inputs);
        for (const char* standard : {"us2000", "who2000_2025", "esp2013"})
        {
            RateSettings settings = settingsFor();
            settings.standardPopulation = standard;
            const Figures ours = engineFigures(computeRegionRates(inputs, settings));
            for (const char* part : {"rate", "lower", "upper"})
                comparison.check(std::string("lung/") + standard + "_" + part,
                                 ours.at(std::string("adjusted_") + part));
        }
    }

    // Olinda: 470 tracts, residents and the demo's patients in poor health, queen neighbours.
    {
        const auto olinda = readColumns(kData + "/olinda_health.csv");
        const std::size_t tracts = olinda.at("tract").size();
        compareCommon(comparison, "olinda",
                      identityInputs(numbers(olinda.at("poor_health")), numbers(olinda.at("residents")),
                                     readGal(kData + "/olinda_tracts.gal", rowNumbers(tracts))));
    }

    // The gamma quantile itself, to 1e-12 relative.
    {
        const std::vector<double>& shapes = comparison.reference("gamma/shape");
        const std::vector<double>& probabilities = comparison.reference("gamma/probability");
        std::vector<double> relative;
        const std::vector<double>& theirs = comparison.reference("gamma/quantile");
        for (std::size_t i = 0; i < shapes.size(); ++i)
        {
            const double ours = gammaQuantile(probabilities[i], shapes[i]);
            relative.push_back(relativeDifference(ours, theirs[i]));
            EXPECT_LE(relative.back(), 1e-12)
                << "shape " << shapes[i] << ", p " << probabilities[i] << ": engine " << std::setprecision(17)
                << ours << ", R " << theirs[i];
        }
        std::cout << "gamma quantile: largest relative difference from R's qgamma "
                  << *std::max_element(relative.begin(), relative.end()) << " over " << relative.size()
                  << " (shape, p) pairs\n";
    }
    comparison.print();
}

#include "RegionRates.h"

#include "StandardPopulation.h"
#include "base/Error.h"
#include "base/NumberText.h"

#include <cmath>
#include <limits>

namespace vbas
{
namespace
{
constexpr double kNotPublished = std::numeric_limits<double>::quiet_NaN();

const OptionSpec& multiplierOption()
{
    static const OptionSpec spec = OptionSpec::number("rate_multiplier", "Rates per", 100000.0, 1.0, 1e12,
                                                      "Rates are given per this many people: 100000 (per "
                                                      "100,000) is usual for deaths and cancers, 1000 for "
                                                      "births.");
    return spec;
}

const OptionSpec& confidenceOption()
{
    static const OptionSpec spec = OptionSpec::number(
        "confidence_level", "Confidence level", 0.95, 0.5, 0.9999,
        "The confidence level of every interval (rates and SIR): 0.95 gives 95 % intervals.");
    return spec;
}

const OptionSpec& localSmoothingOption()
{
    static const OptionSpec spec =
        OptionSpec::choice(
            "local_smoothing", "Local smoothing variance", {"spdep", "geoda"}, "spdep",
            "How the local empirical Bayes rate estimates the spread of rates around a region: "
            "spdep (R's EBlocal, each neighbour against its own neighbourhood's rate) or geoda "
            "(GeoDa, every neighbour against the region's neighbourhood rate).")
            .asAdvanced();
    return spec;
}

/** Names small areas, strata and regions in messages as the inputs do. */
struct Names
{
    const RateInputs& inputs;

    std::string area(std::size_t a) const
    {
        return a < inputs.areaIds.size() ? "small area '" + inputs.areaIds[a] + "'"
                                         : "small area " + std::to_string(a + 1);
    }
    std::string stratum(std::size_t s) const
    {
        if (s < inputs.strataLabels.size())
            return "'" + inputs.strataLabels[s] + "'";
        if (s < inputs.strataAges.size())
            return "'" + inputs.strataAges[s].label() + "'";
        return std::to_string(s + 1);
    }
    std::string region(std::size_t r) const
    {
        return r < inputs.regionIds.size() ? "region '" + inputs.regionIds[r] + "'"
                                           : "region " + std::to_string(r + 1);
    }
};

void checkSettings(const RateSettings& settings)
{
    if (!(settings.multiplier > 0.0) || std::isinf(settings.multiplier))
        throw optionError(multiplierOption().key,
                          "rates must be per a positive number of people, such as 100000");
    if (!(settings.confidence > 0.0 && settings.confidence < 1.0))
        throw optionError(confidenceOption().key,
                          "the confidence level must lie strictly between 0 and 1, such as 0.95");
    findRatePreset(settings.preset);
}

void checkShapes(const RateInputs& inputs, const Names& names)
{
    const std::size_t areas = inputs.regionOfArea.size();
    if (inputs.strata == 0)
        throw Error(Subject::Population, "the population needs at least one stratum per small area");
    if (inputs.population.size() != areas * inputs.strata)
        throw Error(Subject::Population, "the population holds " + std::to_string(inputs.population.size()) +
                                             " values, not one per small area and stratum (" +
                                             std::to_string(areas) + " x " + std::to_string(inputs.strata) +
                                             ")");
    const std::size_t caseStrata = inputs.casesByStratum ? inputs.strata : 1;
    if (inputs.cases.size() != areas * caseStrata)
        throw Error(Subject::Cases,
                    "the cases hold " + std::to_string(inputs.cases.size()) + " values, not " +
                        (inputs.casesByStratum ? "one per small area and stratum" : "one per small area") +
                        " (" + std::to_string(areas * caseStrata) + ")");
    if ((!inputs.strataAges.empty() && inputs.strataAges.size() != inputs.strata) ||
        (!inputs.strataLabels.empty() && inputs.strataLabels.size() != inputs.strata))
        throw Error(Subject::Population, "the strata need one age band and label each, or none");
    if ((!inputs.areaIds.empty() && inputs.areaIds.size() != areas) ||
        (!inputs.regionIds.empty() && inputs.regionIds.size() != inputs.regionCount))
        throw Error(Subject::Regions, "the ids need one entry per small area and per region, or none");
    for (std::size_t a = 0; a < areas; ++a)
        if (inputs.regionOfArea[a] >= inputs.regionCount)
            throw Error(Subject::Regions, names.area(a) + " belongs to region " +
                                              std::to_string(inputs.regionOfArea[a] + 1) + " of " +
                                              std::to_string(inputs.regionCount) +
                                              "; give every small area one of the regions");
    if (inputs.regionNeighbours.size() != inputs.regionCount)
        throw Error(Subject::Regions, "the region adjacency needs one list of neighbours per region (" +
                                          std::to_string(inputs.regionCount) + "), not " +
                                          std::to_string(inputs.regionNeighbours.size()));
    std::vector<char> seen(inputs.regionCount, 0);
    for (std::size_t r = 0; r < inputs.regionCount; ++r)
    {
        for (std::size_t neighbour : inputs.regionNeighbours[r])
        {
            if (neighbour >= inputs.regionCount || neighbour == r || seen[neighbour])
                throw Error(Subject::Regions,
                            "the neighbours of " + names.region(r) +
                                " name a region that does not exist, the region itself or "
                                "a region twice; give each region its bordering regions once");
            seen[neighbour] = 1;
        }
        for (std::size_t neighbour : inputs.regionNeighbours[r])
            seen[neighbour] = 0;
    }
}

void checkValues(const RateInputs& inputs, const Names& names)
{
    for (std::size_t i = 0; i < inputs.population.size(); ++i)
        if (!(inputs.population[i] >= 0.0) || std::isinf(inputs.population[i]))
            throw Error(
                Subject::Population,
                names.area(i / inputs.strata) + " has the population " +
                    numberText(inputs.population[i], 10) + " in stratum " + names.stratum(i % inputs.strata) +
                    "; a population is a number of people of 0 or more: fix it or leave the area out");
    const std::size_t caseStrata = inputs.casesByStratum ? inputs.strata : 1;
    for (std::size_t i = 0; i < inputs.cases.size(); ++i)
    {
        const double cases = inputs.cases[i];
        const std::size_t area = i / caseStrata;
        if (!(cases >= 0.0) || std::isinf(cases) || cases != std::floor(cases))
            throw Error(
                Subject::Cases,
                names.area(area) + " has " + numberText(cases, 10) + " cases" +
                    (inputs.casesByStratum ? " in stratum " + names.stratum(i % caseStrata) : std::string()) +
                    "; cases are counts: give whole numbers of 0 or more");
        double population = 0.0;
        if (inputs.casesByStratum)
            population = inputs.population[i];
        else
            for (std::size_t s = 0; s < inputs.strata; ++s)
                population += inputs.population[area * inputs.strata + s];
        if (cases > 0.0 && population == 0.0)
            throw Error(
                Subject::Cases,
                names.area(area) + " has " + numberText(cases, 10) + " cases but no population" +
                    (inputs.casesByStratum ? " in stratum " + names.stratum(i % caseStrata) : std::string()) +
                    "; every case must count among the people at risk: check the cases and the "
                    "population of that area");
    }
}

/** The standard population of each stratum the settings ask for, or empty with the reason in `note`. */
std::vector<double> standardWeights(const RateInputs& inputs, const RateSettings& settings, std::string& note)
{
    if (!inputs.casesByStratum && inputs.strata > 1)
    {
        note =
            "no age-standardized rate: the cases are totals per small area, and direct standardization needs "
            "them per stratum";
        return {};
    }
    if (!settings.standardWeights.empty())
    {
        double total = 0.0;
        for (double weight : settings.standardWeights)
        {
            if (!(weight >= 0.0) || std::isinf(weight))
                throw optionError(standardPopulationOption().key,
                                  "a standard population must be 0 or more in every stratum");
            total += weight;
        }
        if (settings.standardWeights.size() != inputs.strata || !(total > 0.0))
            throw optionError(standardPopulationOption().key, "give one standard population per stratum (" +
                                                                  std::to_string(inputs.strata) +
                                                                  "), not all 0");
        return settings.standardWeights;
    }
    if (inputs.strata == 1)
        return {1.0}; // one stratum: the standardized rate is the crude rate, with the Fay-Feuer interval
    if (inputs.strataAges.empty())
    {
        note = "no age-standardized rate: the population strata are not age bands, so no standard population "
               "can weigh them";
        return {};
    }
    return findStandardPopulation(settings.standardPopulation).forBands(inputs.strataAges);
}

/** The reference rates per stratum, or empty with the reason in `note`. */
std::vector<double> referenceRates(const RateInputs& inputs, const RateSettings& settings,
                                   const std::vector<double>& regionCases,
                                   const std::vector<double>& regionPopulation, std::string& note)
{
    if (!settings.referenceRates.empty())
    {
        if (settings.referenceRates.size() != inputs.strata)
            throw optionError("reference_rates",
                              "give one reference rate per stratum (" + std::to_string(inputs.strata) + ")");
        for (double rate : settings.referenceRates)
            if (!(rate >= 0.0) || std::isinf(rate))
                throw optionError("reference_rates", "a reference rate is cases per person: 0 or more");
        return settings.referenceRates;
    }
    if (!inputs.casesByStratum && inputs.strata > 1)
    {
        note = "no expected cases or SIR: the cases are totals per small area, so the study's own rates per "
               "stratum are unknown; give reference rates per stratum";
        return {};
    }
    return studyReferenceRates(regionCases, regionPopulation, inputs.strata);
}

void applyPreset(const RatePreset& preset, RegionRates& region)
{
    for (const SmallNumberRule& rule : preset.rules)
    {
        if (!rule.appliesTo(region.cases, region.population))
            continue;
        for (RateFigure figure : rule.figures)
        {
            FigureStatus& status = region.status[std::size_t(figure)];
            (rule.action == SmallNumberRule::Action::Suppress ? status.suppressed : status.flagged) = true;
            status.reasons += (status.reasons.empty() ? "" : "; ") + rule.reason;
        }
    }
}

ConfidenceInterval scaled(const ConfidenceInterval& interval, double factor)
{
    return {interval.lower * factor, interval.upper * factor};
}
} // namespace

std::vector<OptionSpec> RateSettings::options()
{
    return {multiplierOption(), confidenceOption(), standardPopulationOption(), ratePresetOption(),
            localSmoothingOption()};
}

RateSettings RateSettings::fromOptions(const StrategyOptions& values)
{
    values.validate(options(), "rates");
    RateSettings settings;
    settings.multiplier = values.number(multiplierOption());
    settings.confidence = values.number(confidenceOption());
    settings.standardPopulation = values.choice(standardPopulationOption());
    settings.preset = values.choice(ratePresetOption());
    settings.localVariance =
        values.choiceIndex(localSmoothingOption()) == 0 ? LocalVariance::Spdep : LocalVariance::GeoDa;
    return settings;
}

RegionRates RegionRates::published() const
{
    RegionRates region = *this;
    auto suppressed = [&](RateFigure figure)
    {
        return statusOf(figure).suppressed;
    };
    if (suppressed(RateFigure::Cases))
        region.cases = kNotPublished;
    if (suppressed(RateFigure::Population))
    {
        region.population = kNotPublished;
        if (region.ratio)
            region.ratio->expected = kNotPublished;
    }
    if (suppressed(RateFigure::CrudeRate))
    {
        region.crudeRate = kNotPublished;
        region.crudeInterval = {kNotPublished, kNotPublished};
    }
    if (suppressed(RateFigure::AdjustedRate) && region.adjusted)
    {
        region.adjusted.reset();
        region.adjustedNote = "withheld: " + statusOf(RateFigure::AdjustedRate).reasons;
    }
    if (suppressed(RateFigure::Ratio) && region.ratio)
    {
        region.ratio->ratio = kNotPublished;
        region.ratio->interval = {kNotPublished, kNotPublished};
    }
    if (suppressed(RateFigure::SmoothedRates))
        region.globalSmoothedRate = region.localSmoothedRate = kNotPublished;
    return region;
}

RateReport computeRegionRates(const RateInputs& inputs, const RateSettings& settings)
{
    checkSettings(settings);
    const Names names{inputs};
    checkShapes(inputs, names);
    checkValues(inputs, names);
    const RatePreset& preset = findRatePreset(settings.preset);

    // Sum the small areas into their regions, stratum by stratum.
    const std::size_t strata = inputs.strata;
    const std::size_t caseStrata = inputs.casesByStratum ? strata : 1;
    const std::size_t regions = inputs.regionCount;
    std::vector<double> regionPopulation(regions * strata, 0.0), regionCases(regions * caseStrata, 0.0);
    for (std::size_t a = 0; a < inputs.regionOfArea.size(); ++a)
    {
        const std::size_t r = inputs.regionOfArea[a];
        for (std::size_t s = 0; s < strata; ++s)
            regionPopulation[r * strata + s] += inputs.population[a * strata + s];
        for (std::size_t s = 0; s < caseStrata; ++s)
            regionCases[r * caseStrata + s] += inputs.cases[a * caseStrata + s];
    }

    RateReport report;
    report.regions.resize(regions);
    std::vector<double> totalCases(regions), totalPopulation(regions);
    for (std::size_t r = 0; r < regions; ++r)
    {
        for (std::size_t s = 0; s < strata; ++s)
            totalPopulation[r] += regionPopulation[r * strata + s];
        for (std::size_t s = 0; s < caseStrata; ++s)
            totalCases[r] += regionCases[r * caseStrata + s];
        if (!(totalPopulation[r] > 0.0))
            throw Error(Subject::Population,
                        names.region(r) + " has no population (its small areas hold 0 people), so it has "
                                          "no rate; merge it with a neighbour or check the population");
    }

    std::string weightNote, referenceNote;
    report.standardWeights = standardWeights(inputs, settings, weightNote);
    report.referenceRates = referenceRates(inputs, settings, regionCases, regionPopulation, referenceNote);
    for (const std::string& note : {weightNote, referenceNote})
        if (!note.empty())
            report.notes.push_back(note);

    const double m = settings.multiplier;
    for (std::size_t r = 0; r < regions; ++r)
    {
        RegionRates& region = report.regions[r];
        region.cases = totalCases[r];
        region.population = totalPopulation[r];
        region.crudeRate = region.cases / region.population * m;
        region.crudeInterval =
            scaled(exactPoissonInterval(region.cases, region.population, settings.confidence), m);

        if (report.standardWeights.empty())
            region.adjustedNote = weightNote;
        else
        {
            // Strata the standard leaves out (weight 0) take no part, as they add nothing to the rate.
            std::vector<double> cases, population, weights;
            for (std::size_t s = 0; s < strata; ++s)
            {
                if (report.standardWeights[s] == 0.0)
                    continue;
                if (regionPopulation[r * strata + s] == 0.0)
                {
                    region.adjustedNote = "no age-standardized rate: " + names.region(r) +
                                          " has no population in stratum " + names.stratum(s) +
                                          "; merge that band with the next, or the region with a neighbour";
                    break;
                }
                cases.push_back(regionCases[r * strata + s]);
                population.push_back(regionPopulation[r * strata + s]);
                weights.push_back(report.standardWeights[s]);
            }
            if (region.adjustedNote.empty())
            {
                StandardizedRate adjusted =
                    directlyStandardizedRate(cases, population, weights, settings.confidence);
                adjusted.rate *= m;
                adjusted.variance *= m * m;
                adjusted.interval = scaled(adjusted.interval, m);
                region.adjusted = adjusted;
            }
        }

        if (report.referenceRates.empty())
            region.ratioNote = referenceNote;
        else
        {
            const double expected = expectedCases(&regionPopulation[r * strata], report.referenceRates);
            if (expected > 0.0)
                region.ratio = standardizedRatio(region.cases, expected, settings.confidence);
            else
                region.ratioNote = "no SIR: no case is expected in " + names.region(r) +
                                   " (the reference rates of its strata are 0)";
        }
        applyPreset(preset, region);
    }

    const GlobalSmoothing global = globalEmpiricalBayes(totalCases, totalPopulation);
    const LocalSmoothing local =
        localEmpiricalBayes(totalCases, totalPopulation, inputs.regionNeighbours, settings.localVariance);
    report.globalPriorMean = global.priorMean;
    report.globalPriorVariance = global.priorVariance;
    for (std::size_t r = 0; r < regions; ++r)
    {
        report.regions[r].globalSmoothedRate = global.rates[r] * m;
        report.regions[r].localSmoothedRate = local.rates[r] * m;
    }
    return report;
}

} // namespace vbas

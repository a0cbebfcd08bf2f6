// The one call of a rate release: aggregation, availability of each figure, presets, publication, refusals.
#include "rates/RegionRates.h"
#include "base/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace vbas;

namespace
{
/** One small area per region, one stratum, no neighbours. */
RateInputs single(double cases, double population)
{
    RateInputs inputs;
    inputs.cases = {cases};
    inputs.population = {population};
    inputs.regionOfArea = {0};
    inputs.regionCount = 1;
    inputs.regionNeighbours = {{}};
    return inputs;
}

RegionRates ruled(const std::string& preset, double cases, double population)
{
    RateSettings settings;
    settings.preset = preset;
    return computeRegionRates(single(cases, population), settings).regions[0];
}

bool suppressed(const RegionRates& region, RateFigure figure)
{
    return region.statusOf(figure).suppressed;
}
bool flagged(const RegionRates& region, RateFigure figure)
{
    return region.statusOf(figure).flagged;
}

template <typename Check>
void expectError(const RateInputs& inputs, const RateSettings& settings, Check check)
{
    try
    {
        computeRegionRates(inputs, settings);
        ADD_FAILURE() << "accepted";
    }
    catch (const Error& error)
    {
        check(error);
    }
}

bool says(const Error& error, const std::string& text)
{
    return std::string(error.what()).find(text) != std::string::npos;
}
} // namespace

TEST(RegionRates, SmallAreasAreSummedIntoRegions)
{
    RateInputs inputs;
    inputs.cases = {1, 2, 3, 4};
    inputs.population = {100, 200, 300, 400};
    inputs.regionOfArea = {0, 1, 0, 1};
    inputs.regionCount = 2;
    inputs.regionNeighbours = {{1}, {0}};
    RateSettings settings;
    settings.multiplier = 1000;
    const RateReport report = computeRegionRates(inputs, settings);
    ASSERT_EQ(report.regions.size(), 2u);
    EXPECT_EQ(report.regions[0].cases, 4.0);
    EXPECT_EQ(report.regions[0].population, 400.0);
    EXPECT_DOUBLE_EQ(report.regions[1].crudeRate, 10.0); // 6 per 600, per 1000
    // One stratum: the study's rate 10/1000 makes E = n / 100, SIR 1 in both regions.
    EXPECT_DOUBLE_EQ(report.regions[1].ratio->expected, 6.0);
    EXPECT_DOUBLE_EQ(report.regions[0].ratio->ratio, 1.0);
    // Equal rates: nothing to smooth.
    EXPECT_DOUBLE_EQ(report.regions[0].globalSmoothedRate, 10.0);
    EXPECT_DOUBLE_EQ(report.regions[0].localSmoothedRate, 10.0);
}

TEST(RegionRates, StrataGiveAgeStandardizedRatesAndExpectedCases)
{
    // Two regions of one small area each, strata 0-44 and 45+ mapped onto the US 2000 standard.
    RateInputs inputs;
    inputs.strata = 2;
    inputs.casesByStratum = true;
    inputs.cases = {1, 9, 2, 8};
    inputs.population = {1000, 500, 800, 700};
    inputs.strataAges = {{0, 44}, {45, AgeBand::kOpenAge}};
    inputs.regionOfArea = {0, 1};
    inputs.regionCount = 2;
    inputs.regionNeighbours = {{1}, {0}};
    const RateReport report = computeRegionRates(inputs, RateSettings{});
    const double young = 3794901.0 + 15191619 + 19919840 + 20056779 + 19819518 + 18257225 + 17722067 +
                         19511370 + 22179956 + 22479229;
    const double old = 274633642.0 - young;
    ASSERT_EQ(report.standardWeights, (std::vector<double>{young, old}));
    ASSERT_TRUE(report.regions[0].adjusted);
    EXPECT_NEAR(report.regions[0].adjusted->rate, (young / 274633642 * 0.001 + old / 274633642 * 0.018) * 1e5,
                1e-9);
    // Study rates 3/1800 and 17/1200: E of region 1 = 800 * 3/1800 + 700 * 17/1200.
    EXPECT_NEAR(report.regions[1].ratio->expected, 800.0 * 3 / 1800 + 700.0 * 17 / 1200, 1e-12);
}

TEST(RegionRates, WhatCannotBeComputedIsSaidNotGuessed)
{
    RateInputs inputs;
    inputs.strata = 2;
    inputs.cases = {3, 4};
    inputs.population = {100, 50, 200, 0};
    inputs.strataLabels = {"0-44", "45+"};
    inputs.regionOfArea = {0, 1};
    inputs.regionCount = 2;
    inputs.regionNeighbours = {{}, {}};
    // Totals of cases with strata: no standardized rate, no study rates per stratum.
    RateReport report = computeRegionRates(inputs, RateSettings{});
    EXPECT_FALSE(report.regions[0].adjusted);
    EXPECT_NE(report.regions[0].adjustedNote.find("per stratum"), std::string::npos);
    EXPECT_FALSE(report.regions[0].ratio);
    EXPECT_EQ(report.notes.size(), 2u);
    // Given reference rates, the SIR is there: E = 100 * 0.01 + 50 * 0.02 = 2.
    RateSettings settings;
    settings.referenceRates = {0.01, 0.02};
    report = computeRegionRates(inputs, settings);
    EXPECT_DOUBLE_EQ(report.regions[0].ratio->expected, 2.0);
    EXPECT_DOUBLE_EQ(report.regions[0].ratio->ratio, 1.5);
    // Cases by stratum, a region without anyone aged 45+: its standardized rate names the stratum.
    inputs.casesByStratum = true;
    inputs.cases = {1, 2, 3, 0};
    inputs.strataAges = {{0, 44}, {45, AgeBand::kOpenAge}};
    report = computeRegionRates(inputs, RateSettings{});
    EXPECT_TRUE(report.regions[0].adjusted);
    EXPECT_FALSE(report.regions[1].adjusted);
    EXPECT_NE(report.regions[1].adjustedNote.find("'45+'"), std::string::npos)
        << report.regions[1].adjustedNote;
}

TEST(RegionRates, PresetsFlagAndWithholdAtTheirThresholds)
{
    EXPECT_TRUE(flagged(ruled("cdc_unstable", 19, 1e5), RateFigure::CrudeRate));
    EXPECT_FALSE(flagged(ruled("cdc_unstable", 20, 1e5), RateFigure::CrudeRate));
    EXPECT_FALSE(suppressed(ruled("cdc_unstable", 0, 1e5), RateFigure::Cases));

    const RegionRates nine = ruled("cdc_wonder", 9, 1e5);
    EXPECT_TRUE(suppressed(nine, RateFigure::Cases) && suppressed(nine, RateFigure::CrudeRate) &&
                suppressed(nine, RateFigure::Ratio) && suppressed(nine, RateFigure::SmoothedRates));
    EXPECT_FALSE(suppressed(nine, RateFigure::Population));
    const RegionRates ten = ruled("cdc_wonder", 10, 1e5);
    EXPECT_FALSE(suppressed(ten, RateFigure::Cases));
    EXPECT_TRUE(flagged(ten, RateFigure::AdjustedRate));

    EXPECT_TRUE(suppressed(ruled("us_cancer_statistics", 15, 1e5), RateFigure::AdjustedRate));
    EXPECT_FALSE(suppressed(ruled("us_cancer_statistics", 16, 1e5), RateFigure::AdjustedRate));

    EXPECT_FALSE(suppressed(ruled("nhs_digital", 0, 1e5), RateFigure::Cases));
    EXPECT_TRUE(suppressed(ruled("nhs_digital", 1, 1e5), RateFigure::Cases));
    EXPECT_TRUE(suppressed(ruled("nhs_digital", 7, 1e5), RateFigure::CrudeRate));
    EXPECT_FALSE(suppressed(ruled("nhs_digital", 8, 1e5), RateFigure::Cases));

    const RegionRates two = ruled("ons", 2, 1e5), three = ruled("ons", 3, 1e5), ten_ = ruled("ons", 10, 1e5);
    EXPECT_TRUE(suppressed(two, RateFigure::CrudeRate));
    EXPECT_FALSE(suppressed(three, RateFigure::CrudeRate));
    EXPECT_TRUE(suppressed(three, RateFigure::AdjustedRate));
    EXPECT_FALSE(suppressed(ten_, RateFigure::AdjustedRate));
    EXPECT_TRUE(flagged(ten_, RateFigure::AdjustedRate));
    EXPECT_FALSE(suppressed(ten_, RateFigure::Cases));

    const RegionRates small = ruled("statistics_canada", 0, 39.5);
    EXPECT_TRUE(suppressed(small, RateFigure::Cases) && suppressed(small, RateFigure::SmoothedRates));
    EXPECT_FALSE(suppressed(small, RateFigure::Population));
    EXPECT_FALSE(suppressed(ruled("statistics_canada", 0, 40), RateFigure::Cases));

    EXPECT_TRUE(suppressed(ruled("hipaa_safe_harbor", 100, 20000), RateFigure::Population));
    EXPECT_FALSE(suppressed(ruled("hipaa_safe_harbor", 100, 20000.5), RateFigure::Population));

    for (const RatePreset& preset : ratePresets())
        EXPECT_TRUE(preset.id == "none" || (!preset.sentence.empty() && !preset.source.empty())) << preset.id;
}

TEST(RegionRates, PublishedCopyBlanksWhatIsWithheld)
{
    const RegionRates region = ruled("us_cancer_statistics", 5, 1e4);
    const RegionRates published = region.published();
    EXPECT_EQ(region.cases, 5.0);
    EXPECT_TRUE(std::isnan(published.cases));
    EXPECT_TRUE(std::isnan(published.crudeRate) && std::isnan(published.crudeInterval.upper));
    EXPECT_TRUE(std::isnan(published.localSmoothedRate));
    EXPECT_TRUE(std::isnan(published.ratio->ratio));
    EXPECT_FALSE(published.adjusted);
    EXPECT_EQ(published.population, 1e4);
    EXPECT_EQ(published.ratio->expected, region.ratio->expected);
}

TEST(RegionRates, RefusesInputsNamingWhatToFix)
{
    RateInputs inputs = single(2.5, 100);
    inputs.areaIds = {"37001"};
    expectError(inputs, RateSettings{},
                [](const Error& error)
                {
                    EXPECT_EQ(error.subject(), Subject::Cases);
                    EXPECT_TRUE(says(error, "'37001'") && says(error, "whole numbers")) << error.what();
                });
    expectError(single(1, -5), RateSettings{},
                [](const Error& error) { EXPECT_EQ(error.subject(), Subject::Population); });
    expectError(single(3, 0), RateSettings{},
                [](const Error& error)
                {
                    EXPECT_EQ(error.subject(), Subject::Cases);
                    EXPECT_TRUE(says(error, "no population")) << error.what();
                });
    RateInputs empty = single(0, 0);
    empty.regionIds = {"north"};
    expectError(empty, RateSettings{},
                [](const Error& error)
                {
                    EXPECT_EQ(error.subject(), Subject::Population);
                    EXPECT_TRUE(says(error, "region 'north'")) << error.what();
                });
    RateInputs outside = single(1, 10);
    outside.regionOfArea = {1};
    expectError(outside, RateSettings{},
                [](const Error& error) { EXPECT_EQ(error.subject(), Subject::Regions); });
    RateInputs self = single(1, 10);
    self.regionNeighbours = {{0}};
    expectError(self, RateSettings{},
                [](const Error& error) { EXPECT_EQ(error.subject(), Subject::Regions); });

    RateSettings settings;
    settings.multiplier = 0;
    expectError(single(1, 10), settings,
                [](const Error& error) { EXPECT_EQ(error.option(), "rate_multiplier"); });
    settings = RateSettings{};
    settings.confidence = 1.0;
    expectError(single(1, 10), settings,
                [](const Error& error) { EXPECT_EQ(error.option(), "confidence_level"); });
    settings = RateSettings{};
    settings.preset = "who";
    expectError(single(1, 10), settings,
                [](const Error& error) { EXPECT_EQ(error.option(), "rate_preset"); });
    RateInputs bands = single(1, 10);
    bands.strata = 2;
    bands.casesByStratum = true;
    bands.cases = {1, 0};
    bands.population = {10, 10};
    bands.strataAges = {{0, 2}, {3, AgeBand::kOpenAge}};
    expectError(bands, RateSettings{},
                [](const Error& error) { EXPECT_EQ(error.option(), "standard_population"); });
}

TEST(RegionRates, SettingsFromOptions)
{
    StrategyOptions values;
    values.set("rate_preset", "ons").set("rate_multiplier", 1000.0).set("local_smoothing", "geoda");
    const RateSettings settings = RateSettings::fromOptions(values);
    EXPECT_EQ(settings.preset, "ons");
    EXPECT_EQ(settings.multiplier, 1000.0);
    EXPECT_EQ(settings.localVariance, LocalVariance::GeoDa);
    EXPECT_EQ(settings.standardPopulation, "us2000");
    StrategyOptions bad;
    bad.set("rate_preset", "cdc");
    EXPECT_THROW(RateSettings::fromOptions(bad), Error);
}

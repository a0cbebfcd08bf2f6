// The shipped standard populations against their published totals, and their mapping onto population bands.
#include "rates/StandardPopulation.h"
#include "base/Error.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace vbas;

namespace
{
double total(const StandardPopulation& standard)
{
    return std::accumulate(standard.populations.begin(), standard.populations.end(), 0.0);
}

void expectRefused(const StandardPopulation& standard, const std::vector<AgeBand>& bands,
                   const std::string& band)
{
    try
    {
        standard.forBands(bands);
        ADD_FAILURE() << "bands accepted";
    }
    catch (const Error& error)
    {
        EXPECT_EQ(error.option(), "standard_population");
        EXPECT_NE(error.detail().find(band), std::string::npos) << error.what();
    }
}
} // namespace

TEST(StandardPopulation, ShippedTablesHaveTheirPublishedTotals)
{
    // SEER: 274,633,642 people in 19 groups; Eurostat: 100,000 in 21; WHO: percentages that add to 100.035 as
    // printed (SEER rescales them to 1,000,000), 21 groups to 100+.
    const StandardPopulation us = findStandardPopulation("us2000");
    EXPECT_EQ(us.groups.size(), 19u);
    EXPECT_EQ(total(us), 274633642.0);
    EXPECT_EQ(us.groups.front(), (AgeBand{0, 0}));
    EXPECT_EQ(us.groups.back(), (AgeBand{85, AgeBand::kOpenAge}));
    const StandardPopulation esp = findStandardPopulation("esp2013");
    EXPECT_EQ(esp.groups.size(), 21u);
    EXPECT_EQ(total(esp), 100000.0);
    const StandardPopulation who = findStandardPopulation("who2000_2025");
    EXPECT_EQ(who.groups.size(), 21u);
    EXPECT_NEAR(total(who), 100.035, 1e-12);
    EXPECT_EQ(who.groups.back(), (AgeBand{100, AgeBand::kOpenAge}));
    for (const StandardPopulation& standard : standardPopulations())
        EXPECT_FALSE(standard.name.empty() || standard.source.empty()) << standard.id;
    EXPECT_THROW(findStandardPopulation("segi"), Error);
}

TEST(StandardPopulation, GroupsAreSummedIntoBands)
{
    const StandardPopulation us = findStandardPopulation("us2000");
    const std::vector<double> us2000 = us.forBands({{0, 4}, {5, 14}, {85, AgeBand::kOpenAge}});
    EXPECT_EQ(us2000, (std::vector<double>{3794901.0 + 15191619.0, 19919840.0 + 20056779.0, 4259173.0}));
    EXPECT_NEAR(findStandardPopulation("who2000_2025").forBands({{85, AgeBand::kOpenAge}})[0], 0.635, 1e-12);
    EXPECT_EQ(findStandardPopulation("esp2013").forBands({{90, AgeBand::kOpenAge}, {0, 0}}),
              (std::vector<double>{1000.0, 1000.0}));
    // A band given twice (by sex) shares its population.
    EXPECT_EQ(findStandardPopulation("esp2013").forBands({{0, 4}, {0, 4}}),
              (std::vector<double>{2500.0, 2500.0}));
}

TEST(StandardPopulation, BandsThatCutAGroupOrOverlapAreRefused)
{
    const StandardPopulation us = findStandardPopulation("us2000");
    expectRefused(us, {{85, 89}}, "85-89");
    expectRefused(us, {{2, 6}}, "2-6");
    expectRefused(us, {{0, 9}, {5, 14}}, "5-14");
}

TEST(AgeBand, ReadsCensusLabels)
{
    EXPECT_EQ(parseAgeBand("0-4"), (AgeBand{0, 4}));
    EXPECT_EQ(parseAgeBand("05-09"), (AgeBand{5, 9}));
    EXPECT_EQ(parseAgeBand("85+"), (AgeBand{85, AgeBand::kOpenAge}));
    EXPECT_EQ(parseAgeBand("85 and over"), (AgeBand{85, AgeBand::kOpenAge}));
    EXPECT_EQ(parseAgeBand("1 to 4 years"), (AgeBand{1, 4}));
    EXPECT_EQ(parseAgeBand("0"), (AgeBand{0, 0}));
    EXPECT_EQ(parseAgeBand("<1"), (AgeBand{0, 0}));
    EXPECT_EQ(parseAgeBand("under 1"), (AgeBand{0, 0}));
    EXPECT_EQ(parseAgeBand("<18"), (AgeBand{0, 17}));
    EXPECT_EQ(parseAgeBand("[3,19)"), (AgeBand{3, 18}));
    EXPECT_EQ(parseAgeBand("[20, 30)"), (AgeBand{20, 29}));
    EXPECT_EQ(parseAgeBand("[19,Inf)"), (AgeBand{19, AgeBand::kOpenAge}));
    EXPECT_THROW(parseAgeBand("[5,5)"), Error);
    EXPECT_THROW(parseAgeBand("<0"), Error);
    EXPECT_EQ(AgeBand({85, AgeBand::kOpenAge}).label(), "85+");
    EXPECT_THROW(parseAgeBand("10-5"), Error);
    EXPECT_THROW(parseAgeBand("female"), Error);
}

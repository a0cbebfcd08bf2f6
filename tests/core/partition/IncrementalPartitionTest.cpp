#include "Registry.h"
#include "TestSupport.h"
#include "partition/Partitioner.h"
#include "sitelocation/AdcLedger.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::qi;

namespace
{
/** A random scene of regions with records over three quasi-identifiers. */
Dataset randomScene(std::mt19937_64& generator, std::size_t regions, std::size_t records)
{
    DatasetBuilder builder({qi("a"), qi("b"), qi("c")});
    for (std::size_t r = 0; r < regions; ++r)
        builder.region(std::to_string(r), double(generator() % 1000), double(generator() % 1000));
    for (std::size_t i = 0; i < records; ++i)
        builder.records(
            std::to_string(generator() % regions),
            {std::uint32_t(generator() % 4), std::uint32_t(generator() % 2), std::uint32_t(generator() % 3)});
    return builder.build();
}

/** v = alpha |S| - |S_alpha| computed from scratch for an assignment. */
AdcLedger::Objective bruteForceObjective(const RegionSet& regions, const std::vector<SiteIndex>& regionSite,
                                         std::size_t sites,
                                         std::map<SiteIndex, std::map<ClassId, Count>>& perSite)
{
    perSite.clear();
    for (RegionIndex r = 0; r < regions.size(); ++r)
        for (const ClassCount& entry : regions.histograms().entries(r))
            perSite[regionSite[r]][entry.cls] += entry.count;
    Count alpha = 0;
    std::vector<Count> anonymity(sites, 0);
    for (const auto& [site, classes] : perSite)
        for (const auto& [cls, count] : classes)
            if (anonymity[site] == 0 || count < anonymity[site])
                anonymity[site] = count;
    std::size_t withRecords = 0, atAlpha = 0;
    for (Count a : anonymity)
        if (a > 0 && (alpha == 0 || a < alpha))
            alpha = a;
    for (Count a : anonymity)
    {
        withRecords += a > 0;
        atAlpha += a > 0 && a == alpha;
    }
    return AdcLedger::Objective(alpha) * AdcLedger::Objective(withRecords) - AdcLedger::Objective(atAlpha);
}
} // namespace

class IncrementalPartitionContract : public ::testing::TestWithParam<std::string>
{
};

TEST_P(IncrementalPartitionContract, ThousandsOfMovesAndUndosEqualAFullRecompute)
{
    const auto& entry = Registry::find(Registry::builtIn().partitioners, GetParam(), "partitioner");
    const std::unique_ptr<Partitioner> partitioner = entry.create(StrategyOptions{});
    std::mt19937_64 generator(77);
    const Dataset dataset = randomScene(generator, 400, 3000);
    const RegionSet regions(dataset, dataset.regionHistograms());
    std::vector<Point> sites;
    for (int s = 0; s < 40; ++s)
        sites.push_back({double(generator() % 100000) / 100.0, double(generator() % 100000) / 100.0});
    Feedback feedback;
    const std::unique_ptr<IncrementalPartition> partition =
        partitioner->incremental(regions, sites, feedback);
    AdcLedger ledger(regions, *partition);
    std::vector<IncrementalPartition::Change> changes;
    int accepted = 0, rejected = 0;
    for (int step = 0; step < 3000; ++step)
    {
        const SiteIndex s = SiteIndex(generator() % sites.size());
        // Targets: anywhere, near the old place, or exactly on a region point (ties and collisions).
        Point target;
        const int kind = int(generator() % 3);
        if (kind == 0)
            target = {double(generator() % 100000) / 100.0, double(generator() % 100000) / 100.0};
        else if (kind == 1)
            target = {partition->sites()[s].x + double(int(generator() % 2001) - 1000) / 10.0,
                      partition->sites()[s].y + double(int(generator() % 2001) - 1000) / 10.0};
        else
            target = regions.point(RegionIndex(generator() % regions.size()));
        const Point previous = partition->sites()[s];
        changes.clear();
        if (!partition->move(s, target, changes))
            continue;
        ledger.apply(changes);
        if (generator() % 2 == 0)
            ++accepted;
        else
        {
            ledger.revert(changes);
            partition->undo(s, previous, changes);
            ++rejected;
        }
        if (step % 500 == 499 || step == 2999)
        {
            const Partition full = partitioner->partition(regions, partition->sites(), feedback);
            ASSERT_EQ(partition->regionSite(), full.regionSite) << "after step " << step;
            std::map<SiteIndex, std::map<ClassId, Count>> perSite;
            ASSERT_TRUE(ledger.objective() ==
                        bruteForceObjective(regions, full.regionSite, partition->sites().size(), perSite));
            for (SiteIndex site = 0; site < partition->sites().size(); ++site)
            {
                const ClassHistogram& histogram = ledger.histogram(site);
                Count records = 0;
                for (const auto& [cls, count] : perSite[site])
                {
                    ASSERT_EQ(histogram.count(cls), count);
                    records += count;
                }
                ASSERT_EQ(histogram.records(), records);
                ASSERT_EQ(histogram.classes(), perSite[site].size());
                std::vector<RegionIndex> members = partition->members(site);
                std::sort(members.begin(), members.end());
                std::vector<RegionIndex> expected;
                for (RegionIndex r = 0; r < regions.size(); ++r)
                    if (full.regionSite[r] == site)
                        expected.push_back(r);
                ASSERT_EQ(members, expected);
            }
        }
    }
    EXPECT_GT(accepted, 1000);
    EXPECT_GT(rejected, 1000);
}

INSTANTIATE_TEST_SUITE_P(AllRegistered, IncrementalPartitionContract,
                         ::testing::ValuesIn(
                             []
                             {
                                 std::vector<std::string> ids;
                                 for (const auto& entry : Registry::builtIn().partitioners)
                                     ids.push_back(entry.id);
                                 return ids;
                             }()),
                         [](const auto& testInfo)
                         {
                             std::string name = testInfo.param;
                             std::replace(name.begin(), name.end(), '.', '_');
                             return name;
                         });

TEST(IncrementalPartition, MovesOntoAnotherSiteAreRefused)
{
    std::mt19937_64 generator(1);
    const Dataset dataset = randomScene(generator, 50, 200);
    const RegionSet regions(dataset, dataset.regionHistograms());
    const auto partitioner = Registry::builtIn().partitioners.front().create(StrategyOptions{});
    Feedback feedback;
    const auto partition = partitioner->incremental(regions, {{1, 1}, {500, 500}, {900, 100}}, feedback);
    const std::vector<SiteIndex> before = partition->regionSite();
    std::vector<IncrementalPartition::Change> changes;
    EXPECT_FALSE(partition->move(0, {500, 500}, changes));
    EXPECT_TRUE(changes.empty());
    EXPECT_EQ(partition->regionSite(), before);
    EXPECT_THROW(partitioner->incremental(regions, {{1, 1}, {1, 1}}, feedback), Error);
}

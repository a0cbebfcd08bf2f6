#include "Registry.h"
#include "SceneSupport.h"
#include "TestSupport.h"
#include "partition/ParentConstrainedPartitioner.h"
#include "partition/Partitioner.h"
#include "sitelocation/AdcLedger.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::GridScene;
using vbas::test::qi;

namespace
{
/** Crosses a 20 x 20 grid of cells of 50 with a winding river line, a shorter barrier, and a lake. */
void addRivers(GridScene& scene)
{
    scene.setObstacles({"LINESTRING (0 480, 180 500, 300 430, 470 520, 620 470, 1000 530)",
                        "LINESTRING (0 200, 380 230)", // a second barrier, open towards the east
                        "POLYGON ((650 700, 760 690, 780 800, 640 810, 650 700))"});
}

/** Records over three quasi-identifiers in the regions of a scene (region ids "0".."n-1"). */
Dataset recordsFor(const GridScene& scene, std::mt19937_64& generator)
{
    DatasetBuilder builder({qi("a"), qi("b"), qi("c")});
    for (std::size_t r = 0; r < scene.points.size(); ++r)
        builder.region(std::to_string(r), scene.points[r].x, scene.points[r].y);
    for (int i = 0; i < 4000; ++i)
        builder.records(
            std::to_string(generator() % scene.points.size()),
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
    std::vector<Count> anonymity(sites, 0);
    for (const auto& [site, classes] : perSite)
        for (const auto& [cls, count] : classes)
            if (anonymity[site] == 0 || count < anonymity[site])
                anonymity[site] = count;
    Count alpha = 0;
    for (Count a : anonymity)
        if (a > 0 && (alpha == 0 || a < alpha))
            alpha = a;
    std::size_t withRecords = 0, atAlpha = 0;
    for (Count a : anonymity)
    {
        withRecords += a > 0;
        atAlpha += a > 0 && a == alpha;
    }
    return AdcLedger::Objective(alpha) * AdcLedger::Objective(withRecords) - AdcLedger::Objective(atAlpha);
}

struct Variant
{
    std::string partitioner;
    bool parents;
    /** Sites with power weights, whose changes join the moves. */
    bool weighted;
};

void PrintTo(const Variant& v, std::ostream* out)
{
    *out << v.partitioner << (v.parents ? " + parents" : "") << (v.weighted ? " + weights" : "");
}

/** The partitioner of a variant, owning the registered one that a parent constraint wraps. */
struct VariantPartitioner
{
    std::unique_ptr<Partitioner> inner;
    std::unique_ptr<Partitioner> constrained;

    const Partitioner* operator->() const { return constrained ? constrained.get() : inner.get(); }
};

VariantPartitioner makePartitioner(const Variant& variant, const GridScene& scene)
{
    VariantPartitioner made;
    made.inner =
        Registry::find(Registry::builtIn().partitioners, variant.partitioner, "partitioner").create({});
    if (!variant.parents)
        return made;
    // Parents: the four quadrants of the grid.
    std::vector<std::uint32_t> parent;
    for (std::size_t r = 0; r < scene.points.size(); ++r)
        parent.push_back(std::uint32_t((r % scene.columns) * 2 / scene.columns +
                                       2 * ((r / scene.columns) * 2 / scene.rows)));
    made.constrained = std::make_unique<ParentConstrainedPartitioner>(*made.inner, parent);
    return made;
}
} // namespace

class IncrementalPartitionContract : public ::testing::TestWithParam<Variant>
{
};

/** Runs `call`; returns the subject of the vbas::Error it throws, or nothing when it throws none. */
template <typename Call> std::optional<Subject> thrownSubject(Call call)
{
    try
    {
        call();
    }
    catch (const Error& error)
    {
        return error.subject();
    }
    return std::nullopt;
}

TEST_P(IncrementalPartitionContract, RefusesNoSitesAndMovableSitesSharingALocation)
{
    GridScene scene(6, 6, 10.0, 3);
    addRivers(scene);
    const VariantPartitioner partitioner = makePartitioner(GetParam(), scene);
    Feedback feedback;
    const PartitionInput input = scene.input();
    const std::vector<Point> twins{{5, 5}, {40, 40}, {5, 5}};
    EXPECT_EQ(thrownSubject([&] { partitioner->partition(input, {}, feedback); }), Subject::SiteLocation);
    EXPECT_EQ(thrownSubject([&] { partitioner->incremental(input, {}, feedback); }), Subject::SiteLocation);
    EXPECT_EQ(thrownSubject([&] { partitioner->incremental(input, twins, feedback); }),
              Subject::SiteLocation);
    // A full partition takes sites that share a location: the lower index gets the regions.
    Partition partition;
    EXPECT_EQ(thrownSubject([&] { partition = partitioner->partition(input, twins, feedback); }),
              std::nullopt);
    for (SiteIndex s : partition.regionSite)
        EXPECT_NE(s, 2u);
}

TEST_P(IncrementalPartitionContract, ThousandsOfMovesAndUndosEqualAFullRecompute)
{
    GridScene scene(20, 20, 50.0, 77);
    addRivers(scene);
    const VariantPartitioner partitioner = makePartitioner(GetParam(), scene);
    std::mt19937_64 generator(7);
    const Dataset dataset = recordsFor(scene, generator);
    const RegionSet regions(dataset, dataset.regionHistograms());
    std::vector<Point> sites;
    for (int s = 0; s < 30; ++s)
        sites.push_back({double(generator() % 100000) / 100.0, double(generator() % 100000) / 100.0});
    // Weights up to (130 m)², about the spacing of 30 sites over 1 km: some sites are hidden.
    const auto randomWeight = [&]
    {
        return double(int(generator() % 33801) - 16900);
    };
    std::vector<double> weights;
    if (GetParam().weighted)
        for (std::size_t s = 0; s < sites.size(); ++s)
            weights.push_back(randomWeight());
    Feedback feedback;
    const PartitionInput input = scene.input();
    const std::unique_ptr<IncrementalPartition> partition =
        partitioner->incremental(input, Sites(sites, weights), feedback);
    // Sites a partition adds (a bank cut off by obstacles, a parent without a site) weigh 0.
    std::vector<double> expectedWeights = weights;
    if (!weights.empty())
        expectedWeights.resize(partition->sites().size(), 0.0);
    ASSERT_EQ(partition->weights(), expectedWeights);
    AdcLedger ledger(regions, *partition);
    std::vector<IncrementalPartition::Change> changes;
    int accepted = 0, rejected = 0;
    int step = 0;
    for (; accepted + rejected < 1200; ++step)
    {
        const SiteIndex s = SiteIndex(generator() % partition->sites().size());
        // Targets: anywhere, near the old place, or exactly on a region point (ties and collisions).
        Point target;
        const int kind = int(generator() % 3);
        if (kind == 0)
            target = {double(generator() % 100000) / 100.0, double(generator() % 100000) / 100.0};
        else if (kind == 1)
            target = {partition->sites()[s].x + double(int(generator() % 2001) - 1000) / 10.0,
                      partition->sites()[s].y + double(int(generator() % 2001) - 1000) / 10.0};
        else
            target = scene.points[generator() % scene.points.size()];
        const Point previous = partition->sites()[s];
        changes.clear();
        const bool reweigh = GetParam().weighted && generator() % 3 == 0;
        const double previousWeight = reweigh ? partition->weights()[s] : 0.0;
        if (reweigh)
            partition->reweigh(s, randomWeight(), changes);
        else if (!partition->move(s, target, changes))
            continue;
        ledger.apply(changes);
        if (generator() % 2 == 0)
            ++accepted;
        else
        {
            ledger.revert(changes);
            if (reweigh)
                partition->undoReweigh(s, previousWeight, changes);
            else
                partition->undo(s, previous, changes);
            ++rejected;
        }
        if ((accepted + rejected) % 300 == 0)
        {
            const Partition full =
                partitioner->partition(input, Sites(partition->sites(), partition->weights()), feedback);
            ASSERT_EQ(full.sites.size(), partition->sites().size());
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
    EXPECT_GT(accepted, 450);
    EXPECT_GT(rejected, 450);
}

std::vector<Variant> allVariants()
{
    std::vector<Variant> variants;
    for (const auto& entry : Registry::builtIn().partitioners)
        for (bool parents : {false, true})
        {
            variants.push_back({entry.id, parents, false});
            variants.push_back({entry.id, parents, true});
        }
    return variants;
}

INSTANTIATE_TEST_SUITE_P(AllRegistered, IncrementalPartitionContract, ::testing::ValuesIn(allVariants()),
                         [](const auto& testInfo)
                         {
                             return vbas::test::testName(testInfo.param.partitioner +
                                                         (testInfo.param.parents ? "_parents" : "") +
                                                         (testInfo.param.weighted ? "_weighted" : ""));
                         });

TEST(IncrementalPartition, MovesOntoAnotherSiteAreRefused)
{
    const GridScene scene(10, 10, 10.0, 1);
    const auto partitioner = Registry::builtIn().partitioners.front().create(StrategyOptions{});
    Feedback feedback;
    const auto partition =
        partitioner->incremental(scene.input(), std::vector<Point>{{1, 1}, {50, 50}, {90, 10}}, feedback);
    const std::vector<SiteIndex> before = partition->regionSite();
    std::vector<IncrementalPartition::Change> changes;
    EXPECT_FALSE(partition->move(0, {50, 50}, changes));
    EXPECT_TRUE(changes.empty());
    EXPECT_EQ(partition->regionSite(), before);
    EXPECT_THROW(partitioner->incremental(scene.input(), std::vector<Point>{{1, 1}, {1, 1}}, feedback),
                 Error);
}

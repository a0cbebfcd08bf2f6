// k-map against a population table (issue 41 item 4): a class is released when at least k people of its
// region's population share it, whatever the number of cases. Worked by hand on four small areas, recounted
// by brute force from the inputs on random ones, and the refinements' ledger followed move by move.
#include "Pipeline.h"
#include "TestSupport.h"
#include "suppression/SuppressionLedger.h"

#include <gtest/gtest.h>

#include <random>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::qi;

namespace
{
using F = RecordFate;

/** Codes of the two quasi-identifiers: age (0: 0-17, 1: 18+) and sex (0: female, 1: male, 2: NULL). */
std::vector<std::vector<CategoryValue>> ageSexValues()
{
    return {{{false, "[0,18)", {}, {}}, {false, "18+", {}, {}}},
            {{false, "female", {}, {}}, {false, "male", {}, {}}, {true, "", {}, {}}}};
}

/** Strata of the tables here: 0-17 female, 0-17 male, 18+ female, 18+ male (stratum = 2 * age + sex). */
PopulationTable ageSexTable(std::vector<std::string> areas, std::vector<double> people)
{
    PopulationTable table;
    table.areaIds = std::move(areas);
    table.strataAges = {{0, 17}, {0, 17}, {18, AgeBand::kOpenAge}, {18, AgeBand::kOpenAge}};
    table.strataSexes = {"Female", "Male", "Female", "Male"}; // matched to the records' values in any case
    table.people = std::move(people);
    table.ageField = "age";
    table.sexField = "sex";
    return table;
}

PipelineResult rate(const Dataset& dataset, const PopulationTable* table, Count k,
                    const std::vector<std::uint32_t>& regionGroup, std::size_t groups)
{
    PipelineConfig config;
    config.k = k;
    config.globalSuppression = false;
    if (table != nullptr)
        config.options.set("k_counts", "population");
    const Pipeline pipeline(config);
    Job job(dataset);
    job.population = table;
    Feedback feedback;
    return pipeline.rateGroups(pipeline.prepare(job, feedback), regionGroup, groups, feedback);
}

std::string errorOf(const Dataset& dataset, const PopulationTable& table)
{
    try
    {
        rate(dataset, &table, 5, std::vector<std::uint32_t>(dataset.regionCount(), 0), 1);
    }
    catch (const Error& error)
    {
        return error.subject() == Subject::Population ? error.what() : "wrong subject";
    }
    return "no error";
}

/**
 * Small areas A, B, C (records) and D (none). People (0-17 f, 0-17 m, 18+ f, 18+ m):
 *   A 3 2 10 9    B 1 4 2 20    C 6 0 3 1    D 2 2 2 2
 * Records, in row order: A 18+ f x2 (rows 0, 1), A 0-17 m (2), A 18+ sex NULL (3), B 18+ m (4),
 * B 0-17 f (5), C 0-17 f x3 (6-8), C 18+ m (9).
 */
struct Scene
{
    DatasetBuilder builder{{qi("age"), qi("sex")}};
    Dataset dataset;
    PopulationTable table =
        ageSexTable({"A", "B", "C", "D"}, {3, 2, 10, 9, 1, 4, 2, 20, 6, 0, 3, 1, 2, 2, 2, 2});

    Scene()
    {
        builder.region("A", 0, 0).region("B", 1, 0).region("C", 0, 1).region("D", 1, 1);
        builder.records("A", {1, 0}, 2).records("A", {0, 1}).records("A", {1, 2});
        builder.records("B", {1, 1}).records("B", {0, 0});
        builder.records("C", {0, 0}, 3).records("C", {1, 1});
        builder.values(ageSexValues());
        dataset = builder.build();
    }
};
} // namespace

// Each small area its own region, k = 5. Over records every group holds 1 to 3 cases: all 10 withheld. Over
// the population: A 18+ f has 10 people (released), A 0-17 m 2 (withheld), A 18+ of unknown sex 10 + 9 = 19
// (released: anyone of either sex could be it), B 18+ m 20 (released), B 0-17 f 1 (withheld), C 0-17 f 6
// (released), C 18+ m 1 (withheld): 7 released, rows 2, 5 and 9 withheld.
TEST(KMap, EachSmallAreaByHand)
{
    const Scene scene;
    const PipelineResult records = rate(scene.dataset, nullptr, 5, {0, 1, 2, 3}, 4);
    EXPECT_EQ(records.suppression.released, 0u);
    EXPECT_FALSE(records.kMap);

    const PipelineResult kMap = rate(scene.dataset, &scene.table, 5, {0, 1, 2, 3}, 4);
    EXPECT_TRUE(kMap.kMap);
    EXPECT_EQ(kMap.suppression.released, 7u);
    EXPECT_EQ(kMap.suppression.locallySuppressed, 3u);
    EXPECT_EQ(
        recordFates(scene.dataset, kMap),
        (std::vector<F>{F::Released, F::Released, F::SuppressedLocally, F::Released, F::Released,
                        F::SuppressedLocally, F::Released, F::Released, F::Released, F::SuppressedLocally}));
}

// A + B and C + D. Over the population: AB 0-17 m 2 + 4 = 6 (released now), AB 0-17 f 3 + 1 = 4 (still
// withheld), CD 18+ m 1 + 2 = 3 (withheld: D's people count although D has no case), every other group
// released: 8 released, rows 5 and 9 withheld. Over records still nothing (the largest group holds 3).
TEST(KMap, MergedSmallAreasByHand)
{
    const Scene scene;
    EXPECT_EQ(rate(scene.dataset, nullptr, 5, {0, 0, 1, 1}, 2).suppression.released, 0u);
    EXPECT_EQ(rate(scene.dataset, nullptr, 3, {0, 0, 1, 1}, 2).suppression.released, 3u) << "C 0-17 f alone";

    const PipelineResult kMap = rate(scene.dataset, &scene.table, 5, {0, 0, 1, 1}, 2);
    EXPECT_EQ(kMap.suppression.released, 8u);
    EXPECT_EQ(
        recordFates(scene.dataset, kMap),
        (std::vector<F>{F::Released, F::Released, F::Released, F::Released, F::Released, F::SuppressedLocally,
                        F::Released, F::Released, F::Released, F::SuppressedLocally}));
    // CD 18+ m reaches k = 3 with D's two men.
    EXPECT_EQ(rate(scene.dataset, &scene.table, 3, {0, 0, 1, 1}, 2).suppression.released, 10u);
}

// Global suppression under k-map withholds a class only when the whole population holds fewer than k of it:
// 0-17 m has 2 + 4 + 0 + 2 = 8 people, so k = 9 withholds row 2 everywhere; 18+ of unknown sex (49) stays.
TEST(KMap, GlobalSuppressionCountsTheWholePopulation)
{
    const Scene scene;
    PipelineConfig config;
    config.k = 9;
    config.options.set("k_counts", "population");
    const Pipeline pipeline(config);
    Job job(scene.dataset);
    job.population = &scene.table;
    Feedback feedback;
    const PreparedData data = pipeline.prepare(job, feedback);
    EXPECT_EQ(data.globallySuppressed, 1u);
    // 0-17 f: 3 + 1 + 6 + 2 = 12 people, so not withheld globally at 9.
    EXPECT_EQ(data.regions.totalRecords(), 9u);
}

// A generalization writes its bands as "<18" or "18-64" and its top level as "*": "<18" covers the 0-17
// strata, "*" every sex, so in area A "<18" of any sex has 3 + 2 = 5 people (released at k = 5, not at 6).
// "18-64" cuts the table's band 18+ (the people over 64 do not share it), and is refused.
TEST(KMap, ReadsAGeneralizationsLabels)
{
    const Scene scene;
    DatasetBuilder builder({qi("age"), qi("sex")});
    builder.region("A", 0, 0).region("B", 1, 0).region("C", 0, 1).region("D", 1, 1);
    builder.records("A", {0, 0}, 2);
    builder.values({{{false, "<18", {}, {}}}, {{false, "*", {}, {}}}});
    const Dataset generalized = builder.build();
    EXPECT_EQ(rate(generalized, &scene.table, 5, {0, 1, 2, 3}, 4).suppression.released, 2u);
    EXPECT_EQ(rate(generalized, &scene.table, 6, {0, 1, 2, 3}, 4).suppression.released, 0u);

    DatasetBuilder adults({qi("age"), qi("sex")});
    adults.region("A", 0, 0).region("B", 1, 0).region("C", 0, 1).region("D", 1, 1);
    adults.records("A", {0, 0}, 2);
    adults.values({{{false, "18-64", {}, {}}}, {{false, "female", {}, {}}}});
    EXPECT_NE(errorOf(adults.build(), scene.table).find("'18-64' cuts the population table's band 18+"),
              std::string::npos);
}

TEST(KMap, RefusesWhatItCannotCount)
{
    const Scene scene;
    // No table.
    PipelineConfig config;
    config.options.set("k_counts", "population");
    Feedback feedback;
    try
    {
        Pipeline(config).prepare(Job(scene.dataset), feedback);
        ADD_FAILURE() << "k-map without a population table";
    }
    catch (const Error& error)
    {
        EXPECT_NE(std::string(error.what()).find("population table"), std::string::npos) << error.what();
    }

    // A quasi-identifier the table is not split by.
    PopulationTable bySexOnly = scene.table;
    bySexOnly.ageField.clear();
    EXPECT_NE(errorOf(scene.dataset, bySexOnly).find("'age'"), std::string::npos);

    // A small area with records but no people: C left out.
    PopulationTable withoutC = ageSexTable({"A", "B", "D"}, {3, 2, 10, 9, 1, 4, 2, 20, 2, 2, 2, 2});
    EXPECT_NE(errorOf(scene.dataset, withoutC).find("small area 'C' holds 4 records"), std::string::npos);

    // An unknown small area.
    PopulationTable unknown = scene.table;
    unknown.areaIds[3] = "E";
    EXPECT_NE(errorOf(scene.dataset, unknown).find("'E'"), std::string::npos);

    // A value in no band: the table stops at 17.
    PopulationTable children = scene.table;
    children.strataAges = {{0, 17}, {0, 17}, {0, 17}, {0, 17}};
    EXPECT_NE(errorOf(scene.dataset, children).find("'18+' falls in no age band"), std::string::npos);

    // Exact ages against bands: fewer people share age 16 than its band 0-17 holds.
    DatasetBuilder exact({qi("age"), qi("sex")});
    exact.region("A", 0, 0).region("B", 1, 0).region("C", 0, 1).region("D", 1, 1);
    exact.records("A", {0, 0}, 5);
    exact.values({{{false, "16", 16.0, {}}}, {{false, "female", {}, {}}}});
    EXPECT_NE(errorOf(exact.build(), scene.table).find("'16' cuts the population table's band 0-17"),
              std::string::npos);

    // A sex the table does not have.
    DatasetBuilder other({qi("age"), qi("sex")});
    other.region("A", 0, 0).region("B", 1, 0).region("C", 0, 1).region("D", 1, 1);
    other.records("A", {0, 0}, 5);
    other.values({{{false, "0-17", {}, {}}}, {{false, "x", {}, {}}}});
    EXPECT_NE(errorOf(other.build(), scene.table).find("'x' is none of the population table's sexes"),
              std::string::npos);
}

namespace
{
/** Random small areas on a grid, a population per area and stratum, and cases drawn in them. */
struct RandomScene
{
    DatasetBuilder builder{{qi("age"), qi("sex")}};
    Dataset dataset;
    PopulationTable table;
    /** Age and sex code of every row, as the test wrote them. */
    std::vector<std::pair<std::uint32_t, std::uint32_t>> rowCodes;

    explicit RandomScene(std::uint64_t seed, std::size_t side = 8)
    {
        std::mt19937_64 random(seed);
        std::vector<std::string> areas;
        std::vector<double> people;
        for (std::size_t i = 0; i < side * side; ++i)
        {
            areas.push_back("a" + std::to_string(i));
            builder.region(areas.back(), double(i % side), double(i / side));
            for (int s = 0; s < 4; ++s)
                people.push_back(double(std::uniform_int_distribution<int>(0, 4)(random)));
            // One case in about half the areas' strata that have people, sex unknown now and then.
            for (std::uint32_t s = 0; s < 4; ++s)
                if (people[people.size() - 4 + s] > 0 && random() % 2 == 0)
                {
                    const std::uint32_t sex = random() % 10 == 0 ? 2 : s % 2;
                    builder.records(areas.back(), {s / 2, sex});
                    rowCodes.emplace_back(s / 2, sex);
                }
        }
        builder.values(ageSexValues());
        dataset = builder.build();
        table = ageSexTable(areas, people);
    }

    /** The people of `region`'s table rows that a case of (age, sex) codes hides among, counted here. */
    double peopleOf(RegionIndex region, std::pair<std::uint32_t, std::uint32_t> codes) const
    {
        double sum = 0.0;
        for (std::uint32_t sex = 0; sex < 2; ++sex)
            if (codes.second == 2 || codes.second == sex)
                sum += table.people[region * 4 + 2 * codes.first + sex];
        return sum;
    }
};
} // namespace

// The release invariant, recounted from the inputs and the published region of every small area: every
// released case has at least k people of its class in its region (the table summed over the region's small
// areas), and every case withheld locally has fewer (k-map withholds no more than it must).
TEST(KMap, EveryReleasedClassHasKPeopleInItsRegion)
{
    for (const std::uint64_t seed : {1u, 2u, 3u})
        for (const char* refiner : {"", "refinement.suppression"})
        {
            const RandomScene scene(seed);
            PipelineConfig config = recommendedConfig();
            config.k = 5;
            config.siteRefiner = refiner;
            config.boundaryRefiner.clear(); // needs polygons
            config.options.set("k_counts", "population");
            const Pipeline pipeline(config);
            Job job(scene.dataset);
            job.population = &scene.table;
            Feedback feedback;
            const PipelineResult result = pipeline.run(job, feedback);
            const std::vector<RecordFate> fates = recordFates(scene.dataset, result);
            const std::vector<std::uint32_t>& regionOf = result.aggregation.regionAggregate;
            std::size_t released = 0;
            for (std::size_t row = 0; row < fates.size(); ++row)
            {
                const std::uint32_t region = regionOf[scene.dataset.rowRegion(row)];
                double people = 0.0;
                for (RegionIndex r = 0; r < regionOf.size(); ++r)
                    if (regionOf[r] == region)
                        people += scene.peopleOf(r, scene.rowCodes[row]);
                if (fates[row] == F::Released)
                {
                    ++released;
                    EXPECT_GE(people, 5.0) << "seed " << seed << " " << refiner << ": row " << row;
                }
                else
                    EXPECT_TRUE(fates[row] == F::SuppressedLocally && people < 5.0)
                        << "seed " << seed << " " << refiner << ": row " << row << " fate " << int(fates[row])
                        << " with " << people << " people";
            }
            EXPECT_EQ(result.suppression.released, released);
            EXPECT_GT(released, 0u);
            // Over records the same cases (one per stratum and area) need regions of 5 cases of a class.
            PipelineConfig records = config;
            records.options = StrategyOptions();
            const PipelineResult overRecords = Pipeline(records).run(Job(scene.dataset), feedback);
            EXPECT_GE(result.aggregation.size(), overRecords.aggregation.size())
                << "seed " << seed << ": k-map needs no larger regions than k over cases";
        }
}

// The refinements' ledger under k-map: after any moves, what it withholds is the brute-force count of cases
// in (region, class) groups with fewer than k people, small areas without cases carrying their people along.
TEST(KMap, LedgerFollowsThePeopleMoveByMove)
{
    const RandomScene scene(7, 6);
    const ClassPopulation population = ClassPopulation::build(scene.table, scene.dataset);
    const RegionSet regions(scene.dataset, scene.dataset.regionHistograms());
    const std::size_t sites = 5;
    std::mt19937_64 random(11);
    std::vector<SiteIndex> regionSite(regions.size());
    for (SiteIndex& s : regionSite)
        s = SiteIndex(random() % sites);
    SuppressionLedger ledger(regions, regionSite, sites, 5, nullptr, &population);
    const auto bruteForce = [&]
    {
        Count withheld = 0;
        for (std::size_t row = 0; row < scene.rowCodes.size(); ++row)
        {
            const SiteIndex site = regionSite[scene.dataset.rowRegion(row)];
            double people = 0.0;
            for (RegionIndex r = 0; r < regions.size(); ++r)
                if (regionSite[r] == site)
                    people += scene.peopleOf(r, scene.rowCodes[row]);
            withheld += people < 5.0;
        }
        return withheld;
    };
    EXPECT_EQ(ledger.withheld(), bruteForce());
    for (int step = 0; step < 200; ++step)
    {
        const RegionIndex region = RegionIndex(random() % regions.size());
        const SiteIndex to = SiteIndex(random() % sites);
        if (to == regionSite[region])
            continue;
        const std::vector<IncrementalPartition::Change> changes{{region, regionSite[region], to}};
        ledger.apply(changes);
        regionSite[region] = to;
        ASSERT_EQ(ledger.withheld(), bruteForce()) << "after move " << step;
    }
}

#include "GeneralizationSearch.h"
#include "Pipeline.h"
#include "PipelineProbe.h"
#include "Release.h"
#include "ReleaseCheck.h"
#include "Sweep.h"
#include "TestSupport.h"
#include "generalization/GeneralizedData.h"
#include "generalization/HierarchySupport.h"
#include "sitecount/SuppressionBudget.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>

namespace vbas
{
namespace
{
std::vector<CategoryValue> numbers(const std::vector<double>& values)
{
    std::vector<CategoryValue> out;
    for (const double v : values)
    {
        CategoryValue value;
        value.text = std::to_string(int(v));
        value.number = v;
        out.push_back(value);
    }
    return out;
}

// Two regions far apart, each its own aggregate with two sites; ages 21, 23, 27, 34 (codes 0-3) in bands of
// 10 then "*", sex (0 F, 1 M) as it is; k = 2, budget 15 % of 9 records = 1 record.
//   A: 21F, 23F, 27M x2, 34F x2     B: 21F x2, 34M
// as is:  global: 23F and 34M are alone in the table (2); local: A's 21F (1)      -> 3 withheld
// 10:     20-29F 4, 20-29M 2, 30-39F 2, 30-39M 1: global 30-39M (1)             -> 1 withheld
// *:      *F 6, *M 3 globally; A *F 4, *M 2; B *F 2, *M 1: B's *M locally (1)  -> 1 withheld
// The coarsest reaches 2 regions within the budget; bands of 10 do too with less loss; as is misses.
// Loss of bands of 10 (range 34 - 21 = 13): 20-29 covers [21, 30): 9/13; 30-39 covers [30, 34]: 4/13.
// Released: A 20-29 x4, 30-39F x2; B 20-29F x2 -> (6 * 9/13 + 2 * 4/13) / 8 records / 2 QIs = 62/208.
class HandLattice : public ::testing::Test
{
protected:
    /** The regions and records above, by category code. */
    static test::DatasetBuilder handRecords()
    {
        test::DatasetBuilder builder({{"age"}, {"sex"}});
        builder.region("A", 0, 0).region("B", 100, 0);
        builder.records("A", {0, 0}).records("A", {1, 0}).records("A", {2, 1}, 2).records("A", {3, 0}, 2);
        builder.records("B", {0, 0}, 2).records("B", {3, 1});
        return builder;
    }

    HandLattice()
    {
        test::DatasetBuilder builder = handRecords();
        table = builder.table();
        dataset.emplace(builder.build());
        Hierarchy::Level tens;
        tens.name = "10";
        tens.groupOf = {0, 0, 0, 1};
        tens.labels = {"20-29", "30-39"};
        tens.loss = {9.0 / 13.0, 4.0 / 13.0};
        hierarchies.push_back(
            QuasiIdentifierHierarchy{Hierarchy("age", numbers({21, 23, 27, 34}), {tens}), 2, {}, false});
        hierarchies.emplace_back();
        config.k = 2;
        config.siteCounter = "sitecount.fixed";
        config.options.set("site_count", 2.0);
        config.suppressionBudget = 15.0;
    }

    RecordTable table;
    std::optional<Dataset> dataset;
    Hierarchies hierarchies;
    PipelineConfig config;
};

TEST_F(HandLattice, ChoosesTheLeastLossThatReachesTheCoarsestRegions)
{
    Job job(*dataset);
    ReleaseRequest request;
    request.hierarchies = &hierarchies;
    Feedback feedback;
    const Pipeline pipeline(config);
    const ReleaseResult release = vbas::release(pipeline, job, request, feedback);
    ASSERT_TRUE(release.generalization);
    const GeneralizationReport& report = *release.generalization;
    EXPECT_EQ(report.levels, (std::vector<std::size_t>{1, 0}));
    EXPECT_EQ(report.latticeNodes, 3u);
    ASSERT_EQ(report.evaluated.size(), 3u);
    // Evaluated: the coarsest, the step below it, then as is (missing).
    EXPECT_EQ(report.evaluated[0].levels[0], 2u);
    EXPECT_EQ(report.evaluated[0].withheld, 1u);
    EXPECT_EQ(report.evaluated[0].aggregates, 2u);
    EXPECT_DOUBLE_EQ(report.evaluated[0].loss, 0.5); // age all "*" (1), sex as is (0)
    EXPECT_EQ(report.evaluated[1].levels[0], 1u);
    EXPECT_EQ(report.evaluated[1].withheld, 1u);
    EXPECT_NEAR(report.evaluated[1].loss, 62.0 / 208.0, 1e-12);
    EXPECT_EQ(report.evaluated[2].levels[0], 0u);
    EXPECT_EQ(report.evaluated[2].withheld, 3u);
    EXPECT_FALSE(report.evaluated[2].withinBudget);
    EXPECT_DOUBLE_EQ(report.evaluated[2].loss, 0.0);
    EXPECT_EQ(report.chosen, 1u);
    // Bands of 10 dominate "*" (same regions and withheld, less loss); as is loses nothing: both on the
    // frontier.
    EXPECT_FALSE(report.evaluated[0].frontier);
    EXPECT_TRUE(report.evaluated[1].frontier);
    EXPECT_TRUE(report.evaluated[2].frontier);
    EXPECT_NEAR(report.releasedLoss, 62.0 / 208.0, 1e-12);
    EXPECT_EQ(release.result.suppression.suppressed(), 1u);
    EXPECT_EQ(release.result.suppression.released, 8u);

    const RecordTable generalized = test::generalizedTable(table, hierarchies, report.levels);
    EXPECT_EQ(test::checkRelease(generalized, *dataset, release.fates, release.result, config.k), "");
}

TEST_F(HandLattice, WithoutHierarchiesNothingChanges)
{
    Job job(*dataset);
    Feedback feedback;
    const ReleaseResult release = vbas::release(Pipeline(config), job, {}, feedback);
    EXPECT_FALSE(release.generalization);
    EXPECT_EQ(release.result.suppression.suppressed(), 3u);
}

TEST_F(HandLattice, TheReleaseCarriesTheHierarchiesItBuiltAndWhatALaterReleaseBuildsThemFrom)
{
    // The configuration's generalization, parsed once: bands of 10 over 21..34 are the hand lattice's
    // levels, and "*" removes age, so the highest level the search may use is "10".
    config.generalization = Generalization::parse("age: interval 10");
    // The values behind the codes, from which the pipeline builds the hierarchies itself.
    const Dataset valued =
        handRecords()
            .values({numbers({21, 23, 27, 34}),
                     {CategoryValue{false, "F", {}, {}}, CategoryValue{false, "M", {}, {}}}})
            .build();
    Job job(valued);
    Feedback feedback;
    const Pipeline pipeline(config);
    const ReleaseResult release = vbas::release(pipeline, job, {}, feedback);
    ASSERT_TRUE(release.generalization);
    const GeneralizationReport& report = *release.generalization;
    EXPECT_EQ(report.levels, (std::vector<std::size_t>{1, 0}));
    EXPECT_EQ(report.levelNames(), (std::vector<std::string>{"10", "0"}));
    ASSERT_NE(release.hierarchies(), nullptr);
    ASSERT_TRUE((*release.hierarchies())[0]);
    EXPECT_FALSE((*release.hierarchies())[1]);
    const Hierarchy& age = (*release.hierarchies())[0]->hierarchy;
    EXPECT_EQ(age.label(1, age.group(1, 0)), "20-29");
    EXPECT_EQ(age.label(1, age.group(1, 3)), "30-39");
    EXPECT_EQ(report.builtAs.text(), "age: interval 10 max 10");
    EXPECT_FALSE(report.builtAs.bandNumbers);

    // A later release on the same aggregation at the level names an earlier release's ledger entry keeps,
    // configured with what the hierarchies were built as, withholds the same records.
    PipelineConfig later = config;
    later.generalization = report.builtAs;
    ReleaseRequest atLevels;
    atLevels.levels = report.levelNames();
    const ReleaseResult again =
        Pipeline(later).releaseGroups(job, release.result.aggregation.regionAggregate,
                                      release.result.aggregation.size(), atLevels, feedback);
    ASSERT_TRUE(again.generalization);
    EXPECT_EQ(again.generalization->levels, report.levels);
    EXPECT_EQ(again.fates, release.fates);
    atLevels.levels = {"5", "0"};
    EXPECT_THROW(Pipeline(later).releaseGroups(job, release.result.aggregation.regionAggregate,
                                               release.result.aggregation.size(), atLevels, feedback),
                 Error);
}

TEST_F(HandLattice, AHighestLevelLimitsTheLattice)
{
    hierarchies[0]->maxLevel = 0;
    Job job(*dataset);
    ReleaseRequest request;
    request.hierarchies = &hierarchies;
    Feedback feedback;
    const ReleaseResult release = vbas::release(Pipeline(config), job, request, feedback);
    ASSERT_TRUE(release.generalization);
    EXPECT_EQ(release.generalization->latticeNodes, 1u);
    EXPECT_EQ(release.generalization->levels[0], 0u);
    // Over the budget with the only node allowed: released anyway, as the one that withholds fewest.
    EXPECT_FALSE(release.generalization->evaluated[0].withinBudget);
    EXPECT_EQ(release.result.suppression.suppressed(), 3u);
}

TEST_F(HandLattice, WhenOnlyARemovalMeetsTheBudgetTheReportSaysWhichAndRemovesNothing)
{
    // Exact ages only (age's highest level 0): 3 withheld, over the budget of 1. Removing age (its "*", sex
    // as is) withholds 1 in 2 regions (the table above); removing sex (ages exact) withholds 3: 23 is alone
    // in the table, A's 21 and B's 34 alone in their regions. So only age's removal would meet the budget.
    hierarchies[0]->maxLevel = 0;
    hierarchies[0]->spec = {"age", "interval", {"10"}, "0"};
    Job job(*dataset);
    ReleaseRequest request;
    request.hierarchies = &hierarchies;
    test::RecordingFeedback feedback;
    const ReleaseResult release = vbas::release(Pipeline(config), job, request, feedback);
    ASSERT_TRUE(release.generalization);
    const GeneralizationReport& report = *release.generalization;
    EXPECT_EQ(report.levels[0], 0u) << "never removed unless allowed";
    EXPECT_TRUE(report.removed.empty());
    ASSERT_EQ(report.removalOptions.size(), 1u);
    EXPECT_EQ(report.removalOptions[0].name, "age");
    EXPECT_EQ(report.removalOptions[0].quasiIdentifier, 0u);
    EXPECT_EQ(report.removalOptions[0].node.levels, (std::vector<std::size_t>{2, 0}));
    EXPECT_EQ(report.removalOptions[0].node.withheld, 1u);
    EXPECT_EQ(report.removalOptions[0].node.aggregates, 2u);
    // The warning: the budget, what the release withholds (3 of 9: 33.3 %), which removal meets it and how to
    // allow it, the other ways.
    for (const char* part : {"15 %", "3 records (33.3 %)", "Without age", "1 records (11.1 %) withheld",
                             "'age: interval 10 max *'", "33.3 %", "fewer quasi-identifiers"})
        EXPECT_NE(report.budgetWarning.find(part), std::string::npos) << part << ": " << report.budgetWarning;
    EXPECT_EQ(report.budgetWarning.find("Without sex"), std::string::npos) << report.budgetWarning;
    EXPECT_NE(std::find(feedback.warnings.begin(), feedback.warnings.end(), report.budgetWarning),
              feedback.warnings.end());
    EXPECT_EQ(release.result.suppression.suppressed(), 3u);
}

TEST_F(HandLattice, AnAllowedRemovalIsSaid)
{
    // Age's only level is "*", allowed: as is misses the budget (3 withheld), "*" meets it (1).
    hierarchies[0] = QuasiIdentifierHierarchy{Hierarchy("age", numbers({21, 23, 27, 34}), {}), 1, {}, false};
    Job job(*dataset);
    ReleaseRequest request;
    request.hierarchies = &hierarchies;
    test::RecordingFeedback feedback;
    const ReleaseResult release = vbas::release(Pipeline(config), job, request, feedback);
    ASSERT_TRUE(release.generalization);
    EXPECT_EQ(release.generalization->levels[0], 1u);
    EXPECT_EQ(release.generalization->removed, (std::vector<std::string>{"age"}));
    EXPECT_TRUE(release.generalization->budgetWarning.empty());
    EXPECT_TRUE(std::any_of(feedback.warnings.begin(), feedback.warnings.end(),
                            [](const std::string& w) { return w.rfind("age is removed", 0) == 0; }));
}

TEST_F(HandLattice, TheComparisonSweepsTheLevelsTheReleaseChooses)
{
    Job job(*dataset);
    // Site counts 1 and 2 (2 +- ceil(0.5 * 2), within the 2 regions). At bands of 10 both release the same 8
    // records (one aggregate: 30-39M is alone in the table; two: as in the release above), so both lose
    // 62/208.
    const Comparison comparison(config, {{"sitecount.fixed"}, {"sitelocation.balanced_density"}, {}},
                                SweepOptions{1, 0.5});
    Feedback feedback;
    ComparisonResult result = comparison.run(job, feedback, &hierarchies);
    ASSERT_EQ(result.rows.size(), 2u);
    for (const SweepRow& row : result.rows)
    {
        EXPECT_EQ(row.levels, (std::vector<std::size_t>{1, 0}));
        EXPECT_NEAR(row.attributeLoss, 62.0 / 208.0, 1e-12);
        EXPECT_EQ(row.result.suppression.released, 8u);
    }
    EXPECT_EQ(result.rows[0].siteCount, 1u);
    EXPECT_EQ(result.rows[1].siteCount, 2u);

    // Attribute loss is an objective: the same row losing more is dominated, and dominates nothing.
    std::vector<SweepRow> rows = result.rows;
    rows.push_back(rows.back());
    rows.back().attributeLoss = 0.5;
    markParetoOptimal(rows, Registry::builtIn());
    EXPECT_EQ(rows[1].paretoOptimal, result.rows[1].paretoOptimal);
    EXPECT_FALSE(rows[2].paretoOptimal);
}

TEST(GeneralizedDataset, ReKeyedHistogramsEqualThoseBuiltFromGeneralizedCodes)
{
    std::mt19937 random(7);
    test::DatasetBuilder builder({{"a"}, {"b"}, {"c"}});
    for (int r = 0; r < 12; ++r)
        builder.region("r" + std::to_string(r), r, r % 3);
    for (int i = 0; i < 600; ++i)
        builder.records(
            "r" + std::to_string(random() % 12),
            {std::uint32_t(random() % 6), std::uint32_t(random() % 3), std::uint32_t(random() % 4)});
    const Dataset dataset = builder.build();
    const std::vector<std::vector<std::uint32_t>> codeMap{{0, 0, 1, 1, 2, 2}, {}, {0, 1, 0, 1}};
    const Dataset generalized =
        dataset.generalized(codeMap, {std::vector<CategoryValue>(3), {}, std::vector<CategoryValue>(2)});

    RecordTable table = builder.table();
    for (std::size_t i = 0; i < table.codes.size(); ++i)
        if (!codeMap[i % 3].empty())
            table.codes[i] = codeMap[i % 3][table.codes[i]];
    Feedback feedback;
    std::vector<RegionInput> regions;
    for (RegionIndex r = 0; r < dataset.regionCount(); ++r)
        regions.push_back({dataset.regionId(r), dataset.points()[r]});
    const Dataset expected = Dataset::build(regions, Schema({{"a"}, {"b"}, {"c"}}), table, {}, feedback);

    ASSERT_EQ(generalized.classes().size(), expected.classes().size());
    for (ClassId c = 0; c < expected.classes().size(); ++c)
        for (std::size_t j = 0; j < 3; ++j)
            EXPECT_EQ(generalized.classes().codes(c)[j], expected.classes().codes(c)[j]);
    for (std::size_t row = 0; row < dataset.rows(); ++row)
        EXPECT_EQ(generalized.rowClass(row), expected.rowClass(row));
    ASSERT_EQ(generalized.regionHistograms().allEntries().size(),
              expected.regionHistograms().allEntries().size());
    for (RegionIndex r = 0; r < dataset.regionCount(); ++r)
    {
        const auto got = generalized.regionHistograms().entries(r);
        const auto want = expected.regionHistograms().entries(r);
        ASSERT_EQ(got.size(), want.size());
        for (std::size_t e = 0; e < got.size(); ++e)
        {
            EXPECT_EQ(got.begin()[e].cls, want.begin()[e].cls);
            EXPECT_EQ(got.begin()[e].count, want.begin()[e].count);
        }
        EXPECT_EQ(generalized.regionHistograms().anonymity(r), expected.regionHistograms().anonymity(r));
    }
    EXPECT_EQ(generalized.schema().categories(0), 3u);
    EXPECT_EQ(generalized.schema().categories(1), 3u);
    EXPECT_EQ(generalized.schema().categories(2), 2u);
}

/** Random data on a grid of regions, with three quasi-identifiers and random nested hierarchies. */
struct RandomLattice
{
    static constexpr int side = 6;
    RecordTable table;
    std::optional<Dataset> dataset;
    Hierarchies hierarchies;

    /** The regions' squares share borders with the squares left, right, above and below. */
    static std::shared_ptr<const RegionAdjacency> adjacency()
    {
        std::vector<AdjacentPair> pairs;
        for (RegionIndex r = 0; r < RegionIndex(side * side); ++r)
        {
            const double x = double(r % side), y = double(r / side);
            if (r % side + 1 < side)
                pairs.push_back({r, r + 1, 1.0, {x + 0.5, y}});
            if (r / side + 1 < side)
                pairs.push_back({r, r + side, 1.0, {x, y + 0.5}});
        }
        return std::make_shared<const RegionAdjacency>(
            RegionAdjacency::fromPairs(side * side, std::move(pairs)));
    }

    explicit RandomLattice(unsigned seed, std::size_t sensitive = 0)
    {
        std::mt19937 random(seed);
        const std::vector<std::uint32_t> categories{8, 6, 4};
        test::DatasetBuilder builder({{"q0"}, {"q1"}, {"q2"}});
        builder.sensitiveFields(sensitive);
        for (int r = 0; r < side * side; ++r)
            builder.region("r" + std::to_string(r), r % side + 0.01 * double(random() % 10), r / side);
        // Skewed values (as real ones are): code c drawn with weight 1 / (c + 1).
        std::vector<std::discrete_distribution<std::uint32_t>> draw;
        for (const std::uint32_t count : categories)
        {
            std::vector<double> weights;
            for (std::uint32_t c = 0; c < count; ++c)
                weights.push_back(1.0 / double(c + 1));
            draw.emplace_back(weights.begin(), weights.end());
        }
        for (int i = 0; i < 2500; ++i)
        {
            std::vector<std::uint32_t> codes;
            for (auto& d : draw)
                codes.push_back(d(random));
            std::vector<std::uint32_t> sensitiveCodes;
            for (std::size_t f = 0; f < sensitive; ++f)
                sensitiveCodes.push_back(std::uint32_t(random() % 3));
            builder.records("r" + std::to_string(random() % (side * side)), codes, 1, sensitiveCodes);
        }
        table = builder.table();
        dataset.emplace(builder.build());
        for (std::size_t j = 0; j < categories.size(); ++j)
        {
            const std::vector<std::vector<std::uint32_t>> levels =
                test::randomNestedLevels(random, dataset->schema().categories(j), 2);
            hierarchies.push_back(QuasiIdentifierHierarchy{
                test::tableHierarchy("q" + std::to_string(j), levels, dataset->schema().categories(j)),
                0,
                {},
                false});
            hierarchies.back()->maxLevel = hierarchies.back()->hierarchy.levels() - 1;
        }
    }

    /** Loss of a node over all records, from the hierarchies and the raw codes. */
    double priorLoss(const std::vector<std::size_t>& levels) const
    {
        double sum = 0.0;
        const std::size_t q = table.quasiIdentifierCount;
        for (std::size_t row = 0; row < table.rows(); ++row)
            for (std::size_t j = 0; j < q; ++j)
            {
                const Hierarchy& h = hierarchies[j]->hierarchy;
                sum += h.loss(levels[j], h.group(levels[j], table.codes[row * q + j]));
            }
        return sum / double(table.rows() * q);
    }
};

// At a fixed partition (fixed site count, no global suppression, k only) withholding never rises when
// values are generalized, so the search's pruning loses nothing: it must pick exactly what evaluating
// every node picks.
// With a fixed site count, and with the budget search, where the search releases a finer node only at the
// coarsest's count while every node here gets its own search of site counts.
TEST(GeneralizationSearch, PruningMatchesEvaluatingEveryNode)
{
    std::size_t pruned = 0;
    for (unsigned scenario = 1; scenario <= 12; ++scenario)
    {
        const unsigned seed = (scenario - 1) % 6 + 1;
        const bool searched = scenario > 6;
        SCOPED_TRACE("seed " + std::to_string(seed) + (searched ? ", budget search" : ", 12 sites"));
        RandomLattice lattice(seed);
        PipelineConfig config;
        config.k = 4;
        if (searched)
        {
            // No removal, and a k that leaves fewer aggregates than regions: the counts the search finds lie
            // below every region.
            for (auto& qi : lattice.hierarchies)
                qi->maxLevel = qi->hierarchy.levels() - 2;
            config.k = 4 + seed;
        }
        config.globalSuppression = false;
        config.siteCounter = searched ? "sitecount.suppression_budget" : "sitecount.fixed";
        if (!searched)
            config.options.set("site_count", 12.0);
        // Budgets from loose to tight, so that some nodes near the top miss and rule out finer ones.
        const double percent = std::vector<double>{4.0, 1.0, 0.5, 2.0, 0.3, 1.5}[seed - 1];
        config.suppressionBudget = percent;
        const Pipeline pipeline(config);
        Job job(*lattice.dataset);
        Feedback feedback;
        const GeneralizationChoice choice =
            searchGeneralization(pipeline, job, lattice.hierarchies, feedback);

        // Brute force: every node, ordered by loss (ties in mixed-radix order, first QI fastest).
        std::vector<std::vector<std::size_t>> nodes;
        const std::size_t l0 = lattice.hierarchies[0]->maxLevel + 1;
        const std::size_t l1 = lattice.hierarchies[1]->maxLevel + 1;
        const std::size_t l2 = lattice.hierarchies[2]->maxLevel + 1;
        for (std::size_t c = 0; c < l2; ++c)
            for (std::size_t b = 0; b < l1; ++b)
                for (std::size_t a = 0; a < l0; ++a)
                    nodes.push_back({a, b, c});
        std::vector<double> loss;
        for (const auto& node : nodes)
            loss.push_back(lattice.priorLoss(node));
        std::vector<std::size_t> order(nodes.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return loss[a] < loss[b]; });
        const Count budget = Count(percent / 100.0 * double(lattice.dataset->totalRecords()) + 1e-9);
        std::size_t topAggregates = 0;
        {
            Job top(job);
            const Dataset data =
                generalizedDataset(*lattice.dataset, lattice.hierarchies, nodes[order.back()]);
            top.dataset = &data;
            topAggregates = pipeline.run(top, feedback).aggregation.size();
        }
        // The least loss of the nodes that reach the coarsest node's regions within the budget; nodes of
        // equal loss (up to rounding) may be picked alike.
        std::vector<std::size_t> reaching;
        for (const std::size_t n : order)
        {
            const Dataset data = generalizedDataset(*lattice.dataset, lattice.hierarchies, nodes[n]);
            Job at(job);
            at.dataset = &data;
            const PipelineResult result = pipeline.run(at, feedback);
            if (result.suppression.suppressed() <= budget && result.aggregation.size() >= topAggregates)
                reaching.push_back(n);
        }
        ASSERT_FALSE(reaching.empty());
        const double least = loss[reaching.front()];
        bool found = false;
        for (const std::size_t n : reaching)
            found = found || (loss[n] <= least + 1e-12 && nodes[n] == choice.report.levels);
        EXPECT_TRUE(found) << "chosen loss " << lattice.priorLoss(choice.report.levels) << ", least "
                           << least;
        EXPECT_LE(choice.report.evaluated.size() + choice.report.prunedNodes, nodes.size());
        pruned += choice.report.prunedNodes;
        // The records the release takes are the chosen node's, whichever evaluation kept them.
        const Dataset expected =
            generalizedDataset(*lattice.dataset, lattice.hierarchies, choice.report.levels);
        ASSERT_EQ(choice.dataset.rows(), expected.rows());
        for (std::size_t row = 0; row < expected.rows(); ++row)
            for (std::size_t j = 0; j < 3; ++j)
                ASSERT_EQ(choice.dataset.classes().codes(choice.dataset.rowClass(row))[j],
                          expected.classes().codes(expected.rowClass(row))[j]);
        EXPECT_EQ(choice.dataset.totalRecords(), expected.totalRecords());
    }
    EXPECT_GT(pruned, 0u) << "the scenarios exercise the pruning";
}

// The releases without refinement the search hands to the release are releases of the chosen node's records,
// and with them the release's own budget search ends at the count it finds without them.
TEST(GeneralizationSearch, TheLocatedReleasesItKeepsAreThoseOfTheChosenRecords)
{
    std::size_t kept = 0, bracketed = 0;
    for (unsigned seed = 1; seed <= 8; ++seed)
    {
        SCOPED_TRACE("seed " + std::to_string(seed));
        RandomLattice lattice(seed);
        // No removal, and a k that leaves fewer aggregates than regions: the boundary lies below every
        // region.
        for (auto& qi : lattice.hierarchies)
            qi->maxLevel = qi->hierarchy.levels() - 2;
        PipelineConfig config;
        config.k = 4 + seed;
        config.siteCounter = "sitecount.suppression_budget";
        config.suppressionBudget = std::vector<double>{3.0, 1.0, 2.0, 0.5, 1.5, 4.0, 0.8, 2.5}[seed - 1];
        const Pipeline pipeline(config);
        Job job(*lattice.dataset);
        Feedback feedback;
        const GeneralizationChoice choice =
            searchGeneralization(pipeline, job, lattice.hierarchies, feedback);
        if (choice.locatedTrials.empty())
            continue; // the chosen node was not the last that reached (a budget no node meets)
        ++kept;
        const PreparedData data = pipeline.prepare(Job(choice.dataset), feedback);
        PipelineProbe fresh(pipeline, data);
        for (const SiteCountTrial& trial : choice.locatedTrials)
            EXPECT_EQ(trial.withheld, fresh.withheld(trial.sites, false, feedback))
                << trial.sites << " sites";
        PipelineProbe alone(pipeline, data), given(pipeline, data);
        given.knowLocated(choice.locatedTrials);
        const Count budget = suppressionBudget(data.regions.totalRecords() + data.globallySuppressed,
                                               config.suppressionBudget);
        bracketed += given.knownLocatedBoundary(budget) ? 1 : 0;
        EXPECT_EQ(pipeline.estimateSiteCount(data, given, feedback, nullptr),
                  pipeline.estimateSiteCount(data, alone, feedback, nullptr));
    }
    EXPECT_GT(kept, 1u) << "the scenarios should keep the chosen node's releases";
    EXPECT_GT(bracketed, 0u) << "the scenarios should bracket the boundary with the releases kept";
}

// The guarantee, recounted over the generalized values straight from the hierarchies, for the
// recommended release (suppression budget, refinement, region moves), l-diversity and parents.
TEST(GeneralizationSearch, EveryReleasedGroupOfGeneralizedValuesHoldsK)
{
    for (unsigned seed = 11; seed <= 14; ++seed)
    {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const bool diverse = seed % 2 == 0;
        RandomLattice lattice(seed, diverse ? 1 : 0);
        // Some quasi-identifiers stay as they are; others stop below "*".
        if (seed == 12)
            lattice.hierarchies[1].reset();
        if (seed == 13)
            lattice.hierarchies[0]->maxLevel = 1;
        PipelineConfig config = recommendedConfig();
        config.k = 3;
        config.suppressionBudget = 2.0;
        const DiversityRule diversity{diverse ? 2u : 0u, DiversityRule::Measure::Distinct};
        test::withDiversity(config.options, diversity);
        Job job(*lattice.dataset);
        ReleaseRequest request;
        request.hierarchies = &lattice.hierarchies;
        job.spatial.adjacency = RandomLattice::adjacency(); // the recommended region moves need it
        std::vector<std::uint32_t> parents;
        if (seed == 14)
        {
            for (RegionIndex r = 0; r < lattice.dataset->regionCount(); ++r)
                parents.push_back(lattice.dataset->points()[r].x < 3 ? 0 : 1);
            job.regionParent = parents;
        }
        Feedback feedback;
        const ReleaseResult release = vbas::release(Pipeline(config), job, request, feedback);
        ASSERT_TRUE(release.generalization);
        const RecordTable generalized =
            test::generalizedTable(lattice.table, lattice.hierarchies, release.generalization->levels);
        EXPECT_EQ(test::checkRelease(generalized, *lattice.dataset, release.fates, release.result, config.k,
                                     diversity),
                  "");
        for (std::size_t j = 0; j < 3; ++j)
        {
            if (lattice.hierarchies[j])
            {
                EXPECT_LE(release.generalization->levels[j], lattice.hierarchies[j]->maxLevel);
            }
        }
    }
}

// A comparison that sweeps the generalization levels too: rows at the frontier's other nodes besides the
// chosen one, each release k-anonymous and accounting for every record, today's rows among them.
TEST(GeneralizationSearch, AComparisonSweepsTheFrontierLevels)
{
    for (unsigned seed = 1; seed <= 3; ++seed)
    {
        SCOPED_TRACE("seed " + std::to_string(seed));
        RandomLattice lattice(seed);
        PipelineConfig config;
        config.k = 4;
        config.siteCounter = "sitecount.fixed";
        config.options.set("site_count", 12.0);
        config.suppressionBudget = 2.0;
        const ComparisonChoices choices{{"sitecount.fixed"}, {"sitelocation.balanced_density"}, {}};
        Feedback feedback;
        const ComparisonResult chosen = Comparison(config, choices, SweepOptions{1, 0.25})
                                            .run(*lattice.dataset, feedback, &lattice.hierarchies);
        const ComparisonResult frontier = Comparison(config, choices, SweepOptions{1, 0.25, true})
                                              .run(*lattice.dataset, feedback, &lattice.hierarchies);
        std::set<std::vector<std::size_t>> levels;
        for (const SweepRow& row : frontier.rows)
        {
            levels.insert(row.levels);
            EXPECT_EQ(row.result.suppression.released + row.result.suppression.suppressed(),
                      lattice.dataset->totalRecords());
            const std::vector<ClassCount>& entries = row.result.aggregation.histograms.allEntries();
            for (std::size_t e = 0; e < entries.size(); ++e)
                EXPECT_TRUE(row.result.suppression.aggregateEntrySuppressed[e] ||
                            entries[e].count >= config.k);
        }
        EXPECT_GT(levels.size(), 1u);
        for (const SweepRow& row : chosen.rows)
            EXPECT_TRUE(std::any_of(frontier.rows.begin(), frontier.rows.end(),
                                    [&](const SweepRow& other)
                                    {
                                        return other.levels == row.levels &&
                                               other.siteCount == row.siteCount &&
                                               other.result.suppression.suppressed() ==
                                                   row.result.suppression.suppressed();
                                    }));
    }
}

} // namespace
} // namespace vbas

// k over people (SPEC section 14, issue 39): with a person id every group counts distinct people, worked by
// hand and recounted from the rows by brute force.
#include "Pipeline.h"
#include "ReleaseCheck.h"
#include "TestSupport.h"
#include "generalization/Hierarchy.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::qi;

namespace
{
using F = RecordFate;

/** Rates `dataset` with the given aggregates and k, without global suppression. */
PipelineResult rate(const Dataset& dataset, Count k, const std::vector<std::uint32_t>& regionGroup,
                    std::size_t groups)
{
    PipelineConfig config;
    config.k = k;
    config.globalSuppression = false;
    const Pipeline pipeline(config);
    Feedback feedback;
    return pipeline.rateGroups(pipeline.prepare(dataset, feedback), regionGroup, groups, feedback);
}
} // namespace

// Class 0 of small area A holds one patient's five visits; class 1 holds five patients once each. With rows
// counted, both groups hold k = 5; counted in people, the first holds 1.
TEST(PeopleCount, OnePatientsFiveVisitsAreAGroupOfOne)
{
    DatasetBuilder builder({qi("age")});
    builder.region("A", 0, 0);
    builder.records("A", {0}, 5).records("A", {1}, 5);
    const Dataset rows = builder.build();
    EXPECT_EQ(rate(rows, 5, {0}, 1).suppression.released, 10u);

    builder.persons({7, 7, 7, 7, 7, 1, 2, 3, 4, 5});
    const Dataset people = builder.build();
    EXPECT_TRUE(people.countsPeople());
    EXPECT_EQ(people.totalRecords(), 6u); // one person in class 0, five in class 1
    const PipelineResult result = rate(people, 5, {0}, 1);
    EXPECT_EQ(result.suppression.released, 5u);
    EXPECT_EQ(result.suppression.locallySuppressed, 1u);
    EXPECT_EQ(recordFates(people, result),
              (std::vector<F>{F::SuppressedLocally, F::SuppressedLocally, F::SuppressedLocally,
                              F::SuppressedLocally, F::SuppressedLocally, F::Released, F::Released,
                              F::Released, F::Released, F::Released}));
    EXPECT_EQ(test::checkRelease(builder.table(), people, result, 5), "");
}

// Two small areas merged into one aggregate: three patients were seen in both (moved house), so the
// aggregate's group holds 5 people although each small area counts its own: 4 + 4 = 8 by area, 5 in the
// aggregate.
TEST(PeopleCount, APersonInTwoSmallAreasOfOneRegionCountsOnce)
{
    DatasetBuilder builder({qi("age")});
    builder.region("A", 0, 0).region("B", 1, 0);
    builder.records("A", {0}, 4).records("B", {0}, 4);
    builder.persons({1, 2, 3, 4, 2, 3, 4, 5});
    const Dataset people = builder.build();
    EXPECT_EQ(people.regionHistograms().total(0), 4u);
    EXPECT_EQ(people.regionHistograms().total(1), 4u);
    EXPECT_EQ(rate(people, 5, {0, 0}, 1).suppression.released, 8u) << "5 people: released";
    const PipelineResult six = rate(people, 6, {0, 0}, 1);
    EXPECT_EQ(six.suppression.released, 0u) << "5 people are below k = 6 although 8 by small area";
    EXPECT_EQ(test::checkRelease(builder.table(), people, six, 6), "");
}

// A person whose visits fall in two ages of one band counts once in the band: generalizing recounts people.
TEST(PeopleCount, GeneralizedClassesCountAPersonOnce)
{
    DatasetBuilder builder({qi("age")});
    builder.region("A", 0, 0);
    builder.records("A", {0}, 3).records("A", {1}, 3);
    builder.persons({1, 2, 3, 1, 2, 3}); // three people, each seen at both ages
    builder.values({{{false, "34", 34.0, {}}, {false, "35", 35.0, {}}}});
    const Dataset people = builder.build();
    EXPECT_EQ(people.totalRecords(), 6u);
    const Dataset banded = people.generalized({{0, 0}}, {{{false, "30-39", {}, {}}}});
    EXPECT_EQ(banded.totalRecords(), 3u);
    EXPECT_EQ(banded.regionHistograms().entries(0).size(), 1u);
    EXPECT_EQ(banded.regionHistograms().entries(0).begin()->count, 3u);
}

// Brute force on random visit tables: every released group holds k distinct people, whatever the aggregation.
TEST(PeopleCount, RandomVisitTablesReleaseKPeoplePerGroup)
{
    std::mt19937 random(39);
    const auto pick = [&](std::uint32_t n)
    {
        return std::uint32_t(random() % n);
    };
    for (int trial = 0; trial < 40; ++trial)
    {
        DatasetBuilder builder({qi("age"), qi("sex")});
        const int areas = 6;
        for (int a = 0; a < areas; ++a)
            builder.region("r" + std::to_string(a), a, 0);
        std::vector<std::uint32_t> persons;
        const int people = 30 + int(pick(40));
        for (std::uint32_t p = 0; p < std::uint32_t(people); ++p)
        {
            const std::uint32_t age = pick(3), sex = pick(2);
            const int home = int(pick(areas));
            const int visits = 1 + int(pick(6));
            for (int v = 0; v < visits; ++v)
            {
                // Some visits from a second address, some at the next age.
                const int area = pick(5) == 0 ? int(pick(areas)) : home;
                builder.records("r" + std::to_string(area), {pick(6) == 0 ? (age + 1) % 3 : age, sex});
                persons.push_back(p);
            }
        }
        builder.persons(persons);
        const Dataset dataset = builder.build();
        std::vector<std::uint32_t> groups(areas);
        for (int a = 0; a < areas; ++a)
            groups[std::size_t(a)] = std::uint32_t(a / 2);
        const Count k = 2 + pick(4);
        const PipelineResult result = rate(dataset, k, groups, 3);
        ASSERT_EQ(test::checkRelease(builder.table(), dataset, result, k), "") << "trial " << trial;
    }
}

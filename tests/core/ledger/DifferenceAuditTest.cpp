// The difference rule over values across releases (SPEC section 13, issue 39), on systems worked by hand:
// every pin is derived in the comment from the published counts alone.
#include "ledger/DifferenceAudit.h"
#include "ledger/LinearBounds.h"

#include <gtest/gtest.h>

using namespace vbas;

namespace
{
using R = RecordRelation;

/** A release of one quasi-identifier over one region, its labels the given numeric ranges [from, to). */
AuditedRelease release(Count k, const std::vector<std::pair<double, double>>& labels,
                       const std::vector<std::pair<std::uint32_t, Count>>& cells)
{
    AuditedRelease made;
    made.k = k;
    made.labels.resize(1);
    for (const auto& [from, to] : labels)
    {
        ValueSet set;
        set.intervals.emplace_back(from, to);
        made.labels[0].push_back(set);
    }
    for (const auto& [label, count] : cells)
        made.cells.push_back({{0}, {label}, count});
    return made;
}

std::vector<std::vector<R>> allRelated(std::size_t releases, R relation)
{
    std::vector<std::vector<R>> relations(releases, std::vector<R>(releases, relation));
    for (std::size_t r = 0; r < releases; ++r)
        relations[r][r] = R::Identical;
    return relations;
}

AuditOutcome audit(const std::vector<AuditedRelease>& releases, const std::vector<std::vector<R>>& relations)
{
    Feedback feedback;
    return auditReleases(releases, relations, feedback);
}
} // namespace

// x >= 0, x + y = 6, y + z = 9, z <= 7 (z + w = 7): x in [0, 4], y in [2, 6], z in [3, 7], w in [0, 4].
TEST(LinearBounds, BoundsOfAChainWorkedByHand)
{
    const LinearBounds bounds(4, {{{{0, 1}, {1, 1}}, 6}, {{{1, 1}, {2, 1}}, 9}, {{{2, 1}, {3, 1}}, 7}});
    ASSERT_TRUE(bounds.feasible());
    EXPECT_NEAR(bounds.minimum(0), 0, 1e-9);
    EXPECT_NEAR(*bounds.maximum(0), 4, 1e-9);
    EXPECT_NEAR(bounds.minimum(1), 2, 1e-9);
    EXPECT_NEAR(*bounds.maximum(1), 6, 1e-9);
    EXPECT_NEAR(bounds.minimum(2), 3, 1e-9);
    EXPECT_NEAR(*bounds.maximum(3), 4, 1e-9);
    EXPECT_FALSE(LinearBounds(2, {{{{0, 1}, {1, 1}}, 3}, {{{0, 1}}, 5}}).feasible());
    EXPECT_FALSE(LinearBounds(1, {}).maximum(0)) << "no equation: unbounded";
}

// The same records in 10-year bands, then in bands offset by 5: ages 20-29 hold 6, 30-39 hold 7; then 20-24
// holds 5 and 25-34 holds 6 (35-39, below k, withheld). 25-29 = (20-29) - (20-24) = 6 - 5 = 1: one person
// pinned by the two releases together, although every cell holds k = 5. Withholding 25-34 leaves the same
// difference, so both cells of the second release go.
TEST(DifferenceAudit, OffsetBandsOfTheSameRecordsPinAGroup)
{
    const AuditedRelease decades = release(5, {{20, 30}, {30, 40}}, {{0, 6}, {1, 7}});
    const AuditedRelease offset = release(5, {{20, 25}, {25, 35}}, {{0, 5}, {1, 6}});
    const AuditOutcome outcome = audit({decades, offset}, allRelated(2, R::Identical));
    EXPECT_EQ(outcome.withheld, (std::vector<bool>{true, true}));
    EXPECT_EQ(outcome.pinnedBefore, 0u);
}

// Without the "<25" cell nothing is pinned: 25-34 = 6 leaves 25-29 anywhere in [0, 6].
TEST(DifferenceAudit, OffsetBandsThatPinNothingAreReleased)
{
    const AuditedRelease decades = release(5, {{20, 30}, {30, 40}}, {{0, 6}, {1, 7}});
    const AuditedRelease offset = release(5, {{25, 35}}, {{0, 6}});
    EXPECT_EQ(audit({decades, offset}, allRelated(2, R::Identical)).withheld, (std::vector<bool>{false}));
}

// Quarter 1 (6 records in the cell) and quarter 2 (7), disjoint, then the year to date holding both: 15. The
// third quarter's records in the cell are 15 - 6 - 7 = 2, pinned; no pair of the three shows it.
TEST(DifferenceAudit, TheThirdQuarterIsTheYearToDateLessTheTwoFirst)
{
    const AuditedRelease q1 = release(5, {{0, 100}}, {{0, 6}});
    const AuditedRelease q2 = release(5, {{0, 100}}, {{0, 7}});
    const AuditedRelease ytd = release(5, {{0, 100}}, {{0, 15}});
    std::vector<std::vector<R>> relations = allRelated(3, R::Disjoint);
    relations[0][2] = relations[1][2] = R::Within;
    relations[2][0] = relations[2][1] = R::Containing;
    EXPECT_EQ(audit({q1, q2, ytd}, relations).withheld, (std::vector<bool>{true}));
    const AuditedRelease ytdMore = release(5, {{0, 100}}, {{0, 18}}); // 5 new records: safe
    EXPECT_EQ(audit({q1, q2, ytdMore}, relations).withheld, (std::vector<bool>{false}));
    // Read pairwise the same cells show nothing: 15 - 6 and 15 - 7 are both at least k.
}

// An earlier k is a floor for the same records: released first with k = 5 as one band of 8, then with k = 2
// as 3 + 5. The 3 is published at k = 2, but those 3 people were promised k = 5: withheld, and then the 5 too
// (8 - 5 = 3 again).
TEST(DifferenceAudit, AnEarlierKIsAFloorForTheSameRecords)
{
    const AuditedRelease coarse = release(5, {{0, 20}}, {{0, 8}});
    const AuditedRelease lowered = release(2, {{0, 10}, {10, 20}}, {{0, 3}, {1, 5}});
    EXPECT_EQ(audit({coarse, lowered}, allRelated(2, R::Identical)).withheld,
              (std::vector<bool>{true, true}));
    const AuditedRelease kept = release(5, {{0, 10}, {10, 20}}, {{0, 3}, {1, 5}});
    EXPECT_EQ(audit({coarse, kept}, allRelated(2, R::Identical)).withheld, (std::vector<bool>{true, true}));
    // A group the first release withheld (3 people, below its k) and nothing else covers: published at k = 2,
    // it would show them.
    const AuditedRelease withheldBefore = release(5, {{0, 20}, {20, 40}}, {{0, 8}});
    const AuditedRelease republished = release(2, {{0, 20}, {20, 40}}, {{0, 8}, {1, 3}});
    EXPECT_EQ(audit({withheldBefore, republished}, allRelated(2, R::Identical)).withheld,
              (std::vector<bool>{false, true}));
}

// Other people's records (disjoint) pin nothing whatever their counts; partly overlapping ones (a corrected
// table) may not differ by 1 to k - 1 in an equal cell.
TEST(DifferenceAudit, DisjointRecordsPinNothingPartlyOverlappingOnesKeepTheirDistance)
{
    const AuditedRelease first = release(5, {{0, 10}, {10, 20}}, {{0, 10}, {1, 20}});
    const AuditedRelease second = release(5, {{0, 10}, {10, 20}}, {{0, 12}, {1, 26}});
    EXPECT_EQ(audit({first, second}, allRelated(2, R::Disjoint)).withheld, (std::vector<bool>{false, false}));
    EXPECT_EQ(audit({first, second}, allRelated(2, R::Partial)).withheld, (std::vector<bool>{true, false}));
}

// A release that does not publish a quasi-identifier covers all its values: the region's 9 people without
// sex, then by sex, women 6 and men (3) withheld below k. 9 - 6 = 3 men pinned: the women's cell goes too.
TEST(DifferenceAudit, AnotherSetOfQuasiIdentifiersIsComparedByValues)
{
    AuditedRelease total; // one cell: everybody in the region
    total.k = 5;
    total.labels.resize(1);
    total.cells.push_back({{0}, {0}, 9});
    AuditedRelease bySex;
    bySex.k = 5;
    bySex.labels.resize(1);
    for (const char* sex : {"F", "M"})
    {
        ValueSet set;
        set.texts.push_back(sex);
        bySex.labels[0].push_back(set);
    }
    bySex.cells.push_back({{0}, {0}, 6});
    EXPECT_EQ(audit({total, bySex}, allRelated(2, R::Identical)).withheld, (std::vector<bool>{true}));
}

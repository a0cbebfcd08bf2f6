// The release ledger's rules (SPEC section 13): which releases of overlapping records it refuses, and the
// difference rule on a shared aggregation, against hand-worked cases and a brute-force recount.
#include "ledger/ReleaseLedger.h"
#include "Pipeline.h"
#include "PropertyCheck.h"
#include "TestSupport.h"
#include "base/Error.h"

#include <algorithm>
#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace vbas;
using namespace vbas::test;

namespace
{
const HashKey kKey{42, 43};

RecordFingerprint withIds(Count records, std::uint64_t firstId, std::uint64_t ids)
{
    RecordFingerprint fingerprint;
    fingerprint.records = records;
    fingerprint.digest = {records, firstId}; // distinct digests for distinct record sets
    for (std::uint64_t i = firstId; i < firstId + ids; ++i)
        fingerprint.ids.hashes.push_back(keyedHash(kKey, i, 7));
    std::sort(fingerprint.ids.hashes.begin(), fingerprint.ids.hashes.end());
    fingerprint.ids.hashes.resize(std::min<std::size_t>(ids, MinHashSample::kCapacity));
    fingerprint.ids.members = ids;
    fingerprint.rows = fingerprint.ids; // like records as rows: only ids tell them apart
    return fingerprint;
}

LedgerEntry entryOn(std::int64_t id, AreaRegions aggregation, RecordFingerprint records)
{
    LedgerEntry entry;
    entry.id = id;
    entry.recordedAt = "2026-11-20T10:00:00Z";
    entry.algorithm = "vbas:aggregateregions";
    entry.k = 5;
    entry.aggregation = std::move(aggregation);
    entry.records = std::move(records);
    return entry;
}

const AreaRegions kFirst{{"a1", "1"}, {"a2", "1"}, {"a3", "2"}, {"a4", "2"}};
/** kFirst with other region ids. */
const AreaRegions kRenamed{{"a1", "x"}, {"a2", "x"}, {"a3", "y"}, {"a4", "y"}};
/** a2 moved to the other region. */
const AreaRegions kOther{{"a1", "1"}, {"a2", "2"}, {"a3", "2"}, {"a4", "2"}};

/** The territory of a release on `aggregation` (or of its own, with no region ids). */
ReleaseTerritory on(const AreaRegions& aggregation, bool own = false)
{
    ReleaseTerritory territory;
    territory.areas = aggregation;
    if (own)
        for (auto& [area, region] : territory.areas)
            region.clear();
    return territory;
}

std::string refusal(const std::vector<LedgerEntry>& entries, const RecordFingerprint& now,
                    const ReleaseTerritory& territory, bool own,
                    const std::vector<std::int64_t>& otherPeople = {})
{
    try
    {
        checkLedger(entries, now, territory, own, otherPeople);
    }
    catch (const Error& error)
    {
        EXPECT_EQ(error.subject(), Subject::Ledger);
        return error.what();
    }
    return {};
}
} // namespace

TEST(ReleaseLedger, AggregationsAreTheSameWhateverTheirRegionsAreCalled)
{
    EXPECT_TRUE(sameAggregation(kFirst, kRenamed));
    EXPECT_FALSE(sameAggregation(kFirst, kOther));
    // Two regions merged into one, or split: not the same.
    EXPECT_FALSE(sameAggregation(kFirst, {{"a1", "1"}, {"a2", "1"}, {"a3", "1"}, {"a4", "1"}}));
    EXPECT_FALSE(sameAggregation({{"a1", "1"}, {"a2", "1"}, {"a3", "1"}, {"a4", "1"}}, kFirst));
    // Other small areas.
    EXPECT_FALSE(sameAggregation(kFirst, {{"a1", "1"}, {"a2", "1"}, {"a3", "2"}, {"a5", "2"}}));
}

TEST(ReleaseLedger, RecordsOverlapByIdsBeyondAHundredthAndTheirRelationIsTold)
{
    const RecordFingerprint earlier = withIds(10000, 0, 10000);
    EXPECT_EQ(compareRecords(earlier, earlier).relation, RecordRelation::Identical);
    // A superset (the same ids and 5,000 more): the earlier records lie within these.
    const RecordComparison superset = compareRecords(earlier, withIds(15000, 0, 15000));
    EXPECT_EQ(superset.relation, RecordRelation::Within);
    EXPECT_TRUE(superset.byIds);
    EXPECT_NEAR(superset.shareOfEarlier, 1.0, 0.03);
    EXPECT_NEAR(superset.shareOfNow, 2.0 / 3.0, 0.03);
    EXPECT_EQ(compareRecords(withIds(15000, 0, 15000), earlier).relation, RecordRelation::Containing);
    // A corrected table (9,000 of them), next quarter (none).
    EXPECT_EQ(compareRecords(earlier, withIds(10000, 1000, 10000)).relation, RecordRelation::Partial);
    EXPECT_EQ(compareRecords(earlier, withIds(10000, 10000, 10000)).relation, RecordRelation::Disjoint);
    // Small sets are compared exactly: 2 of 100 shared is over the hundredth, 1 is not.
    EXPECT_EQ(compareRecords(withIds(100, 0, 100), withIds(100, 98, 100)).relation, RecordRelation::Partial);
    EXPECT_EQ(compareRecords(withIds(100, 0, 100), withIds(100, 99, 100)).relation, RecordRelation::Disjoint);
}

// Fresh pseudonyms per extract: no id in common, yet the rows (compared by value) are the same people's.
TEST(ReleaseLedger, TheSameRowsUnderFreshIdsOverlap)
{
    RecordFingerprint earlier = withIds(2000, 0, 2000), fresh = withIds(2100, 50000, 2100);
    fresh.rows = earlier.rows;              // the same rows...
    for (std::uint64_t i = 0; i < 100; ++i) // ...and 5 % new ones
        fresh.rows.hashes.push_back(keyedHash(kKey, 90000 + i, 7));
    std::sort(fresh.rows.hashes.begin(), fresh.rows.hashes.end());
    fresh.rows.members = 2100;
    const RecordComparison comparison = compareRecords(earlier, fresh);
    EXPECT_FALSE(comparison.byIds);
    EXPECT_EQ(comparison.relation, RecordRelation::Within);
    // Rows that cannot be compared (another quasi-identifier) are taken as overlapping too.
    RecordFingerprint otherQuasiIdentifiers = withIds(2000, 50000, 2000);
    otherQuasiIdentifiers.domains.push_back({"birth_year", MinHashSample{}});
    const RecordComparison unknown = compareRecords(earlier, otherQuasiIdentifiers);
    EXPECT_TRUE(unknown.incomparable);
    EXPECT_TRUE(unknown.overlapping());
}

// One aggregation per territory (issue 39): whatever the records (next quarter's, recoded, another register),
// a second aggregation of the same small areas is refused; a release on a given aggregation is held to the
// earlier one's regions or a coarsening of them.
TEST(ReleaseLedger, OneAggregationPerTerritory)
{
    const std::vector<LedgerEntry> entries{entryOn(3, kFirst, withIds(10000, 0, 10000))};
    const RecordFingerprint nextQuarter = withIds(10000, 10000, 10000);
    const std::string own = refusal(entries, nextQuarter, on(kFirst, true), true);
    EXPECT_NE(own.find("release 3 of 2026-11-20T10:00:00Z (vbas:aggregateregions, k = 5, 2 regions)"),
              std::string::npos)
        << own;
    EXPECT_NE(own.find("vbas:releaseonaggregation with LEDGER_ENTRY=3"), std::string::npos) << own;
    EXPECT_NE(own.find("OTHER_PEOPLE=3"), std::string::npos) << own;
    EXPECT_NE(own.find("vbas:withdrawrelease"), std::string::npos) << own;
    // A territory that shares one small area is the same territory there.
    EXPECT_NE(refusal(entries, nextQuarter, on({{"a4", ""}, {"b1", ""}}, true), true), "");
    // Another territory: nothing binds.
    EXPECT_TRUE(checkLedger(entries, nextQuarter, on({{"b1", ""}, {"b2", ""}}, true), true).bound.empty());

    // On a given aggregation: the same (other region ids) or a coarsening is bound; a split is refused.
    const LedgerDecision same = checkLedger(entries, withIds(12000, 0, 12000), on(kRenamed), false);
    ASSERT_EQ(same.bound.size(), 1u);
    EXPECT_EQ(same.bound[0].records.relation, RecordRelation::Within);
    EXPECT_EQ(same.kFloor, 5u);
    EXPECT_EQ(
        checkLedger(entries, nextQuarter, on({{"a1", "x"}, {"a2", "x"}, {"a3", "x"}, {"a4", "x"}}), false)
            .bound.size(),
        1u);
    const std::string split = refusal(entries, nextQuarter, on(kOther), false);
    EXPECT_NE(split.find("a1 and a2"), std::string::npos) << split;
    EXPECT_EQ(checkLedger(entries, nextQuarter, on(kRenamed), false).kFloor, 0u) << "other people: no floor";
}

// The same small areas under other ids are told by place.
TEST(ReleaseLedger, TheSameSmallAreasUnderOtherIdsAreToldByPlace)
{
    LedgerEntry earlier = entryOn(1, kFirst, withIds(100, 0, 100));
    earlier.locations = {"0 0", "1 0", "2 0", "3 0"};
    ReleaseTerritory otherCodes = on({{"2601", ""}, {"2602", ""}, {"2603", ""}, {"2604", ""}}, true);
    otherCodes.locations = {"0 0", "1 0", "2 0", "3 0"};
    EXPECT_NE(refusal({earlier}, withIds(100, 0, 100), otherCodes, true).find("4 by place under other ids"),
              std::string::npos);
}

// The custodian may state that records are other people's; their content must agree. Withdrawn entries bind
// nothing.
TEST(ReleaseLedger, OtherPeopleAndWithdrawnEntries)
{
    std::vector<LedgerEntry> entries{entryOn(3, kFirst, withIds(10000, 0, 10000))};
    const RecordFingerprint otherRegister = withIds(8000, 70000, 8000);
    const LedgerDecision stated = checkLedger(entries, otherRegister, on(kOther, true), true, {3});
    EXPECT_TRUE(stated.bound.empty());
    EXPECT_EQ(stated.notes.size(), 1u);
    const std::string contradicted = refusal(entries, withIds(10000, 0, 10000), on(kOther, true), true, {3});
    EXPECT_NE(contradicted.find("OTHER_PEOPLE states that release 3"), std::string::npos) << contradicted;
    entries[0].withdrawnAt = "2026-11-21T09:00:00Z";
    entries[0].withdrawnReason = "a trial, never published";
    EXPECT_TRUE(checkLedger(entries, withIds(10000, 0, 10000), on(kOther, true), true).bound.empty());
}

TEST(ReleaseLedger, WithoutIdsLikeRecordsCountAsShared)
{
    // Two tables of the same people's kind in the same areas: without ids their rows look alike, so the
    // ledger takes them for the same records (it cannot miss an overlap).
    DatasetBuilder quarter1({qi("sex")}), quarter2({qi("sex")});
    for (DatasetBuilder* builder : {&quarter1, &quarter2})
        builder->region("A", 0, 0).region("B", 1, 0);
    quarter1.records("A", {0}, 20).records("B", {1}, 20);
    quarter2.records("A", {0}, 18).records("B", {1}, 22);
    const std::vector<std::vector<CategoryValue>> values{{{false, "f", {}, {}}, {false, "m", {}, {}}}};
    Feedback feedback;
    const RecordFingerprint one =
        fingerprintRecords(quarter1.build(), {"sex"}, values, {}, {}, kKey, feedback);
    const RecordFingerprint two =
        fingerprintRecords(quarter2.build(), {"sex"}, values, {}, {}, kKey, feedback);
    const RecordComparison overlap = compareRecords(one, two);
    EXPECT_FALSE(overlap.byIds);
    EXPECT_EQ(overlap.relation, RecordRelation::Partial);
    EXPECT_NEAR(overlap.shareOfEarlier, 38.0 / 40.0, 1e-12); // min(20,18) + min(20,22) rows alike
}

namespace
{
/** Random records over a 6 x 6 grid of areas in 4 regions (3 x 3 blocks), two quasi-identifiers. */
struct Scene
{
    DatasetBuilder builder{{qi("age"), qi("sex")}};
    std::vector<std::uint32_t> regionGroup;
    std::vector<std::vector<CategoryValue>> values{
        {{false, "0-19", {}, {}}, {false, "20-39", {}, {}}, {false, "40-59", {}, {}}},
        {{false, "f", {}, {}}, {false, "m", {}, {}}}};

    explicit Scene(std::mt19937_64& random, int records, int firstRecord = 0)
    {
        builder.values(values);
        for (int i = 0; i < 36; ++i)
        {
            builder.region("t" + std::to_string(100 + i), i % 6, i / 6);
            regionGroup.push_back(std::uint32_t((i % 6) / 3 + 2 * ((i / 6) / 3)));
        }
        add(random, records, firstRecord);
    }
    void add(std::mt19937_64& random, int records, int firstRecord)
    {
        std::uniform_int_distribution<int> area(0, 35), age(0, 2), sex(0, 1);
        for (int r = firstRecord; r < firstRecord + records; ++r)
            builder.records("t" + std::to_string(100 + area(random)),
                            {std::uint32_t(age(random)), std::uint32_t(sex(random))});
    }
};

/** The scene's aggregation as a ledger keeps it. */
AreaRegions sceneAggregation(const Dataset& dataset, const Scene& scene)
{
    AreaRegions aggregation;
    for (RegionIndex r = 0; r < dataset.regionCount(); ++r)
        aggregation.emplace_back(dataset.regionId(r), "g" + std::to_string(scene.regionGroup[r]));
    std::sort(aggregation.begin(), aggregation.end());
    return aggregation;
}

ReleaseResult releaseOn(const Pipeline& pipeline, const Dataset& dataset, const Scene& scene,
                        const Job::EarlierReleases* earlier)
{
    Job job(dataset);
    job.earlier = earlier;
    Feedback feedback;
    return pipeline.releaseGroups(job, scene.regionGroup, 4, ReleaseRequest{}, feedback);
}

std::vector<bool> releasedRows(const ReleaseResult& whole)
{
    std::vector<bool> released;
    for (const RecordFate fate : whole.fates)
        released.push_back(fate == RecordFate::Released);
    return released;
}

/** The ledger entry of `release` of `dataset` over the scene. */
LedgerEntry entryOf(const Dataset& dataset, const Scene& scene, const ReleaseResult& release)
{
    LedgerEntry entry = entryOn(1, sceneAggregation(dataset, scene), {});
    Feedback feedback;
    entry.quasiIdentifiers = {"age", "sex"};
    entry.records = fingerprintRecords(dataset, entry.quasiIdentifiers, scene.values, {}, {}, kKey, feedback);
    entry.labelValues = releasedLabelValues(entry.quasiIdentifiers, scene.values, nullptr, {});
    entry.cells = publishedCells(dataset, classKeys(dataset, scene.values, nullptr, {}),
                                 release.result.aggregation, releasedRows(release));
    return entry;
}

/** Records per (region, age, sex) counted from the rows and their fates, with no engine code. */
std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, Count>
recount(const RecordTable& table, const std::vector<std::uint32_t>& regionGroup,
        const std::vector<bool>* released)
{
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, Count> cells;
    for (std::size_t row = 0; row < table.rows(); ++row)
        if (released == nullptr || (*released)[row])
        {
            const std::uint32_t area =
                std::uint32_t(std::stoi(table.regionKeys[table.regionKey[row]].substr(1)) - 100);
            ++cells[{regionGroup[area], table.codes[2 * row], table.codes[2 * row + 1]}];
        }
    return cells;
}
} // namespace

TEST(ReleaseLedger, ACumulativeReleaseOnTheSameAggregationPublishesNoDifferenceBelowK)
{
    PipelineConfig config;
    config.k = 5;
    config.globalSuppression = false;
    const Pipeline pipeline(config);
    for (std::uint64_t seed = 1; seed <= 20; ++seed)
    {
        std::mt19937_64 random(seed);
        Scene scene(random, 300);
        const Dataset first = scene.builder.build();
        const ReleaseResult earlier = releaseOn(pipeline, first, scene, nullptr);
        const std::vector<LedgerEntry> entries{entryOf(first, scene, earlier)};

        // The next release holds every earlier record and 40 more.
        scene.add(random, 40, 300);
        const Dataset cumulative = scene.builder.build();
        Feedback feedback;
        Job::EarlierReleases held;
        held.entries = &entries;
        held.territory.areas = sceneAggregation(cumulative, scene);
        held.bound =
            checkLedger(entries,
                        fingerprintRecords(cumulative, {"age", "sex"}, scene.values, {}, {}, kKey, feedback),
                        held.territory, false)
                .bound;
        ASSERT_EQ(held.bound.size(), 1u);
        EXPECT_EQ(held.bound[0].records.relation, RecordRelation::Within) << "seed " << seed;
        const ReleaseResult later = releaseOn(pipeline, cumulative, scene, &held);
        ASSERT_NO_FATAL_FAILURE(expectGuarantee(scene.builder.table(), cumulative, later.result, 5));

        // Independently: what each release published per cell, from the rows and fates.
        const std::vector<bool> releasedFirst = releasedRows(earlier), releasedLater = releasedRows(later);
        RecordTable firstTable = scene.builder.table();
        firstTable.regionKey.resize(300);
        firstTable.codes.resize(600);
        const auto publishedFirst = recount(firstTable, scene.regionGroup, &releasedFirst);
        const auto publishedLater = recount(scene.builder.table(), scene.regionGroup, &releasedLater);
        const auto all = recount(scene.builder.table(), scene.regionGroup, nullptr);
        Count withheldByDifference = 0;
        for (const auto& [cell, count] : all)
        {
            const Count before = publishedFirst.count(cell) ? publishedFirst.at(cell) : 0;
            const Count now = publishedLater.count(cell) ? publishedLater.at(cell) : 0;
            const Count difference = now > before ? now - before : before - now;
            EXPECT_FALSE(difference >= 1 && difference < 5)
                << "seed " << seed << ": a cell went from " << before << " to " << now;
            // Withheld for the difference exactly when it passes k but is 1 to 4 away from the earlier count.
            const Count gap = count > before ? count - before : before - count;
            const bool expectWithheld = count >= 5 && gap >= 1 && gap < 5;
            EXPECT_EQ(now == 0 && count >= 5, expectWithheld) << "seed " << seed;
            withheldByDifference += expectWithheld ? count : 0;
        }
        EXPECT_EQ(later.result.suppression.differenceSuppressed, withheldByDifference) << "seed " << seed;
        EXPECT_EQ(later.result.suppression.released + later.result.suppression.suppressed(), 340u);
    }
}

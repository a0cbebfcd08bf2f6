#include "ledger/RecordFingerprint.h"
#include "TestSupport.h"

#include <algorithm>
#include <gtest/gtest.h>

#include <random>
#include <set>

using namespace vbas;
using namespace vbas::test;

namespace
{
const HashKey kKey{0x1234, 0x5678};

/** The values behind codes 0.. of one quasi-identifier. */
std::vector<CategoryValue> texts(std::initializer_list<const char*> values)
{
    std::vector<CategoryValue> result;
    for (const char* value : values)
        result.push_back({false, value, std::nullopt, std::nullopt});
    return result;
}

RecordFingerprint fingerprint(const DatasetBuilder& builder,
                              const std::vector<std::vector<CategoryValue>>& values,
                              const std::vector<std::string>& ids = {},
                              const std::vector<std::string>& locations = {})
{
    Feedback feedback;
    const std::vector<std::string> names(values.size(), "q");
    return fingerprintRecords(builder.build(), names, values, locations, ids, kKey, feedback);
}

DatasetBuilder twoAreas()
{
    DatasetBuilder builder({qi("sex")});
    builder.region("A", 0, 0).region("B", 1, 0);
    return builder;
}

/** A sample of the set {first, ..., first + size - 1} of hashed numbers. */
MinHashSample sampleOf(std::uint64_t first, std::uint64_t size)
{
    std::vector<std::uint64_t> hashes;
    for (std::uint64_t i = first; i < first + size; ++i)
        hashes.push_back(keyedHash(kKey, i, 0));
    std::sort(hashes.begin(), hashes.end());
    hashes.resize(std::min<std::size_t>(hashes.size(), MinHashSample::kCapacity));
    return {hashes, size};
}
} // namespace

TEST(RecordFingerprint, TheSameRecordsInAnyOrderOrGroupingGiveTheSameDigest)
{
    const auto sex = texts({"female", "male"});
    DatasetBuilder rows = twoAreas();
    rows.records("A", {0}).records("B", {1}).records("A", {0}).records("A", {1});
    DatasetBuilder reordered = twoAreas();
    reordered.records("A", {1}).records("A", {0}, 2).records("B", {1});
    DatasetBuilder grouped = twoAreas();
    grouped.weighted().records("B", {1}, 1).records("A", {0}, 2).records("A", {1}, 1);
    const RecordFingerprint a = fingerprint(rows, {sex}), b = fingerprint(reordered, {sex}),
                            c = fingerprint(grouped, {sex});
    EXPECT_EQ(a.records, 4u);
    EXPECT_EQ(a.digest, b.digest);
    EXPECT_EQ(a.digest, c.digest);
    EXPECT_EQ(a.rows.hashes, c.rows.hashes);
    // The values count, not the codes: the same records coded the other way round.
    DatasetBuilder recoded = twoAreas();
    recoded.records("A", {1}, 2).records("B", {0}).records("A", {0});
    EXPECT_EQ(fingerprint(recoded, {texts({"male", "female"})}).digest, a.digest);
}

TEST(RecordFingerprint, OneRecordChangedOrMovedChangesTheDigest)
{
    const auto sex = texts({"female", "male"});
    DatasetBuilder base = twoAreas();
    base.records("A", {0}, 2).records("B", {1});
    DatasetBuilder moved = twoAreas();
    moved.records("A", {0}).records("B", {0}).records("B", {1});
    DatasetBuilder changed = twoAreas();
    changed.records("A", {0}).records("A", {1}).records("B", {1});
    DatasetBuilder more = twoAreas();
    more.records("A", {0}, 3).records("B", {1});
    const RecordFingerprint reference = fingerprint(base, {sex});
    for (const DatasetBuilder* other : {&moved, &changed, &more})
        EXPECT_NE(fingerprint(*other, {sex}).digest, reference.digest);
    // NULL is a value of its own, not the text "".
    std::vector<CategoryValue> withNull = texts({"", "male"});
    withNull[0].null = true;
    EXPECT_NE(fingerprint(base, {withNull}).digest, fingerprint(base, {texts({"", "male"})}).digest);
}

TEST(RecordFingerprint, IdsAreCountedOnceAndOnlyForRecordsWithARegion)
{
    DatasetBuilder builder = twoAreas();
    builder.records("A", {0}).records("A", {0}).records("B", {1}).records("Z", {1});
    Feedback feedback;
    DatasetOptions drop;
    drop.unknownRegions = UnknownRegionPolicy::Drop;
    drop.maxDroppedShare = 1.0;
    const Dataset dataset = builder.build(drop);
    const RecordFingerprint fingerprinted = fingerprintRecords(dataset, {"sex"}, {texts({"female", "male"})},
                                                               {}, {"p1", "p1", "p2", "p3"}, kKey, feedback);
    EXPECT_EQ(fingerprinted.records, 3u);
    EXPECT_EQ(fingerprinted.ids.members, 2u); // p1 twice, p3 dropped with its unknown area
    EXPECT_TRUE(fingerprinted.ids.whole());
}

// Rows are compared by what they are (issue 39): small areas by where they lie when the places are known (the
// same polygons under another code), numbers by value.
TEST(RecordFingerprint, SmallAreasComparedByPlaceAndNumbersByValue)
{
    const auto sex = texts({"female", "male"});
    DatasetBuilder byCode = twoAreas();
    byCode.records("A", {0}, 2).records("B", {1});
    DatasetBuilder byOtherCode({qi("sex")});
    byOtherCode.region("2601", 0, 0).region("2602", 1, 0);
    byOtherCode.records("2601", {0}, 2).records("2602", {1});
    EXPECT_NE(fingerprint(byCode, {sex}).digest, fingerprint(byOtherCode, {sex}).digest)
        << "ids alone differ";
    EXPECT_EQ(fingerprint(byCode, {sex}, {}, {"-34.9 -8.0", "-34.8 -8.0"}).digest,
              fingerprint(byOtherCode, {sex}, {}, {"-34.9 -8.0", "-34.8 -8.0"}).digest);

    std::vector<CategoryValue> ages = texts({"30", "41"}), decimals = texts({"30.0", "41.00"});
    for (std::size_t i = 0; i < 2; ++i)
    {
        ages[i].number = i == 0 ? 30.0 : 41.0;
        decimals[i].number = ages[i].number;
    }
    EXPECT_EQ(fingerprint(byCode, {ages}).digest, fingerprint(byCode, {decimals}).digest);
    EXPECT_EQ(comparedValue(ages[0]), comparedValue(decimals[0]));
    EXPECT_NE(comparedValue(ages[0]), comparedValue(texts({"30"})[0])) << "a number is no text";
}

TEST(MinHashSample, SharedMembersAreExactWhileTheSetsFitAndCloseBeyond)
{
    // 1,000 and 1,500 members, 400 shared: whole samples, exact.
    EXPECT_EQ(sharedMembers(sampleOf(0, 1000), sampleOf(600, 1500)), 400.0);
    EXPECT_EQ(sharedMembers(sampleOf(0, 1000), sampleOf(5000, 1000)), 0.0);
    // Large sets: the estimate of the shared members within 10 % of the truth (the bottom-4096 estimate's
    // standard error is under 3 % here), for overlaps from a tenth to all of the smaller set.
    for (const auto& [firstB, sizeB] : {std::pair<std::uint64_t, std::uint64_t>(0, 200000),
                                        {180000, 200000},
                                        {100000, 150000},
                                        {50000, 100000}})
    {
        const double truth = double(std::min<std::uint64_t>(200000, firstB + sizeB) - firstB);
        const double estimate = sharedMembers(sampleOf(0, 200000), sampleOf(firstB, sizeB));
        EXPECT_NEAR(estimate, truth, 0.1 * truth) << "B from " << firstB << ", " << sizeB << " members";
    }
    // Disjoint large sets share (almost) nothing.
    EXPECT_LT(sharedMembers(sampleOf(0, 200000), sampleOf(1000000, 200000)), 0.005 * 200000);
}

// A quarter within its year to date must be told as within it, however large both are: the bottom-k
// estimate of the shared members misses by a few percent, which read as "partly the same records" let the
// year to date less the quarters through.
TEST(MinHashSample, ASetWithinAnotherIsToldExactlyAtAnySize)
{
    EXPECT_EQ(shareWithin(sampleOf(0, 8500), sampleOf(0, 25500)), 1.0);
    EXPECT_EQ(shareWithin(sampleOf(8500, 8500), sampleOf(0, 25500)), 1.0);
    EXPECT_EQ(shareWithin(sampleOf(100000, 1000), sampleOf(0, 300000)), 1.0);
    // Small sets: exact shares. 400 of the first's 1,000 are the second's.
    EXPECT_EQ(shareWithin(sampleOf(0, 1000), sampleOf(600, 1500)), 0.4);
    EXPECT_EQ(shareWithin(sampleOf(600, 1500), sampleOf(0, 1000)), 400.0 / 1500.0);
    // Large: half of the first within the second, to a few percent; none of a disjoint one.
    EXPECT_NEAR(shareWithin(sampleOf(0, 200000), sampleOf(100000, 300000)), 0.5, 0.05);
    EXPECT_EQ(shareWithin(sampleOf(0, 200000), sampleOf(1000000, 200000)), 0.0);
}

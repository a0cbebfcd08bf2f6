// SuppressionLedger against a brute-force recount from the regions' records after every move and undo:
// the counts the refinement and the region moves decide by.

#include "suppression/SuppressionLedger.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <tuple>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::qi;

namespace
{
/** What the ledger tracks, counted from scratch over an assignment of regions to sites. */
struct Recount
{
    Count withheld = 0;
    std::vector<Count> siteWithheld;
    std::size_t formed = 0;
    std::size_t releasing = 0;
    /** (site, class, sensitive field, value) combinations with records, of values that `shared` lists. */
    std::size_t sharedCells = 0;
};

/** A sensitive value: (class, field, code). */
using SensitiveValue = std::tuple<ClassId, std::size_t, std::uint32_t>;

/** The sensitive values that more than one region holds. */
std::set<SensitiveValue> sharedValues(const Dataset& dataset)
{
    std::map<SensitiveValue, std::set<RegionIndex>> regions;
    for (std::size_t row = 0; row < dataset.rows(); ++row)
        for (std::size_t field = 0; field < dataset.sensitiveCount(); ++field)
            regions[{dataset.rowClass(row), field, dataset.rowSensitive(row, field)}].insert(
                dataset.rowRegion(row));
    std::set<SensitiveValue> shared;
    for (const auto& [value, holding] : regions)
        if (holding.size() > 1)
            shared.insert(value);
    return shared;
}

/** Whether `values` (value -> records) show enough variety for `rule`, from the definitions of SPEC
 * section 10. */
bool diverse(const std::map<std::uint32_t, Count>& values, const DiversityRule& rule)
{
    if (rule.measure == DiversityRule::Measure::Distinct)
        return values.size() >= rule.l;
    long double total = 0, entropy = 0;
    for (const auto& [value, count] : values)
        total += count;
    for (const auto& [value, count] : values)
        entropy -= count / total * std::log(count / total);
    // Exactly l equally frequent values have entropy ln(l) and pass, whatever the rounding.
    return entropy >= std::log(static_cast<long double>(rule.l)) * (1 - 1e-12L);
}

/** The recount from the input rows: every row's records and sensitive values go to its region's site. */
Recount recount(const Dataset& dataset, const std::vector<SiteIndex>& regionSite, std::size_t sites, Count k,
                const DiversityRule& rule = {}, const std::set<SensitiveValue>& shared = {})
{
    std::vector<std::map<ClassId, Count>> counts(sites);
    // [site][class][field]: records by value.
    std::vector<std::map<ClassId, std::vector<std::map<std::uint32_t, Count>>>> values(sites);
    std::vector<Count> records(sites, 0);
    std::vector<bool> formed(sites, false);
    for (RegionIndex r = 0; r < regionSite.size(); ++r)
        formed[regionSite[r]] = true;
    for (std::size_t row = 0; row < dataset.rows(); ++row)
    {
        const SiteIndex s = regionSite[dataset.rowRegion(row)];
        const ClassId cls = dataset.rowClass(row);
        counts[s][cls] += dataset.rowCount(row);
        records[s] += dataset.rowCount(row);
        auto& fields = values[s][cls];
        fields.resize(dataset.sensitiveCount());
        for (std::size_t field = 0; field < dataset.sensitiveCount(); ++field)
            fields[field][dataset.rowSensitive(row, field)] += dataset.rowCount(row);
    }
    Recount result;
    result.siteWithheld.assign(sites, 0);
    for (SiteIndex s = 0; s < sites; ++s)
    {
        for (const auto& [cls, count] : counts[s])
        {
            bool withheld = count < k;
            const auto& fields = values[s][cls];
            for (std::size_t field = 0; field < fields.size(); ++field)
            {
                withheld = withheld || (rule.enabled() && !diverse(fields[field], rule));
                for (const auto& [code, held] : fields[field])
                    result.sharedCells += shared.count({cls, field, code});
            }
            if (withheld)
                result.siteWithheld[s] += count;
        }
        result.withheld += result.siteWithheld[s];
        result.formed += formed[s];
        result.releasing += records[s] > result.siteWithheld[s];
    }
    return result;
}

/** One to three regions to other sites at once, as the refinement's site moves change them. */
std::vector<IncrementalPartition::Change> randomChanges(std::vector<SiteIndex>& assignment, std::size_t sites,
                                                        std::mt19937_64& generator)
{
    std::vector<IncrementalPartition::Change> changes;
    for (std::size_t i = 0, moved = 1 + generator() % 3; i < moved; ++i)
    {
        const RegionIndex r = RegionIndex(generator() % assignment.size());
        const SiteIndex to = SiteIndex(generator() % sites);
        if (to == assignment[r] || std::any_of(changes.begin(), changes.end(),
                                               [&](const auto& change) { return change.region == r; }))
            continue;
        changes.push_back({r, assignment[r], to});
        assignment[r] = to;
    }
    return changes;
}

/**
 * Regions with up to `most` records each (some with none) of a few ages and both sexes, and two sensitive
 * fields: the first with many values, most of them rare (a record has a value of its own with probability
 * `ownShare`, else one of 30 shared ones, the first few common), the second with three. With `weighted`,
 * every row counts 1 to 4 records.
 */
Dataset manyValues(std::size_t regionCount, std::size_t most, double ownShare, bool weighted,
                   std::mt19937_64& generator)
{
    std::discrete_distribution<std::uint32_t> age({8, 6, 4, 3, 2, 1, 1});
    std::discrete_distribution<std::uint32_t> shared(
        {20, 10, 6, 4, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
    std::discrete_distribution<std::uint32_t> second({6, 3, 1});
    std::bernoulli_distribution own(ownShare);
    DatasetBuilder builder({qi("age"), qi("sex")});
    if (weighted)
        builder.weighted();
    builder.sensitiveFields(2);
    std::uint32_t next = 30;
    for (std::size_t r = 0; r < regionCount; ++r)
    {
        const std::string id = std::to_string(r);
        builder.region(id, double(r), 0.0);
        for (std::size_t i = 0, records = generator() % (most + 1); i < records; ++i)
            builder.records(id, {age(generator), std::uint32_t(generator() % 2)},
                            weighted ? std::int64_t(1 + generator() % 4) : 1,
                            {own(generator) ? next++ : shared(generator), second(generator)});
    }
    return builder.build();
}

/** (region, class, field, value) combinations with records: what the ledger's cells may grow to at most. */
std::size_t regionCells(const Dataset& dataset)
{
    std::set<std::tuple<RegionIndex, ClassId, std::size_t, std::uint32_t>> cells;
    for (std::size_t row = 0; row < dataset.rows(); ++row)
        for (std::size_t field = 0; field < dataset.sensitiveCount(); ++field)
            cells.emplace(dataset.rowRegion(row), dataset.rowClass(row), field,
                          dataset.rowSensitive(row, field));
    return cells.size();
}
} // namespace

TEST(SuppressionLedger, FollowsMovesAndUndoesAsARecountFromTheRecords)
{
    std::mt19937_64 generator(31);
    std::discrete_distribution<std::uint32_t> age({8, 6, 4, 3, 2, 1, 1});
    DatasetBuilder builder({qi("age"), qi("sex")});
    const std::size_t regionCount = 60, sites = 7;
    for (std::size_t r = 0; r < regionCount; ++r)
    {
        const std::string id = std::to_string(r);
        builder.region(id, double(r), 0.0);
        for (std::size_t i = 0, records = generator() % 12; i < records; ++i) // some regions without records
            builder.records(id, {age(generator), std::uint32_t(generator() % 2)});
    }
    const Dataset dataset = builder.build();
    const RegionSet regions(dataset, dataset.regionHistograms());
    std::vector<SiteIndex> regionSite(regionCount);
    for (RegionIndex r = 0; r < regionCount; ++r)
        regionSite[r] = SiteIndex(generator() % sites);
    for (const Count k : {Count(2), Count(5)})
    {
        SCOPED_TRACE("k = " + std::to_string(k));
        std::vector<SiteIndex> assignment = regionSite;
        SuppressionLedger ledger(regions, assignment, sites, k);
        const auto expectRecount = [&](const char* when)
        {
            const Recount expected = recount(dataset, assignment, sites, k);
            ASSERT_EQ(ledger.withheld(), expected.withheld) << when;
            for (SiteIndex s = 0; s < sites; ++s)
                ASSERT_EQ(ledger.withheld(s), expected.siteWithheld[s]) << when << ", site " << s;
            ASSERT_EQ(ledger.formed(), expected.formed) << when;
            ASSERT_EQ(ledger.releasing(), expected.releasing) << when;
        };
        expectRecount("built");
        for (int step = 0; step < 2000; ++step)
        {
            const std::vector<IncrementalPartition::Change> changes =
                randomChanges(assignment, sites, generator);
            ledger.apply(changes);
            expectRecount("applied");
            if (step % 3 == 0) // tried and given up
            {
                ledger.revert(changes);
                for (const auto& change : changes)
                    assignment[change.region] = change.from;
                expectRecount("reverted");
            }
        }
    }
}

TEST(SuppressionLedger, FollowsMovesAndUndoesWithLDiversityOverManyValuesAsARecount)
{
    const std::size_t regionCount = 80, sites = 9;
    for (const bool weighted : {false, true})
    {
        std::mt19937_64 generator(weighted ? 37 : 41);
        const Dataset dataset = manyValues(regionCount, 60, 0.6, weighted, generator);
        const RegionSet regions(dataset, dataset.regionHistograms());
        const std::set<SensitiveValue> shared = sharedValues(dataset);
        std::vector<SiteIndex> regionSite(regionCount);
        for (RegionIndex r = 0; r < regionCount; ++r)
            regionSite[r] = SiteIndex(generator() % sites);
        for (const auto& [k, rule] : {std::pair{Count(2), DiversityRule{3, DiversityRule::Measure::Distinct}},
                                      std::pair{Count(3), DiversityRule{2, DiversityRule::Measure::Entropy}},
                                      std::pair{Count(2), DiversityRule{3, DiversityRule::Measure::Entropy}}})
        {
            SCOPED_TRACE(std::string(weighted ? "weighted" : "one record a row") +
                         ", k = " + std::to_string(k) + ", l = " + std::to_string(rule.l) +
                         (rule.measure == DiversityRule::Measure::Distinct ? " distinct" : " entropy"));
            std::vector<SiteIndex> assignment = regionSite;
            const Criteria criteria = test::criteriaOf(rule);
            SuppressionLedger ledger(regions, assignment, sites, k, &criteria);
            Count diversityOnly = 0; // records that only the rule withholds somewhere along the way
            const auto expectRecount = [&](const char* when)
            {
                const Recount expected = recount(dataset, assignment, sites, k, rule, shared);
                diversityOnly = std::max(diversityOnly,
                                         expected.withheld - recount(dataset, assignment, sites, k).withheld);
                ASSERT_EQ(ledger.withheld(), expected.withheld) << when;
                for (SiteIndex s = 0; s < sites; ++s)
                    ASSERT_EQ(ledger.withheld(s), expected.siteWithheld[s]) << when << ", site " << s;
                ASSERT_EQ(ledger.formed(), expected.formed) << when;
                ASSERT_EQ(ledger.releasing(), expected.releasing) << when;
                ASSERT_EQ(ledger.sensitiveCells(), expected.sharedCells) << when;
            };
            expectRecount("built");
            for (int step = 0; step < 400; ++step)
            {
                const std::vector<IncrementalPartition::Change> changes =
                    randomChanges(assignment, sites, generator);
                ledger.apply(changes);
                expectRecount("applied");
                if (step % 3 == 0)
                {
                    ledger.revert(changes);
                    for (const auto& change : changes)
                        assignment[change.region] = change.from;
                    expectRecount("reverted");
                }
            }
            // The rule decided something: the cases test more than k alone.
            EXPECT_GT(diversityOnly, 0u);
        }
    }
}

TEST(SuppressionLedger, HoldsTheSensitiveValuesGroupsHaveNotEveryValueForEveryGroup)
{
    // 400 regions each its own site at first, 20,000 records, about 16,000 values of the first field: a row
    // per (site, class) group over every value would take tens of millions of counts.
    const std::size_t regionCount = 400, sites = 400;
    std::mt19937_64 generator(43);
    const Dataset dataset = manyValues(regionCount, 100, 0.8, false, generator);
    const RegionSet regions(dataset, dataset.regionHistograms());
    const std::set<SensitiveValue> shared = sharedValues(dataset);
    std::vector<SiteIndex> assignment(regionCount);
    for (RegionIndex r = 0; r < regionCount; ++r)
        assignment[r] = SiteIndex(r);
    const Count k = 2;
    const DiversityRule rule{2, DiversityRule::Measure::Distinct};
    const Criteria criteria = test::criteriaOf(rule);
    SuppressionLedger ledger(regions, assignment, sites, k, &criteria);
    std::set<std::uint32_t> values;
    for (std::size_t row = 0; row < dataset.rows(); ++row)
        values.insert(dataset.rowSensitive(row, 0));
    ASSERT_GT(values.size(), 10000u);
    // A map at most half full that grew by doubling holds fewer than four slots per entry it ever held, and
    // neither cells nor per-field figures outnumber the (region, class, field, value) combinations.
    const std::size_t bound = 8 * regionCells(dataset) + 32;
    const auto expectSmall = [&](const char* when)
    {
        ASSERT_EQ(ledger.sensitiveCells(), recount(dataset, assignment, sites, k, rule, shared).sharedCells)
            << when;
        ASSERT_LE(ledger.sensitiveSlots(), bound) << when;
    };
    expectSmall("built");
    // Regions gathering into few sites and spreading out again: cells that empty must go.
    for (int step = 0; step < 3000; ++step)
    {
        ledger.apply(randomChanges(assignment, step < 1500 ? 5 : sites, generator));
        if (step % 500 == 499)
            expectSmall("moved");
    }
    // The bound tells sparse from dense: it is far below even one count per site and value.
    EXPECT_LT(bound, sites * values.size() / 10);
}

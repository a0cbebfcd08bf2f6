// SuppressionLedger against a brute-force recount from the regions' records after every move and undo:
// the counts the refinement and the region moves decide by.

#include "sitelocation/SuppressionLedger.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

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
};

Recount recount(const Dataset& dataset, const std::vector<SiteIndex>& regionSite, std::size_t sites, Count k)
{
    std::vector<std::map<ClassId, Count>> counts(sites);
    std::vector<Count> records(sites, 0);
    std::vector<bool> formed(sites, false);
    const HistogramTable histograms = dataset.regionHistograms();
    for (RegionIndex r = 0; r < regionSite.size(); ++r)
    {
        formed[regionSite[r]] = true;
        for (const ClassCount& entry : histograms.entries(r))
        {
            counts[regionSite[r]][entry.cls] += entry.count;
            records[regionSite[r]] += entry.count;
        }
    }
    Recount result;
    result.siteWithheld.assign(sites, 0);
    for (SiteIndex s = 0; s < sites; ++s)
    {
        for (const auto& [cls, count] : counts[s])
            if (count > 0 && count < k)
                result.siteWithheld[s] += count;
        result.withheld += result.siteWithheld[s];
        result.formed += formed[s];
        result.releasing += records[s] > result.siteWithheld[s];
    }
    return result;
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
            // One to three regions to other sites at once, as the refinement's site moves change them.
            std::vector<IncrementalPartition::Change> changes;
            for (std::size_t i = 0, moved = 1 + generator() % 3; i < moved; ++i)
            {
                const RegionIndex r = RegionIndex(generator() % regionCount);
                const SiteIndex to = SiteIndex(generator() % sites);
                if (to == assignment[r] ||
                    std::any_of(changes.begin(), changes.end(),
                                [&](const auto& change) { return change.region == r; }))
                    continue;
                changes.push_back({r, assignment[r], to});
                assignment[r] = to;
            }
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

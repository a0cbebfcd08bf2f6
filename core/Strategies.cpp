#include "Registry.h"

#include "boundary/AreaMoveRefiner.h"

#include "partition/BarrierPartitioner.h"
#include "partition/GeodesicPartitioner.h"
#include "partition/VoronoiPartitioner.h"
#include "privacy/KMap.h"
#include "privacy/LDiversity.h"
#include "privacy/TCloseness.h"
#include "quality/Metrics.h"
#include "sitecount/FixedCount.h"
#include "sitecount/GapsEntropyCount.h"
#include "sitecount/GapsMaxCombsCount.h"
#include "sitecount/NaiveAnonymityCount.h"
#include "sitecount/SuppressionBudgetCount.h"
#include "sitelocation/AdcRefiner.h"
#include "sitelocation/BalancedDensitySites.h"
#include "sitelocation/NaiveAnonymitySites.h"
#include "sitelocation/NaiveDensitySites.h"
#include "sitelocation/RandomSites.h"
#include "sitelocation/SuppressionRefiner.h"
#include "suppression/SmallClassSuppression.h"

namespace vbas
{
namespace
{
Registry makeBuiltIn()
{
    Registry r;
    r.siteCounters = {
        {"sitecount.gaps_maxcombs", "GAPS MaxCombs",
         "population cutoff from the product of category counts (lowest counts, least suppression)",
         &GapsMaxCombsCount::create, GapsCount::options()},
        {"sitecount.gaps_entropy", "GAPS Entropy",
         "population cutoff from the entropy of the quasi-identifier classes", &GapsEntropyCount::create,
         GapsCount::options()},
        {"sitecount.naive_anonymity", "Naive anonymity-based",
         "regions needed to reach k if classes were spread evenly (most sites, smallest regions)",
         &NaiveAnonymityCount::create, NaiveAnonymityCount::options()},
        {"sitecount.fixed", "Fixed number", "the number of regions given as site_count", &FixedCount::create,
         FixedCount::options()},
        {"sitecount.suppression_budget",
         "Most regions within the withholding budget",
         "the most regions whose release withholds at most the suppression_budget share of the records "
         "(tries the whole release at several numbers of regions; the finest map for a given loss)",
         &SuppressionBudgetCount::create,
         {},
         Needs{false, false, true}},
    };
    r.siteLocators = {
        {"sitelocation.balanced_density", "Balanced density",
         "cells of equal record population, one site each (least suppression)", &BalancedDensitySites::create,
         BalancedDensitySites::options()},
        {"sitelocation.naive_density", "Naive density",
         "equal grid cells, sites in proportion to the number of regions in each",
         &NaiveDensitySites::create},
        {"sitelocation.naive_anonymity", "Naive anonymity-based", "sites at the regions of lowest anonymity",
         &NaiveAnonymitySites::create},
        {"sitelocation.random", "Random",
         "uniform random sites in the bounding box (seeded by its seed option)", &RandomSites::create,
         RandomSites::options()},
    };
    r.siteRefiners = {
        {"refinement.adc", "Anonymity-driven clustering (ADC)",
         "moves sites one at a time towards the records of the rarest groups while anonymity rises (least "
         "suppression, slower)",
         &AdcRefiner::create, AdcRefiner::options(), Needs{}, "adc"},
        {"refinement.suppression", "Suppression-aware refinement",
         "moves sites one at a time while fewer records are withheld and no region is lost (least "
         "suppression at a given number of regions)",
         &SuppressionRefiner::create, SuppressionRefiner::options(), Needs{}, "refine_suppression"},
    };
    r.partitioners = {
        {"partition.voronoi", "Voronoi (Euclidean)",
         "each region joins the site nearest its representative point", &VoronoiPartitioner::create},
        {"partition.barrier",
         "Barrier (through neighbouring areas)",
         "regions join sites through shared borders that no obstacle cuts; aggregates are contiguous",
         &BarrierPartitioner::create,
         {},
         Needs{true, true}},
        {"partition.geodesic",
         "Geodesic (around obstacles)",
         "each region joins the site with the shortest path that goes around the obstacles",
         &GeodesicPartitioner::create,
         {},
         Needs{false, true}},
    };
    r.boundaryRefiners = {
        {"boundary.suppression", "Suppression-aware region moves",
         "after the partition, moves single areas to a bordering region while fewer records are withheld, "
         "the non-uniform entropy stays within boundary_entropy_slack and no region is lost or split; an "
         "area "
         "joins only a region it shares boundary_border_share of its border with (regions then differ from "
         "the cells of their sites)",
         &AreaMoveRefiner::create, AreaMoveRefiner::options(), Needs{true, false}, "refine_boundaries"},
    };

    r.suppressors = {
        {"suppression.small_classes",
         "Small classes",
         "withhold every record of a class smaller than k (k_counts: its records, or its people in the "
         "population)",
         &SmallClassSuppression::create,
         {KMap::option()}},
    };
    r.criteria = {
        {"criterion.l_diversity", "l-diversity",
         "every released group holds l well-represented values of every sensitive field (l; l_measure: "
         "distinct, "
         "entropy or recursive with c)",
         &LDiversity::create, LDiversity::options()},
        {"criterion.t_closeness", "t-closeness",
         "every released group's distribution of each sensitive field lies within t of the whole release's",
         &TCloseness::create, TCloseness::options()},
    };
    r.metrics = {
        {"quality.global_anonymity", "Global anonymity",
         "The smallest group of look-alike records (same region, same values) before any record was "
         "withheld; below k, records had to be withheld.",
         MetricUnit::Records, false, &GlobalAnonymityBefore::create},
        {"quality.global_anonymity_after", "Released anonymity",
         "The smallest group of look-alike records in the release (at least k): everyone released shares "
         "their region and values with at least this many records.",
         MetricUnit::Records, false, &GlobalAnonymityAfter::create},
        {"quality.anonymity_deviation", "Anonymity deviation",
         "How many records the smallest released group of a region holds beyond k, on average: protection "
         "paid for with geographic detail (0: every region just reaches k).",
         MetricUnit::Score, true, &AnonymityDeviation::create},
        {"quality.average_distance", "Average distance",
         "How far, on average, a small area lies from its region's site: about how far from where they "
         "live the release places people.",
         MetricUnit::Metres, true, &AverageDistance::create},
        {"quality.alternative_average_distance", "Alternative average distance",
         "The same, measured to the centre of the region's small areas rather than to its site.",
         MetricUnit::Metres, false, &AlternativeAverageDistance::create},
        {"quality.suppressed_global", "Suppressed globally",
         "Records whose combination of values fewer than k records share in the whole data set: no "
         "region could hide them, so they were withheld first.",
         MetricUnit::Records, false, &SuppressedGlobal::create},
        {"quality.suppressed_local", "Suppressed locally",
         "Records left in groups of fewer than k in their region, withheld.", MetricUnit::Records, false,
         &SuppressedLocal::create},
        {"quality.suppressed_diversity", "Withheld for the sensitive values",
         "Records in groups whose sensitive values vary too little or stray too far from the release's "
         "(l-diversity, t-closeness: releasing them would tell the sensitive value of the group), withheld.",
         MetricUnit::Records, false, &SuppressedDiversity::create},
        {"quality.suppressed", "Suppressed",
         "All withheld records: people missing from every analysis of the release.", MetricUnit::Records,
         true, &SuppressedTotal::create},
        {"quality.precision_loss", "Precision loss",
         "How far the small areas were merged, on a logarithmic scale: 0 each its own region, 1 all in one; "
         "p means regions of about m^p of the m small areas (0.5 for 470 areas: about 22 each).",
         MetricUnit::Score, true, &PrecisionLoss::create},
        {"quality.discernibility", "Discernibility",
         "Each released record counted with the size of its look-alike group: divided by the records "
         "released, the size of the group a record hides in on average (lower keeps more detail).",
         MetricUnit::Score, true, &Discernibility::create},
        {"quality.discernibility_penalized", "Discernibility with suppression",
         "Discernibility with every withheld record counted as hidden among all the records: compares "
         "releases that withhold different numbers.",
         MetricUnit::Score, false, &DiscernibilityPenalized::create},
        {"quality.non_uniform_entropy", "Non-uniform entropy",
         "The bits it would take to tell each released record's small area within its region, summed: "
         "divided by the records released, b bits mean a record could live in any of about 2^b small "
         "areas (lower keeps more geographic detail).",
         MetricUnit::Score, true, &NonUniformEntropy::create},
    };
    return r;
}
} // namespace

namespace
{
template <typename Entry> const OptionSpec* findIn(const std::vector<Entry>& entries, const std::string& key)
{
    for (const Entry& entry : entries)
        for (const OptionSpec& spec : entry.options)
            if (spec.key == key)
                return &spec;
    return nullptr;
}
} // namespace

const OptionSpec* Registry::findOption(const std::string& key) const
{
    for (const OptionSpec* spec :
         {findIn(siteCounters, key), findIn(siteLocators, key), findIn(siteRefiners, key),
          findIn(partitioners, key), findIn(boundaryRefiners, key), findIn(suppressors, key),
          findIn(criteria, key)})
        if (spec != nullptr)
            return spec;
    return nullptr;
}

void Registry::checkKnownOptions(const StrategyOptions& values) const
{
    for (const std::string& key : values.keys())
        if (findOption(key) == nullptr)
            throw optionError(key, "no strategy has this option; check its spelling");
}

const Registry& Registry::builtIn()
{
    static const Registry registry = makeBuiltIn();
    return registry;
}

} // namespace vbas

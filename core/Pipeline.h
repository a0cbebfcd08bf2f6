#pragma once

#include "Job.h"
#include "Registry.h"
#include "base/Feedback.h"
#include "boundary/BoundaryRefiner.h"
#include "data/RegionSet.h"
#include "generalization/GeneralizationReport.h"
#include "generalization/Hierarchy.h"
#include "geometry/ClippedCells.h"
#include "geometry/Dissolve.h"
#include "model/Aggregation.h"
#include "partition/ContiguityRepair.h"
#include "partition/SpatialContext.h"
#include "privacy/Criteria.h"
#include "privacy/KMap.h"
#include "privacy/PublishedColumns.h"
#include "quality/AggregateFigures.h"
#include "sitelocation/SiteRefiner.h"
#include "suppression/SuppressionOutcome.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vbas
{

class ReleaseProbe;
class SiteCounter;
class SiteLocator;
class SiteRefiner;
class Partitioner;
class Suppressor;

/**
 * A configured run: k, global suppression, one strategy id per component with their
 * options, the suppression budget and the generalization spec. Pure configuration: the data a run works on is
 * its Job.
 */
struct PipelineConfig
{
    Count k = 5;
    bool globalSuppression = true;
    std::string siteCounter = "sitecount.gaps_maxcombs";
    std::string siteLocator = "sitelocation.balanced_density";
    /** Refinement of the located sites (e.g. "refinement.adc"); empty for none. */
    std::string siteRefiner;
    std::string partitioner = "partition.voronoi";
    /** Region moves between bordering aggregates after the partition (e.g. "boundary.suppression"); empty for
     * none. */
    std::string boundaryRefiner;
    std::string suppressor = "suppression.small_classes";
    /** Options of the strategies by key (see each entry's options); unset ones take their defaults. */
    StrategyOptions options;
    /**
     * Most records a release may withhold, percent of all records, in (0, 100] (suppressionBudgetOption()):
     * what sitecount.suppression_budget finds the most regions within, and the limit of the generalization
     * search.
     */
    double suppressionBudget = 1.0;
    /**
     * How the quasi-identifiers may be generalized (SPEC section 12); prepareHierarchies() builds the
     * hierarchies from it and the dataset's values. Empty: released as they are.
     */
    Generalization generalization;
    /** Move stranded pieces of aggregates to an adjacent aggregate before suppression (needs adjacency). */
    bool repairContiguity = false;
    /** Regions closer than this are neighbours (slivers, gaps); 0 takes a millionth of their extent. */
    double adjacencyTolerance = 0.0;
    /**
     * Whether a site-count search may release two counts side by side on a machine with two cores (the
     * counts it tries and its result are the same either way; off: one core).
     */
    bool releasesSideBySide = true;
};

/**
 * The release a new user gets (SPEC section 11): the most regions whose refined release withholds at
 * most 1 % of the records (sitecount.suppression_budget with refinement.suppression and
 * boundary.suppression, which needs the region polygons or the adjacency). PipelineConfig{}
 * stays the thesis's method (GAPS MaxCombs, balanced density, no refinement).
 */
PipelineConfig recommendedConfig();

/** The data set ready for the stages: k checked, global suppression applied (SPEC steps 1-2). */
struct PreparedData
{
    const Dataset* dataset;
    Count k;
    /** Per class: withheld by global suppression. */
    std::vector<bool> classGloballySuppressed;
    Count globallySuppressed;
    RegionSet regions;
    /** Records of each region after global suppression. */
    std::vector<Count> regionWeights;
    /** The job's obstacles, and its region adjacency when the run needs it. */
    SpatialContext spatial;
    /** The job's parent of every region (empty: no constraint). */
    std::vector<std::uint32_t> regionParent;
    /** The difference rule against the earlier releases on this release's aggregation (the job's earlier). */
    std::shared_ptr<const DifferenceRule> differences;
    /** The regions' points in spatial order, made once for the many partitions of a search. */
    std::shared_ptr<const std::vector<std::size_t>> regionOrder;
    /** Under k-map, the people of every small area in every class: k counts them. Null: k counts records. */
    std::shared_ptr<const ClassPopulation> population;

    /** What every released group is held to: k (over records or the population) and the criteria. */
    ReleaseRule rule(const Criteria& criteria) const { return {k, &criteria, population.get()}; }

    PartitionInput partitionInput() const
    {
        return {regions.points(), regionWeights, spatial, regionOrder.get()};
    }
};

/** One release a site-count search tried (through its ReleaseProbe). */
struct SiteCountTrial
{
    std::uint64_t sites = 0;
    /** With the configured refinement (false: the sites as located, the partition as it is). */
    bool refined = false;
    Count withheld = 0;
};

/** What a site counter that searches releases (sitecount.suppression_budget) tried, for the report. */
struct SiteCountSearch
{
    /** Records of the data set, withheld ones included. */
    Count records = 0;
    /** The suppression budget: at most this many records withheld (budgetPercent of `records`). */
    Count budget = 0;
    double budgetPercent = 0.0;
    /** In the order the search tried them; a count tried twice (refined and not) appears twice. */
    std::vector<SiteCountTrial> trials;
};

struct MetricValue
{
    std::string id;
    double value;
};

/** What a run releases and how good it is. */
struct PipelineResult
{
    Count k = 0;
    /** Whether k counted the people of the population table (k-map) rather than the records. */
    bool kMap = false;
    /** The criteria besides k every released group was held to, in words ("distinct 2-diversity"); empty:
     * none.
     */
    std::string criteria;
    /** The site-count estimate before clamping (0 when the sites were given). */
    std::uint64_t estimatedSites = 0;
    /** Sites asked of the locator (the clamped estimate), or the number of given sites. */
    std::uint64_t requestedSites = 0;
    /** The releases the site counter tried, when it searched them. */
    std::optional<SiteCountSearch> siteCountSearch;
    /** What the contiguity repair did, when it ran. */
    std::optional<ContiguityReport> contiguity;
    /** What the site refinement did, when one ran. */
    std::optional<RefinementReport> refinement;
    /** What the boundary refinement did, when one ran. */
    std::optional<RefinementReport> boundary;
    Partition partition;
    Aggregation aggregation;
    SuppressionOutcome suppression;
    std::vector<bool> classGloballySuppressed;
    std::vector<AggregateFigures> aggregates;
    /** Every registered metric, in registry order. */
    std::vector<MetricValue> metrics;

    /** Value of metric `id`; throws Error(Strategy) for an unknown id. */
    double metric(const std::string& id) const;
    /** The Pareto objective vector of this result (registry order). */
    std::vector<double> objectives(const Registry& registry) const;
};

/** What happened to an input row. */
enum class RecordFate : std::uint8_t
{
    Released,
    SuppressedGlobally,
    SuppressedLocally,
    Dropped,              //!< its region is unknown and the dataset dropped it
    SuppressedDiversity,  //!< its group holds k or more records but fails a criterion (l-diversity...)
    SuppressedDifference, //!< its group's count differs from an earlier release's by 1 to k - 1
    SuppressedSmallRow,   //!< its group is released, but the count row it would be published in holds < k
};

/** What a release needs beyond the pipeline's result. */
struct ReleaseRequest
{
    /** The Voronoi cell of every site clipped to the study area (needs the job's geometries). */
    bool cells = false;
    /**
     * The level of every quasi-identifier to release at by name (Hierarchy::levelNamed(); "0" for one without
     * a hierarchy), for a release on a given aggregation (releaseGroups()) with the hierarchies, as an
     * earlier release's ledger entry gives them; empty: the values as they are.
     */
    std::vector<std::string> levels;
    /**
     * Hierarchies of one's own for the job's quasi-identifiers (tests, benchmarks); null:
     * prepareHierarchies() builds them from the configuration's generalization. The result carries those it
     * used.
     */
    const Hierarchies* hierarchies = nullptr;
    /**
     * The fields published besides the region and the quasi-identifiers: the release checks them
     * (ReleaseResult::fieldChecks). Null: none.
     */
    const PublishedFields* published = nullptr;
};

/** A whole release: what its outputs publish and what its review shows, in the job's planar frame. */
struct ReleaseResult
{
    PipelineResult result;
    /** Per aggregate: its dissolved polygon (empty without the job's geometries). */
    std::vector<DissolvedAggregate> polygons;
    /** Per site: its Voronoi or power cell clipped to the study area, or why it has none (empty unless asked
     * for). */
    ClippedCells cells;
    /** Per input row of the dataset: released, or why not. */
    std::vector<RecordFate> fates;
    /** The levels the hierarchies were released at and how they were chosen (only with hierarchies). */
    std::optional<GeneralizationReport> generalization;
    /** What the checks of the request's published fields found; a refused field must not be published. */
    FieldChecks fieldChecks;

    /** The hierarchies the release is labelled with; null: its values are as they are. */
    const Hierarchies* hierarchies() const
    {
        return generalization ? generalization->hierarchies.get() : nullptr;
    }
    /** The level of every quasi-identifier; empty: as they are. */
    std::vector<std::size_t> levels() const
    {
        return generalization ? generalization->levels : std::vector<std::size_t>();
    }
};

/** The first stage alone, with the figures it rests on. */
struct SiteCountEstimate
{
    /** The site count a release would use: the estimate clamped to [1, regionsWithRecords]. */
    std::uint64_t sites = 0;
    std::uint64_t unclamped = 0;
    /** Records after global suppression (N). */
    Count releasableRecords = 0;
    std::size_t regionsWithRecords = 0;
    /** Product of the category counts of the quasi-identifiers (NULL a category). */
    long double maxCombs = 0.0L;
};

/**
 * The facade: runs a configured pipeline (SPEC section 2) on a Job, as a whole release, as one stage
 * alone, or stage by stage. Strategies are created once from their ids; unknown ids, unknown option keys
 * or option values outside a chosen strategy's specs throw Error at construction, before any data is read.
 */
class Pipeline
{
public:
    explicit Pipeline(PipelineConfig config, const Registry& registry = Registry::builtIn());
    ~Pipeline();

    const PipelineConfig& config() const { return mConfig; }
    /** The privacy criteria besides k that the configuration's options turn on (l-diversity...). */
    const Criteria& criteria() const { return mCriteria; }
    /** Whether k counts the people of the job's population table (k-map) rather than the records. */
    bool kMap() const { return mKMap; }
    const Registry& registry() const { return mRegistry; }

    /** What the chosen strategies and the contiguity repair need of a job, together. */
    Needs needs() const;

    /** The release of a partition around given sites (no site count, location or refinement). */
    ReleaseResult releaseAroundSites(const Job& job, Sites sites, const ReleaseRequest& request,
                                     Feedback& feedback) const;
    /**
     * The release of an existing aggregation given as a group per region (groups 0..groups-1, none empty),
     * rated as the engine's own, at the request's levels of the hierarchies, keeping its differences with
     * the job's earlier cells (SPEC section 13).
     */
    ReleaseResult releaseGroups(const Job& job, const std::vector<std::uint32_t>& regionGroup,
                                std::size_t groups, const ReleaseRequest& request, Feedback& feedback) const;
    /** The site-count stage alone. */
    SiteCountEstimate estimateSites(const Job& job, Feedback& feedback) const;
    /** The site stages alone: count, location and refinement (when configured). */
    Sites selectSites(const Job& job, Feedback& feedback) const;

    /**
     * Checks k and the criteria against the data, applies global suppression (when configured)
     * and builds the region adjacency when needs() asks for it and the job lacks it.
     */
    PreparedData prepare(const Job& job, Feedback& feedback) const;
    /**
     * The hierarchies of the configuration's generalization on `dataset` (buildHierarchies() with its
     * quasi-identifiers' names, values and records, and k), in schema order; empty when the spec is empty or
     * gives no quasi-identifier a hierarchy. Says in `feedback` which numbers it banded automatically. Throws
     * Error(Generalization) as buildHierarchies() does, and when the dataset lacks the values.
     */
    Hierarchies prepareHierarchies(const Dataset& dataset, Feedback& feedback) const;
    /** Site-count estimate clamped to [1, non-empty regions]; `raw` receives the unclamped one. */
    std::uint64_t estimateSiteCount(const PreparedData& data, Feedback& feedback,
                                    std::uint64_t* raw = nullptr) const;
    /** The same through `probe`, which keeps the releases a searching counter tried (PipelineProbe). */
    std::uint64_t estimateSiteCount(const PreparedData& data, ReleaseProbe& probe, Feedback& feedback,
                                    std::uint64_t* raw) const;
    std::vector<Point> locateSites(const PreparedData& data, std::size_t count, Feedback& feedback) const;
    /** Refines the sites when a refiner is configured (else returns them unchanged and no report). */
    Sites refineSites(const PreparedData& data, std::vector<Point> seeds,
                      std::optional<RefinementReport>& report, Feedback& feedback) const;
    /**
     * The refinement continued at `count` sites from `refined`, the refined sites of another count and their
     * report (SiteRefiner::resume()); nullopt when the refiner cannot, or without one.
     */
    std::optional<Sites> resumeRefinement(const PreparedData& data, const Sites& refined,
                                          const RefinementReport& refinedReport, std::size_t count,
                                          std::optional<RefinementReport>& report, Feedback& feedback) const;
    /** Sites partitioned as finish() does: after the contiguity repair and the region moves, with their
     * reports. */
    struct PartitionedSites
    {
        Partition partition;
        std::optional<ContiguityReport> contiguity;
        std::optional<RefinementReport> boundary;
    };
    /** Partition with the given sites, local suppression and rating. */
    PipelineResult finish(const PreparedData& data, Sites sites, Feedback& feedback) const;
    /** finish() on sites partitioned already (by withheld()). */
    PipelineResult finish(const PreparedData& data, PartitionedSites partitioned, Feedback& feedback) const;
    /**
     * The records finish() would withhold (global, local, criteria), without rating the release;
     * `refined` false: without the boundary refinement (the partition of the sites as it is). `partitioned`,
     * when given, receives the partition, so that finish() need not make it again.
     */
    Count withheld(const PreparedData& data, Sites sites, Feedback& feedback, bool refined = true,
                   PartitionedSites* partitioned = nullptr) const;
    /** Rates an existing aggregation given as a group per region (groups 0..groups-1, none empty). */
    PipelineResult rateGroups(const PreparedData& data, const std::vector<std::uint32_t>& regionGroup,
                              std::size_t groups, Feedback& feedback) const;
    /**
     * All stages. `located`: releases without refinement already made of the job's prepared records (the
     * generalization search's of its chosen node), which the site-count search takes instead of making them
     * again.
     */
    PipelineResult run(const Job& job, Feedback& feedback,
                       const std::vector<SiteCountTrial>& located = {}) const;
    /** The request's hierarchies, else those prepareHierarchies() builds on `dataset`. */
    std::shared_ptr<const Hierarchies> hierarchiesOf(const ReleaseRequest& request, const Dataset& dataset,
                                                     Feedback& feedback) const;
    /** Gives `report` the hierarchies a release used and what they were built as (the ledger's record). */
    void recordHierarchies(GeneralizationReport& report,
                           std::shared_ptr<const Hierarchies> hierarchies) const;
    /**
     * The release of a result of `released` (`job` at the levels of `generalization`, or `job` itself): with
     * the polygons, the cells when asked for, the fates and the checks of the published fields on `job`'s
     * rows.
     */
    ReleaseResult complete(const Job& job, const Job& released, PipelineResult result,
                           std::optional<GeneralizationReport> generalization, const ReleaseRequest& request,
                           Feedback& feedback) const;

private:
    /** The site stages on prepared data: the count, and its sites located and refined. */
    struct SelectedSites
    {
        std::uint64_t count = 0;
        /** The site-count estimate before clamping. */
        std::uint64_t estimate = 0;
        Sites sites;
        std::optional<RefinementReport> refinement;
        std::optional<SiteCountSearch> search;
        /** The partition of `sites` when the site counter released them already. */
        std::optional<PartitionedSites> partitioned;
    };
    /**
     * The site stages; a count the site counter tried refined keeps the sites it was tried with, so the
     * release is the one the search measured.
     */
    SelectedSites selectSites(const PreparedData& data, Feedback& feedback,
                              const std::vector<SiteCountTrial>& located = {}) const;
    /**
     * A partition around sites, repaired when contiguity is asked for, refined by the boundary refinement
     * unless `refined` is false, and its aggregation.
     */
    PartitionedSites partitionSites(const PreparedData& data, Sites sites, Feedback& feedback,
                                    bool refined = true) const;
    PipelineResult rate(const PreparedData& data, Partition partition, Aggregation aggregation,
                        Feedback& feedback) const;
    /** The partitioner with the data's parent constraint, when it has parents, in `constrained`. */
    const Partitioner& partitioner(const PreparedData& data, std::unique_ptr<Partitioner>& constrained) const;

    PipelineConfig mConfig;
    const Registry& mRegistry;
    Criteria mCriteria;
    /** Whether k counts the job's population (k-map, option k_counts) rather than the records. */
    bool mKMap = false;
    std::unique_ptr<SiteCounter> mSiteCounter;
    std::unique_ptr<SiteLocator> mSiteLocator;
    std::unique_ptr<SiteRefiner> mSiteRefiner;
    std::unique_ptr<Partitioner> mPartitioner;
    std::unique_ptr<BoundaryRefiner> mBoundaryRefiner;
    std::unique_ptr<Suppressor> mSuppressor;
};

/** The fate of every input row of `dataset` in `result`. */
std::vector<RecordFate> recordFates(const Dataset& dataset, const PipelineResult& result);

/** Attribute loss of a release: the mean class loss (classLoss()) of its released records. */
double releasedLoss(const PipelineResult& result, const std::vector<double>& lossOfClass);

} // namespace vbas

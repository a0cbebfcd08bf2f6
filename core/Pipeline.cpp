#include "Pipeline.h"
#include "PipelineProbe.h"
#include "generalization/GeneralizedData.h"
#include "sitecount/SuppressionBudget.h"

#include "partition/ParentConstrainedPartitioner.h"
#include "partition/Partitioner.h"
#include "partition/SpatialOrder.h"

#include "quality/Metric.h"
#include "sitecount/SiteCounter.h"
#include "sitelocation/SiteLocator.h"
#include "suppression/Suppressor.h"

#include <algorithm>
#include <exception>
#include <map>
#include <optional>
#include <sstream>

namespace vbas
{

double PipelineResult::metric(const std::string& id) const
{
    for (const MetricValue& value : metrics)
        if (value.id == id)
            return value.value;
    throw Error(Subject::Strategy, "no metric '" + id + "' in this result");
}

std::vector<double> PipelineResult::objectives(const Registry& registry) const
{
    std::vector<double> vector;
    for (const MetricEntry& entry : registry.metrics)
        if (entry.paretoObjective)
            vector.push_back(metric(entry.id));
    return vector;
}

Pipeline::Pipeline(PipelineConfig config, const Registry& registry)
    : mConfig(std::move(config))
    , mRegistry(registry)
{
    const StrategyOptions& options = mConfig.options;
    registry.checkKnownOptions(options);
    checkSuppressionBudget(mConfig.suppressionBudget);
    mCriteria = Criteria::fromOptions(registry, options);
    mKMap = KMap::on(options);
    mSiteCounter =
        Registry::find(registry.siteCounters, mConfig.siteCounter, "site-count method").make(options);
    mSiteLocator =
        Registry::find(registry.siteLocators, mConfig.siteLocator, "site-location method").make(options);
    if (!mConfig.siteRefiner.empty())
        mSiteRefiner =
            Registry::find(registry.siteRefiners, mConfig.siteRefiner, "site refinement").make(options);
    mPartitioner =
        Registry::find(registry.partitioners, mConfig.partitioner, "partition method").make(options);
    if (!mConfig.boundaryRefiner.empty())
        mBoundaryRefiner =
            Registry::find(registry.boundaryRefiners, mConfig.boundaryRefiner, "boundary refinement")
                .make(options);
    mSuppressor =
        Registry::find(registry.suppressors, mConfig.suppressor, "suppression method").make(options);
}

Pipeline::~Pipeline() = default;

Needs Pipeline::needs() const
{
    Needs needs;
    const auto add = [&needs](const auto& entries, const std::string& id)
    {
        if (id.empty())
            return;
        const Needs more = Registry::find(entries, id, "strategy").needs;
        needs.adjacency = needs.adjacency || more.adjacency;
        needs.obstacles = needs.obstacles || more.obstacles;
    };
    add(mRegistry.siteCounters, mConfig.siteCounter);
    add(mRegistry.siteLocators, mConfig.siteLocator);
    add(mRegistry.siteRefiners, mConfig.siteRefiner);
    add(mRegistry.partitioners, mConfig.partitioner);
    add(mRegistry.boundaryRefiners, mConfig.boundaryRefiner);
    add(mRegistry.suppressors, mConfig.suppressor);
    needs.adjacency = needs.adjacency || mConfig.repairContiguity;
    return needs;
}

namespace
{
/**
 * Warns when the combinations of quasi-identifier values there can be (MaxCombs) outnumber the records: with
 * thousands of categories nearly every record is unique, and no geography hides a unique record.
 */
void warnOfMaxCombs(const Dataset& dataset, Feedback& feedback)
{
    const Schema& schema = dataset.schema();
    const long double maxCombs = schema.maxCombs();
    if (schema.empty() || maxCombs <= static_cast<long double>(dataset.totalRecords()))
        return;
    std::ostringstream line;
    line << "quasi-identifiers: ";
    for (std::size_t i = 0; i < schema.size(); ++i)
        line << (i > 0 ? " x " : "") << schema.categories(i);
    line << " = ";
    if (maxCombs < 1e15L)
        line << static_cast<unsigned long long>(maxCombs);
    else
        line << static_cast<double>(maxCombs);
    line << " possible combinations of values (MaxCombs, NULL a value of its own) for "
         << dataset.totalRecords() << " records";
    feedback.warning(line.str() + "; more combinations than records: many records may be unique and "
                                  "suppressed whatever the geography; fewer or coarser quasi-identifiers "
                                  "keep more");
}
} // namespace

PreparedData Pipeline::prepare(const Job& job, Feedback& feedback) const
{
    const Dataset& dataset = *job.dataset;
    const Count k = mConfig.k;
    if (k < 2)
        throw Error(Subject::K,
                    "k must be at least 2 (got " + std::to_string(k) +
                        "): with k = 1 every record is a group of its own; use 2 or more, e.g. 5");
    std::shared_ptr<const ClassPopulation> population;
    if (mKMap)
    {
        if (job.population == nullptr)
            throw optionError(KMap::option().key,
                              "k-map counts the people of a population table, but none is given; give the "
                              "people per small area, age band and sex, or let k count the records");
        population =
            std::make_shared<const ClassPopulation>(ClassPopulation::build(*job.population, dataset));
    }
    else if (const Count n = dataset.totalRecords(); k > n)
        throw Error(Subject::K, "k = " + std::to_string(k) + " is larger than the " + std::to_string(n) +
                                    " records: no group can ever reach it; lower k or release more records");

    mCriteria.check(dataset);
    if (!job.regionParent.empty() && job.regionParent.size() != dataset.regionCount())
        throw Error(Subject::Partition,
                    "the parents are given for " + std::to_string(job.regionParent.size()) +
                        " regions, but there are " + std::to_string(dataset.regionCount()));
    warnOfMaxCombs(dataset, feedback);

    const HistogramTable& regionHistograms = dataset.regionHistograms();
    const std::size_t classCount = dataset.classes().size();
    std::vector<bool> classSuppressed(classCount, false);
    Count globallySuppressed = 0;
    if (mConfig.globalSuppression)
    {
        // The whole data set as one group: a class below k there stays below k in any aggregate.
        const HistogramTable whole = regionHistograms.mergeGroups(
            std::vector<std::uint32_t>(regionHistograms.size(), 0), 1, classCount);
        std::vector<bool> suppressed;
        if (population)
        {
            // Under k-map a class is withheld everywhere when the whole population holds fewer than k of it.
            const std::vector<Count> people = population->totals();
            for (const ClassCount& entry : whole.allEntries())
                suppressed.push_back(people[entry.cls] < k);
        }
        else
            suppressed = mSuppressor->suppress(whole, k, feedback);
        for (std::size_t e = 0; e < suppressed.size(); ++e)
            if (suppressed[e])
            {
                classSuppressed[whole.allEntries()[e].cls] = true;
                globallySuppressed += whole.allEntries()[e].count;
            }
    }
    std::vector<bool> keep(regionHistograms.allEntries().size());
    for (std::size_t e = 0; e < keep.size(); ++e)
        keep[e] = !classSuppressed[regionHistograms.allEntries()[e].cls];
    PreparedData data{&dataset,
                      k,
                      std::move(classSuppressed),
                      globallySuppressed,
                      RegionSet(dataset, regionHistograms.filterEntries(keep)),
                      {},
                      job.spatial,
                      job.regionParent,
                      {},
                      {},
                      std::move(population)};
    for (RegionIndex r = 0; r < data.regions.size(); ++r)
        data.regionWeights.push_back(data.regions.records(r));
    data.regionOrder = std::make_shared<const std::vector<std::size_t>>(spatialOrder(data.regions.points()));
    if (data.regions.totalRecords() == 0)
        feedback.warning(
            "global suppression withheld every record: no combination of quasi-identifier values "
            "occurs k times in the whole data set; use fewer quasi-identifiers, coarser categories "
            "or a smaller k");
    const std::size_t empty = data.regions.size() - data.regions.nonEmptyCount();
    if (empty > 0)
        feedback.info(
            std::to_string(empty) + " of " + std::to_string(data.regions.size()) +
            (empty == 1
                 ? " small areas holds no records to release; it still joins the region of its nearest site"
                 : " small areas hold no records to release; they still join the region of their nearest "
                   "site"));

    const Needs needed = needs();
    if (job.spatial.obstacles && !needed.obstacles)
        feedback.warning(mConfig.partitioner +
                         " ignores obstacles; they take effect with a partition that uses them");
    if (needed.adjacency && !data.spatial.adjacency)
    {
        if (job.geometries == nullptr)
        {
            const bool partitionNeeds =
                Registry::find(mRegistry.partitioners, mConfig.partitioner, "partition method")
                    .needs.adjacency;
            throw Error(Subject::Partition,
                        (partitionNeeds                     ? mConfig.partitioner
                         : !mConfig.boundaryRefiner.empty() ? mConfig.boundaryRefiner
                                                            : std::string("the contiguity repair")) +
                            " needs the region polygons to know which areas are neighbours");
        }
        const RegionGeometries& geometries = *job.geometries;
        data.spatial.adjacency = std::make_shared<const RegionAdjacency>(
            RegionAdjacency::build(geometries,
                                   mConfig.adjacencyTolerance > 0.0 ? mConfig.adjacencyTolerance
                                                                    : defaultAdjacencyTolerance(geometries),
                                   feedback));
    }
    return data;
}

Hierarchies Pipeline::prepareHierarchies(const Dataset& dataset, Feedback& feedback) const
{
    const Generalization& generalization = mConfig.generalization;
    if (generalization.empty())
        return {};
    if (dataset.quasiIdentifierValues().size() != dataset.schema().size())
        throw Error(Subject::Generalization, "the generalization needs the values of the quasi-identifiers");
    std::vector<std::string> names;
    for (std::size_t j = 0; j < dataset.schema().size(); ++j)
        names.push_back(dataset.schema().at(j).name);
    Hierarchies hierarchies =
        buildHierarchies(generalization.specs, generalization.tables, names, dataset.quasiIdentifierValues(),
                         {categoryRecords(dataset), mConfig.k, generalization.bandNumbers});
    if (!generalizes(hierarchies))
        hierarchies.clear();
    for (const auto& qi : hierarchies)
        if (qi && qi->automatic)
            feedback.info(
                qi->spec.field + ": numbers, banded automatically as '" + qi->spec.text() +
                "' (the bands for its range, the sparse ends coded until each holds k records; never "
                "removed unless allowed). In GENERALIZATION, '" +
                qi->spec.field + ": none' keeps the values as they are, '" + qi->spec.field +
                ": auto max *' allows "
                "removing " +
                qi->spec.field);
    return hierarchies;
}

std::shared_ptr<const Hierarchies> Pipeline::hierarchiesOf(const ReleaseRequest& request,
                                                           const Dataset& dataset, Feedback& feedback) const
{
    return std::make_shared<const Hierarchies>(
        request.hierarchies != nullptr ? *request.hierarchies : prepareHierarchies(dataset, feedback));
}

void Pipeline::recordHierarchies(GeneralizationReport& report,
                                 std::shared_ptr<const Hierarchies> hierarchies) const
{
    report.builtAs = mConfig.generalization.builtAs(*hierarchies);
    report.hierarchies = std::move(hierarchies);
}

const Partitioner& Pipeline::partitioner(const PreparedData& data,
                                         std::unique_ptr<Partitioner>& constrained) const
{
    if (data.regionParent.empty())
        return *mPartitioner;
    constrained = std::make_unique<ParentConstrainedPartitioner>(*mPartitioner, data.regionParent);
    return *constrained;
}

std::uint64_t Pipeline::estimateSiteCount(const PreparedData& data, Feedback& feedback,
                                          std::uint64_t* raw) const
{
    PipelineProbe probe(*this, data);
    return estimateSiteCount(data, probe, feedback, raw);
}

std::uint64_t Pipeline::estimateSiteCount(const PreparedData& data, ReleaseProbe& probe, Feedback& feedback,
                                          std::uint64_t* raw) const
{
    const std::uint64_t estimate = mSiteCounter->estimate(data.regions, data.k, probe, feedback);
    if (raw != nullptr)
        *raw = estimate;
    const std::uint64_t clamped = clampSiteCount(estimate, data.regions);
    if (clamped != estimate)
        feedback.warning("the site-count estimate " + std::to_string(estimate) + " was clamped to " +
                         std::to_string(clamped) + " (between 1 and the " +
                         std::to_string(data.regions.nonEmptyCount()) + " regions that hold records)");
    return clamped;
}

Pipeline::SelectedSites Pipeline::selectSites(const PreparedData& data, Feedback& feedback,
                                              const std::vector<SiteCountTrial>& located) const
{
    SelectedSites selected;
    PipelineProbe probe(*this, data);
    probe.knowLocated(located);
    selected.count = estimateSiteCount(data, probe, feedback, &selected.estimate);
    if (!probe.trials().empty())
    {
        const double percent = mConfig.suppressionBudget;
        selected.search = SiteCountSearch{probe.records(), suppressionBudget(probe.records(), percent),
                                          percent, probe.trials()};
    }
    if (std::optional<RefinedSites> tried = probe.refined(selected.count); tried && mSiteRefiner)
    {
        selected.sites = std::move(tried->sites);
        selected.refinement = std::move(tried->report);
        selected.partitioned = std::move(tried->partitioned);
        return selected;
    }
    {
        Feedback::Stage stage(feedback, 0.0, 0.2);
        selected.sites = locateSites(data, selected.count, feedback);
    }
    Feedback::Stage stage(feedback, 0.2, 1.0);
    selected.sites = refineSites(data, std::move(selected.sites.points), selected.refinement, feedback);
    return selected;
}

std::vector<Point> Pipeline::locateSites(const PreparedData& data, std::size_t count,
                                         Feedback& feedback) const
{
    return mSiteLocator->locate(data.regions, count, feedback);
}

Sites Pipeline::refineSites(const PreparedData& data, std::vector<Point> seeds,
                            std::optional<RefinementReport>& report, Feedback& feedback) const
{
    if (!mSiteRefiner)
        return seeds;
    report.emplace();
    std::unique_ptr<Partitioner> constrained;
    return mSiteRefiner->refine(data.regions, data.partitionInput(), data.rule(mCriteria),
                                partitioner(data, constrained), std::move(seeds), *report, feedback);
}

std::optional<Sites> Pipeline::resumeRefinement(const PreparedData& data, const Sites& refined,
                                                const RefinementReport& refinedReport, std::size_t count,
                                                std::optional<RefinementReport>& report,
                                                Feedback& feedback) const
{
    if (!mSiteRefiner)
        return std::nullopt;
    std::unique_ptr<Partitioner> constrained;
    RefinementReport continued;
    std::optional<Sites> sites = mSiteRefiner->resume(data.regions, data.partitionInput(),
                                                      data.rule(mCriteria), partitioner(data, constrained),
                                                      refined, refinedReport, count, continued, feedback);
    if (sites)
        report = std::move(continued);
    return sites;
}

Pipeline::PartitionedSites Pipeline::partitionSites(const PreparedData& data, Sites sites, Feedback& feedback,
                                                    bool refined) const
{
    PartitionedSites out;
    {
        Feedback::Stage stage(feedback, 0.0, 0.6);
        std::unique_ptr<Partitioner> constrained;
        out.partition =
            partitioner(data, constrained).partition(data.partitionInput(), std::move(sites), feedback);
    }
    if (mConfig.repairContiguity)
    {
        out.contiguity = repairContiguity(*data.spatial.adjacency, data.regionWeights, data.regionParent,
                                          out.partition.regionSite);
    }
    if (mBoundaryRefiner && refined)
    {
        Feedback::Stage stage(feedback, 0.6, 0.9);
        RefinementReport report;
        mBoundaryRefiner->refine(
            {data.regions, *data.spatial.adjacency, data.spatial.obstacles.get(), data.regionParent},
            data.rule(mCriteria), out.partition.regionSite, out.partition.sites.size(), report, feedback);
        out.boundary = report;
    }
    return out;
}

PipelineResult Pipeline::finish(const PreparedData& data, Sites sites, Feedback& feedback) const
{
    return finish(data, partitionSites(data, std::move(sites), feedback), feedback);
}

PipelineResult Pipeline::finish(const PreparedData& data, PartitionedSites partitioned,
                                Feedback& feedback) const
{
    const std::size_t requested = partitioned.partition.sites.size();
    Aggregation aggregation = Aggregation::build(data.regions, partitioned.partition);
    PipelineResult result = rate(data, std::move(partitioned.partition), std::move(aggregation), feedback);
    result.requestedSites = requested;
    result.contiguity = partitioned.contiguity;
    result.boundary = partitioned.boundary;
    return result;
}

Count Pipeline::withheld(const PreparedData& data, Sites sites, Feedback& feedback, bool refined,
                         PartitionedSites* partitioned) const
{
    PartitionedSites made = partitionSites(data, std::move(sites), feedback, refined);
    const Count value =
        SuppressionOutcome::apply(data.regions, Aggregation::build(data.regions, made.partition),
                                  *mSuppressor, data.k, mCriteria, data.globallySuppressed, feedback, nullptr,
                                  data.population.get())
            .suppressed();
    if (partitioned != nullptr)
        *partitioned = std::move(made);
    return value;
}

PipelineResult Pipeline::rateGroups(const PreparedData& data, const std::vector<std::uint32_t>& regionGroup,
                                    std::size_t groups, Feedback& feedback) const
{
    if (regionGroup.size() != data.regions.size())
        throw Error(Subject::Partition, "every region needs an aggregate");
    Aggregation aggregation = Aggregation::fromGroups(data.regions, regionGroup, groups);
    for (std::size_t g = 0; g < groups; ++g)
        if (aggregation.memberCount(g) == 0)
            throw Error(Subject::Partition, "aggregate " + std::to_string(g) + " has no member region");
    // An existing aggregation has no sites: distances are measured to the mean of its members.
    Partition partition;
    partition.regionSite = regionGroup;
    for (std::size_t g = 0; g < groups; ++g)
        partition.sites.push_back(memberMean(data.regions, aggregation, g));
    PipelineResult result = rate(data, std::move(partition), std::move(aggregation), feedback);
    result.requestedSites = groups;
    return result;
}

PipelineResult Pipeline::rate(const PreparedData& data, Partition partition, Aggregation aggregation,
                              Feedback& feedback) const
{
    feedback.checkCanceled();
    PipelineResult result;
    result.k = data.k;
    result.kMap = data.population != nullptr;
    result.criteria = mCriteria.describe();
    result.suppression = SuppressionOutcome::apply(data.regions, aggregation, *mSuppressor, data.k, mCriteria,
                                                   data.globallySuppressed, feedback, data.differences.get(),
                                                   data.population.get());
    result.partition = std::move(partition);
    result.aggregation = std::move(aggregation);
    result.classGloballySuppressed = data.classGloballySuppressed;
    const RatingInput input{data.regions, result.partition, result.aggregation, result.suppression, data.k};
    result.aggregates = aggregateFigures(input);
    for (const MetricEntry& entry : mRegistry.metrics)
        result.metrics.push_back({entry.id, entry.create(mConfig.options)->compute(input)});
    return result;
}

PipelineResult Pipeline::run(const Job& job, Feedback& feedback,
                             const std::vector<SiteCountTrial>& located) const
{
    std::optional<PreparedData> data;
    {
        Feedback::Stage stage(feedback, 0.0, 0.1);
        data.emplace(prepare(job, feedback));
    }
    std::optional<SelectedSites> selected;
    {
        Feedback::Stage stage(feedback, 0.1, 0.7);
        selected.emplace(selectSites(*data, feedback, located));
    }
    Feedback::Stage stage(feedback, 0.7, 1.0);
    PipelineResult result = selected->partitioned ? finish(*data, std::move(*selected->partitioned), feedback)
                                                  : finish(*data, std::move(selected->sites), feedback);
    result.estimatedSites = selected->estimate;
    result.requestedSites = selected->count;
    result.refinement = std::move(selected->refinement);
    result.siteCountSearch = std::move(selected->search);
    return result;
}

ReleaseResult Pipeline::complete(const Job& job, const Job& released, PipelineResult result,
                                 std::optional<GeneralizationReport> generalization,
                                 const ReleaseRequest& request, Feedback& feedback) const
{
    ReleaseResult whole;
    whole.result = std::move(result);
    whole.generalization = std::move(generalization);
    whole.fates = recordFates(*released.dataset, whole.result);
    const double checked = request.published != nullptr ? 0.2 : 0.0;
    if (request.published != nullptr)
    {
        Feedback::Stage stage(feedback, 0.0, checked);
        std::vector<bool> releasedRows(whole.fates.size());
        for (std::size_t row = 0; row < releasedRows.size(); ++row)
            releasedRows[row] = whole.fates[row] == RecordFate::Released;
        whole.fieldChecks =
            checkPublishedFields(*job.dataset, *request.published, whole.hierarchies(), whole.levels(),
                                 whole.result.aggregation, releasedRows, whole.result.k, feedback);
    }
    if (released.geometries == nullptr)
    {
        if (request.cells)
            throw Error(Subject::Partition, "the cells of the sites need the region polygons");
        return whole;
    }
    const double dissolved = request.cells ? checked + (1.0 - checked) / 2.0 : 1.0;
    {
        Feedback::Stage stage(feedback, checked, dissolved);
        whole.polygons = dissolve(*released.geometries, whole.result.aggregation, feedback);
    }
    if (request.cells)
    {
        Feedback::Stage stage(feedback, dissolved, 1.0);
        whole.cells = clippedVoronoiCells(*released.geometries, whole.result.partition.sites,
                                          whole.result.partition.weights, feedback);
    }
    return whole;
}

ReleaseResult Pipeline::releaseAroundSites(const Job& job, Sites sites, const ReleaseRequest& request,
                                           Feedback& feedback) const
{
    if (sites.points.empty())
        throw Error(Subject::SiteLocation, "no sites given; give at least one");
    PipelineResult result;
    {
        Feedback::Stage stage(feedback, 0.0, 0.7);
        const PreparedData data = prepare(job, feedback);
        result = finish(data, std::move(sites), feedback);
    }
    Feedback::Stage stage(feedback, 0.7, 1.0);
    return complete(job, job, std::move(result), std::nullopt, request, feedback);
}

ReleaseResult Pipeline::releaseGroups(const Job& job, const std::vector<std::uint32_t>& regionGroup,
                                      std::size_t groups, const ReleaseRequest& request,
                                      Feedback& feedback) const
{
    // At given levels: the records generalized to them, as a release of the lattice's node would be.
    std::optional<Dataset> generalized;
    Job atLevels = job;
    const std::shared_ptr<const Hierarchies> built = hierarchiesOf(request, *job.dataset, feedback);
    const Hierarchies& hierarchies = *built;
    std::vector<std::size_t> levels;
    if (!request.levels.empty())
    {
        if (!generalizes(hierarchies))
            throw Error(Subject::Generalization, "levels were given without hierarchies");
        if (request.levels.size() != hierarchies.size())
            throw Error(Subject::Generalization, "a level is needed for every quasi-identifier");
        for (std::size_t j = 0; j < hierarchies.size(); ++j)
        {
            if (hierarchies[j])
                levels.push_back(hierarchies[j]->hierarchy.levelNamed(request.levels[j]));
            else if (request.levels[j] == "0")
                levels.push_back(0);
            else
                throw Error(Subject::Generalization, "quasi-identifier " + job.dataset->schema().at(j).name +
                                                         " has no hierarchy for level '" + request.levels[j] +
                                                         "'");
        }
        generalized.emplace(generalizedDataset(*job.dataset, hierarchies, levels));
        atLevels.dataset = &*generalized;
    }
    PipelineResult result;
    {
        Feedback::Stage stage(feedback, 0.0, 0.5);
        PreparedData data = prepare(atLevels, feedback);
        if (job.earlier != nullptr && !job.earlier->bound.empty())
        {
            const std::vector<std::vector<CategoryValue>>& values = job.dataset->quasiIdentifierValues();
            if (values.empty())
                throw Error(Subject::Ledger, "the difference rule needs the values of the quasi-identifiers");
            const Hierarchies* levelled = generalizes(hierarchies) ? &hierarchies : nullptr;
            std::vector<std::string> names;
            for (std::size_t i = 0; i < job.dataset->schema().size(); ++i)
                names.push_back(job.dataset->schema().at(i).name);
            const std::vector<LabelValues> labels = releasedLabelValues(names, values, levelled, levels);
            // The labels of each released class: those of any level-0 class generalized into it.
            const std::vector<std::string> keys = classKeys(*job.dataset, values, levelled, levels);
            std::vector<std::vector<std::uint32_t>> classLabels(atLevels.dataset->classes().size());
            for (std::size_t row = 0; row < job.dataset->rows(); ++row)
            {
                if (job.dataset->rowRegion(row) == kNoRegion)
                    continue;
                std::vector<std::uint32_t>& indices = classLabels[atLevels.dataset->rowClass(row)];
                if (!indices.empty())
                    continue;
                std::size_t i = 0;
                std::string label;
                for (const char c : keys[job.dataset->rowClass(row)])
                {
                    if (c != '\x1f')
                    {
                        label += c;
                        continue;
                    }
                    const auto& byLabel = labels[i++].labels;
                    indices.push_back(
                        std::uint32_t(std::find_if(byLabel.begin(), byLabel.end(),
                                                   [&](const auto& l) { return l.first == label; }) -
                                      byLabel.begin()));
                    label.clear();
                }
            }
            data.differences = std::make_shared<const DifferenceRule>(
                *job.earlier->entries, job.earlier->bound, *atLevels.dataset, job.earlier->territory, labels,
                std::move(classLabels));
        }
        result = rateGroups(data, regionGroup, groups, feedback);
    }
    std::optional<GeneralizationReport> generalization;
    if (!levels.empty())
    {
        generalization.emplace();
        generalization->releasedLoss =
            releasedLoss(result, classLoss(*atLevels.dataset, hierarchies, levels));
        generalization->levels = std::move(levels);
        recordHierarchies(*generalization, built);
    }
    Feedback::Stage stage(feedback, 0.5, 1.0);
    return complete(job, atLevels, std::move(result), std::move(generalization), request, feedback);
}

SiteCountEstimate Pipeline::estimateSites(const Job& job, Feedback& feedback) const
{
    const PreparedData data = prepare(job, feedback);
    SiteCountEstimate estimate;
    estimate.sites = estimateSiteCount(data, feedback, &estimate.unclamped);
    estimate.releasableRecords = data.regions.totalRecords();
    estimate.regionsWithRecords = data.regions.nonEmptyCount();
    estimate.maxCombs = data.regions.maxCombs();
    return estimate;
}

Sites Pipeline::selectSites(const Job& job, Feedback& feedback) const
{
    std::optional<PreparedData> data;
    {
        Feedback::Stage stage(feedback, 0.0, 0.1);
        data.emplace(prepare(job, feedback));
    }
    Feedback::Stage stage(feedback, 0.1, 1.0);
    return selectSites(*data, feedback).sites;
}

PipelineConfig recommendedConfig()
{
    PipelineConfig config;
    config.siteCounter = "sitecount.suppression_budget";
    config.siteRefiner = "refinement.suppression";
    config.boundaryRefiner = "boundary.suppression";
    return config;
}

std::vector<RecordFate> recordFates(const Dataset& dataset, const PipelineResult& result)
{
    const Aggregation& aggregation = result.aggregation;
    const HistogramTable& histograms = aggregation.histograms;
    std::vector<RecordFate> fates(dataset.rows());
    for (std::size_t row = 0; row < dataset.rows(); ++row)
    {
        const RegionIndex region = dataset.rowRegion(row);
        if (region == kNoRegion)
        {
            fates[row] = RecordFate::Dropped;
            continue;
        }
        const ClassId cls = dataset.rowClass(row);
        if (result.classGloballySuppressed[cls])
        {
            fates[row] = RecordFate::SuppressedGlobally;
            continue;
        }
        const std::uint32_t a = aggregation.regionAggregate[region];
        const HistogramTable::Range entries = histograms.entries(a);
        const ClassCount* entry = std::lower_bound(entries.begin(), entries.end(), cls,
                                                   [](const ClassCount& e, ClassId c) { return e.cls < c; });
        const std::size_t index = std::size_t(entry - histograms.allEntries().data());
        if (result.suppression.aggregateEntryDiversityFailed[index])
            fates[row] = RecordFate::SuppressedDiversity;
        else if (result.suppression.aggregateEntryTooCloseToEarlier[index])
            fates[row] = RecordFate::SuppressedDifference;
        else if (result.suppression.aggregateEntrySuppressed[index])
            fates[row] = RecordFate::SuppressedLocally;
        else if (!result.suppression.rowInSmallPublishedRow.empty() &&
                 result.suppression.rowInSmallPublishedRow[row])
            fates[row] = RecordFate::SuppressedSmallRow;
        else
            fates[row] = RecordFate::Released;
    }
    return fates;
}

double releasedLoss(const PipelineResult& result, const std::vector<double>& lossOfClass)
{
    const std::vector<ClassCount>& entries = result.aggregation.histograms.allEntries();
    double sum = 0.0;
    Count released = 0;
    for (std::size_t e = 0; e < entries.size(); ++e)
    {
        sum += double(result.suppression.aggregateEntryReleased[e]) * lossOfClass[entries[e].cls];
        released += result.suppression.aggregateEntryReleased[e];
    }
    return released > 0 ? sum / double(released) : 0.0;
}

} // namespace vbas

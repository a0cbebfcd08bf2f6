#include "Sweep.h"

#include "GeneralizationSearch.h"
#include "PipelineProbe.h"
#include "generalization/GeneralizedData.h"
#include "quality/Pareto.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace vbas
{

std::vector<std::uint64_t> sweepSiteCounts(std::uint64_t s0, const SweepOptions& options, std::uint64_t upper)
{
    if (options.steps < 0 || !(options.fraction >= 0.0))
        throw Error(Subject::SiteCount, "the sweep needs a non-negative number of steps and step fraction");
    const auto step = static_cast<std::int64_t>(std::ceil(options.fraction * double(s0)));
    std::vector<std::uint64_t> counts;
    for (int j = -options.steps; j <= options.steps; ++j)
    {
        const std::int64_t s = std::int64_t(s0) + j * step;
        if (s >= 1 && std::uint64_t(s) <= std::max<std::uint64_t>(upper, 1))
            counts.push_back(std::uint64_t(s));
    }
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    return counts;
}

void markParetoOptimal(std::vector<SweepRow>& rows, const Registry& registry)
{
    std::vector<std::vector<double>> objectives;
    for (const SweepRow& row : rows)
    {
        objectives.push_back(row.result.objectives(registry));
        objectives.back().push_back(row.attributeLoss);
    }
    const std::vector<bool> optimal = paretoOptimal(objectives);
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i].paretoOptimal = optimal[i];
}

std::vector<SweepRow> sweep(const Pipeline& pipeline, const PreparedData& data, const SweepOptions& options,
                            Feedback& feedback)
{
    std::uint64_t raw = 0;
    PipelineProbe probe(pipeline, data);
    const std::uint64_t s0 = pipeline.estimateSiteCount(data, probe, feedback, &raw);
    const std::vector<std::uint64_t> counts =
        sweepSiteCounts(s0, options, std::max<std::uint64_t>(1, data.regions.nonEmptyCount()));
    std::vector<SweepRow> rows;
    for (std::size_t i = 0; i < counts.size(); ++i)
    {
        Feedback::Stage stage(feedback, double(i) / double(counts.size()),
                              double(i + 1) / double(counts.size()));
        // A count the site counter released refined is that release, as in Pipeline::run(): past 800 counts
        // the budget search continues refinements, which a refinement from located sites would not repeat.
        std::optional<RefinedSites> tried = probe.refined(counts[i]);
        std::optional<RefinementReport> refinement;
        std::optional<PipelineResult> result;
        if (tried && tried->partitioned)
        {
            refinement = std::move(tried->report);
            result = pipeline.finish(data, std::move(*tried->partitioned), feedback);
        }
        else
        {
            Sites sites = pipeline.refineSites(data, pipeline.locateSites(data, counts[i], feedback),
                                               refinement, feedback);
            result = pipeline.finish(data, std::move(sites), feedback);
        }
        SweepRow row{counts[i], std::move(*result), false, {}, 0.0};
        row.result.estimatedSites = raw;
        row.result.refinement = std::move(refinement);
        rows.push_back(std::move(row));
    }
    markParetoOptimal(rows, pipeline.registry());
    return rows;
}

Comparison::Comparison(const PipelineConfig& base, const ComparisonChoices& choices, SweepOptions sweep,
                       const Registry& registry)
    : mSweep(sweep)
    , mRegistry(registry)
{
    if (choices.siteCounters.empty())
        throw Error(Subject::SiteCount, "no site-count method chosen; choose at least one");
    if (choices.siteLocators.empty())
        throw Error(Subject::SiteLocation, "no site-location method chosen; choose at least one");
    std::vector<std::string> refiners{std::string()};
    refiners.insert(refiners.end(), choices.siteRefiners.begin(), choices.siteRefiners.end());
    for (const std::string& counter : choices.siteCounters)
        for (const std::string& locator : choices.siteLocators)
            for (const std::string& refiner : refiners)
            {
                PipelineConfig config = base;
                config.siteCounter = counter;
                config.siteLocator = locator;
                config.siteRefiner = refiner;
                mPipelines.push_back(std::make_unique<Pipeline>(config, registry));
                mConfigs.push_back(std::move(config));
            }
}

Comparison::~Comparison() = default;

ComparisonResult Comparison::run(const Job& job, Feedback& feedback, const Hierarchies* hierarchies) const
{
    ComparisonResult result;
    result.hierarchies = hierarchies != nullptr
                             ? *hierarchies
                             : mPipelines.front()->prepareHierarchies(*job.dataset, feedback);
    const Hierarchies& levelled = result.hierarchies;
    if (generalizes(levelled))
    {
        // Each configuration releases its own generalization levels, so each prepares its own records.
        for (std::size_t i = 0; i < mPipelines.size(); ++i)
        {
            const double from = double(i) / double(mPipelines.size());
            const double to = double(i + 1) / double(mPipelines.size());
            std::optional<GeneralizationChoice> choice;
            {
                Feedback::Stage stage(feedback, from, from + 0.5 * (to - from));
                choice.emplace(searchGeneralization(*mPipelines[i], job, levelled, feedback));
            }
            Job chosen = choice->jobOf(job);
            // The chosen levels, then (when asked) the other nodes of the search's frontier.
            std::vector<std::vector<std::size_t>> nodes{choice->report.levels};
            if (mSweep.generalizationLevels)
                for (const NodeEvaluation& node : choice->report.evaluated)
                    if (node.frontier && std::find(nodes.begin(), nodes.end(), node.levels) == nodes.end())
                        nodes.push_back(node.levels);
            for (std::size_t n = 0; n < nodes.size(); ++n)
            {
                const double step = 0.5 * (to - from) / double(nodes.size());
                Feedback::Stage stage(feedback, from + 0.5 * (to - from) + double(n) * step,
                                      from + 0.5 * (to - from) + double(n + 1) * step);
                std::optional<Dataset> other;
                if (n > 0)
                    other.emplace(generalizedDataset(*job.dataset, levelled, nodes[n]));
                chosen.dataset = n == 0 ? &choice->dataset : &*other;
                const std::vector<double> lossOfClass = classLoss(*chosen.dataset, levelled, nodes[n]);
                const PreparedData data = mPipelines[i]->prepare(chosen, feedback);
                for (SweepRow& row : sweep(*mPipelines[i], data, mSweep, feedback))
                {
                    row.levels = nodes[n];
                    row.attributeLoss = releasedLoss(row.result, lossOfClass);
                    result.rows.push_back(std::move(row));
                    result.rowConfig.push_back(i);
                }
            }
        }
    }
    else
    {
        // The configurations differ only in their site stages: one preparation serves all, made by one
        // that needs the adjacency when any does.
        const auto needsAdjacency = [](const std::unique_ptr<Pipeline>& pipeline)
        {
            return pipeline->needs().adjacency;
        };
        const auto preparer = std::find_if(mPipelines.begin(), mPipelines.end(), needsAdjacency);
        std::optional<PreparedData> data;
        {
            Feedback::Stage stage(feedback, 0.0, 0.05);
            data.emplace(
                (preparer != mPipelines.end() ? *preparer : mPipelines.front())->prepare(job, feedback));
        }
        for (std::size_t i = 0; i < mPipelines.size(); ++i)
        {
            Feedback::Stage stage(feedback, 0.05 + 0.95 * double(i) / double(mPipelines.size()),
                                  0.05 + 0.95 * double(i + 1) / double(mPipelines.size()));
            for (SweepRow& row : sweep(*mPipelines[i], *data, mSweep, feedback))
            {
                result.rows.push_back(std::move(row));
                result.rowConfig.push_back(i);
            }
        }
    }
    markParetoOptimal(result.rows, mRegistry);
    result.paretoRows = std::size_t(std::count_if(result.rows.begin(), result.rows.end(),
                                                  [](const SweepRow& row) { return row.paretoOptimal; }));
    return result;
}

} // namespace vbas

#include "GeneralizationSearch.h"

#include "PipelineProbe.h"
#include "base/NumberText.h"
#include "generalization/GeneralizedData.h"
#include "generalization/HierarchyKinds.h"
#include "quality/Pareto.h"
#include "sitecount/SuppressionBudget.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <sstream>
#include <tuple>

namespace vbas
{
namespace
{
/** Nodes a search may enumerate: lattices beyond this ask for tighter level limits. */
constexpr std::size_t kMaxLatticeNodes = 100000;

/** Every node within the level limits, as levels per quasi-identifier, in mixed-radix order. */
std::vector<std::vector<std::size_t>> latticeNodes(const Hierarchies& hierarchies)
{
    std::size_t count = 1;
    for (const auto& qi : hierarchies)
        if (qi)
        {
            count *= qi->maxLevel + 1;
            if (count > kMaxLatticeNodes)
                throw Error(Subject::Generalization,
                            "the generalization levels allow more than " + std::to_string(kMaxLatticeNodes) +
                                " combinations; set a highest level ('max') for some quasi-identifiers");
        }
    std::vector<std::vector<std::size_t>> nodes;
    nodes.reserve(count);
    std::vector<std::size_t> levels(hierarchies.size(), 0);
    for (std::size_t n = 0; n < count; ++n)
    {
        nodes.push_back(levels);
        for (std::size_t j = 0; j < levels.size(); ++j)
        {
            const std::size_t top = hierarchies[j] ? hierarchies[j]->maxLevel : 0;
            if (levels[j] < top)
            {
                ++levels[j];
                break;
            }
            levels[j] = 0;
        }
    }
    return nodes;
}

/** Whether `finer` is at or below `coarser` in every quasi-identifier. */
bool atOrBelow(const std::vector<std::size_t>& finer, const std::vector<std::size_t>& coarser)
{
    for (std::size_t j = 0; j < finer.size(); ++j)
        if (finer[j] > coarser[j])
            return false;
    return true;
}

/**
 * The attribute loss of every node over all loaded records, to order the search: separable by
 * quasi-identifier, so each one's loss at each level is summed once over its categories.
 */
class LossOrder
{
public:
    LossOrder(const Dataset& dataset, const Hierarchies& hierarchies)
        : mQuasiIdentifiers(hierarchies.size())
    {
        const std::vector<std::vector<Count>> records = categoryRecords(dataset);
        mRecords = double(dataset.totalRecords());
        mLevelLoss.resize(hierarchies.size());
        for (std::size_t j = 0; j < hierarchies.size(); ++j)
        {
            if (!hierarchies[j])
                continue;
            const Hierarchy& hierarchy = hierarchies[j]->hierarchy;
            const std::vector<Count>& categoryTotals = records[j];
            for (std::size_t level = 0; level < hierarchy.levels(); ++level)
            {
                double sum = 0.0;
                for (std::uint32_t code = 0; code < categoryTotals.size(); ++code)
                    sum += double(categoryTotals[code]) * hierarchy.loss(level, hierarchy.group(level, code));
                mLevelLoss[j].push_back(sum);
            }
        }
    }

    double loss(const std::vector<std::size_t>& levels) const
    {
        double sum = 0.0;
        for (std::size_t j = 0; j < levels.size(); ++j)
            if (!mLevelLoss[j].empty())
                sum += mLevelLoss[j][levels[j]];
        return mRecords > 0 && mQuasiIdentifiers > 0 ? sum / (mRecords * double(mQuasiIdentifiers)) : 0.0;
    }

private:
    std::size_t mQuasiIdentifiers;
    double mRecords = 0.0;
    std::vector<std::vector<double>> mLevelLoss;
};

/** The levels in words: "age in bands of 10, code cut to its first 3 characters". */
std::string nodeText(const Hierarchies& hierarchies, const std::vector<std::size_t>& levels)
{
    std::ostringstream text;
    bool first = true;
    for (std::size_t j = 0; j < hierarchies.size(); ++j)
        if (hierarchies[j])
        {
            text << (first ? "" : ", ") << hierarchies[j]->hierarchy.quasiIdentifier() << " "
                 << hierarchies[j]->describeLevel(levels[j]);
            first = false;
        }
    return text.str();
}

/** Evaluates nodes with a pipeline without refinement; the adjacency is built once and shared. */
class NodeEvaluator
{
public:
    NodeEvaluator(const Pipeline& pipeline, const Job& job, Count budget)
        : mPipeline(unrefined(pipeline.config()), pipeline.registry())
        , mJob(job)
        , mBudget(budget)
    {
    }

    /** A node evaluated: its records and the releases without refinement made of them. */
    struct Evaluated
    {
        std::vector<std::size_t> levels;
        std::optional<Dataset> dataset;
        std::vector<SiteCountTrial> located;
    };

    /**
     * The release of the node `levels` of `hierarchies` (the job's, or with stand-ins for removals): at its
     * own site count (the configured counter's), or at `sites` when given (a coarser node's, which a finer
     * one reaches only by withholding within the budget there).
     */
    NodeEvaluation evaluate(const std::vector<std::size_t>& levels, const Hierarchies& hierarchies,
                            Feedback& feedback, std::optional<std::uint64_t> sites = std::nullopt)
    {
        mLast = Evaluated{levels, std::nullopt, {}};
        const Dataset& dataset =
            mLast.dataset.emplace(generalizedDataset(*mJob.dataset, hierarchies, levels));
        QuietFeedback quiet(feedback);
        const PreparedData data = mPipeline.prepare(jobOn(dataset), quiet);
        mAdjacency = data.spatial.adjacency;
        PipelineProbe probe(mPipeline, data);
        if (sites)
            probe.withheld(*sites, false, quiet);
        else
            sites = mPipeline.estimateSiteCount(data, probe, quiet, nullptr);
        keepLocated(probe, mLast);
        const PipelineResult result =
            mPipeline.finish(data, mPipeline.locateSites(data, *sites, quiet), quiet);
        NodeEvaluation node;
        node.levels = levels;
        node.sites = *sites;
        node.aggregates = result.aggregation.size();
        node.withheld = result.suppression.suppressed();
        node.records = dataset.totalRecords();
        node.loss = releasedLoss(result, classLoss(dataset, hierarchies, levels));
        node.nue = result.metric("quality.non_uniform_entropy");
        node.withinBudget = node.withheld <= mBudget;
        return node;
    }

    /**
     * Adds the release without refinement at `sites` of the node kept (keepLast()) to its located releases,
     * unless the node has fewer regions: with the one below it within the budget, it brackets the boundary
     * the release's own search would find (ReleaseProbe::knownLocatedBoundary()).
     */
    void locateBestAt(std::uint64_t sites, Feedback& feedback)
    {
        if (!mBest.dataset)
            return;
        QuietFeedback quiet(feedback);
        const PreparedData data = mPipeline.prepare(jobOn(*mBest.dataset), quiet);
        if (sites > data.regions.nonEmptyCount())
            return;
        PipelineProbe probe(mPipeline, data);
        probe.withheld(sites, false, quiet);
        keepLocated(probe, mBest);
    }

    const std::shared_ptr<const RegionAdjacency>& adjacency() const { return mAdjacency; }
    /** Keeps the node evaluated last, the best so far, for the release (freeing the one kept before). */
    void keepLast() { mBest = std::move(mLast); }
    /** The node kept last, when it is the node `levels`. */
    std::optional<Evaluated> best(const std::vector<std::size_t>& levels)
    {
        if (mBest.dataset && mBest.levels == levels)
            return std::move(mBest);
        return std::nullopt;
    }

private:
    /** The job on `dataset`, with the adjacency built once. */
    Job jobOn(const Dataset& dataset) const
    {
        Job job = mJob;
        job.dataset = &dataset;
        if (mAdjacency)
            job.spatial.adjacency = mAdjacency;
        return job;
    }

    static void keepLocated(const PipelineProbe& probe, Evaluated& evaluated)
    {
        for (const SiteCountTrial& trial : probe.trials())
            if (!trial.refined)
                evaluated.located.push_back(trial);
    }

    static PipelineConfig unrefined(PipelineConfig config)
    {
        config.siteRefiner.clear();
        config.boundaryRefiner.clear();
        return config;
    }

    Pipeline mPipeline;
    const Job& mJob;
    Count mBudget;
    std::shared_ptr<const RegionAdjacency> mAdjacency;
    Evaluated mLast, mBest;
};

/** The spec of a quasi-identifier's hierarchy with `level` as its highest ("age: auto max *"). */
std::string removalSpec(const QuasiIdentifierHierarchy& qi, std::size_t level)
{
    HierarchySpec spec = qi.automatic ? HierarchySpec{qi.spec.field, kAutomaticKind, {}, {}} : qi.spec;
    spec.maxLevel = qi.hierarchy.levelName(level);
    return quotedValue(spec.text());
}

std::string withheldText(const NodeEvaluation& node)
{
    return std::to_string(node.withheld) + " records (" +
           percentText(percentOf(double(node.withheld), double(node.records))) + " %)";
}

/**
 * The release misses the budget at every node within the level limits: evaluates, for every
 * quasi-identifier not yet removed, the coarsest node allowed with it removed (one without a hierarchy
 * left out of the quasi-identifiers), keeps those within the budget in `report` and says in the log which
 * removal would meet the budget, why, and the alternatives.
 */
void adviseRemovals(GeneralizationReport& report, const Hierarchies& hierarchies, const Dataset& dataset,
                    NodeEvaluator& evaluator, Feedback& feedback)
{
    // A quasi-identifier without a hierarchy gets one for this: its values, then "*".
    Hierarchies removable = hierarchies;
    std::vector<std::size_t> coarsest(hierarchies.size(), 0);
    for (std::size_t j = 0; j < hierarchies.size(); ++j)
        if (hierarchies[j])
            coarsest[j] = hierarchies[j]->maxLevel;
        else
            removable[j] = QuasiIdentifierHierarchy{
                Hierarchy(dataset.schema().at(j).name,
                          std::vector<CategoryValue>(std::size_t(dataset.schema().categories(j))), {}),
                0,
                {},
                false};
    for (std::size_t j = 0; j < removable.size(); ++j)
    {
        const std::size_t removal = removable[j]->hierarchy.removalLevel();
        if (coarsest[j] >= removal)
            continue;
        feedback.checkCanceled();
        std::vector<std::size_t> levels = coarsest;
        levels[j] = removal;
        NodeEvaluation node = evaluator.evaluate(levels, removable, feedback);
        if (node.withinBudget)
            report.removalOptions.push_back({j, removable[j]->hierarchy.quasiIdentifier(), std::move(node)});
    }
    std::stable_sort(report.removalOptions.begin(), report.removalOptions.end(),
                     [](const RemovalOption& a, const RemovalOption& b)
                     {
                         return std::make_tuple(-double(a.node.aggregates), a.node.withheld) <
                                std::make_tuple(-double(b.node.aggregates), b.node.withheld);
                     });

    const NodeEvaluation& released = report.evaluated[report.chosen];
    std::string text = "the suppression budget of " + percentText(report.budgetPercent) +
                       " % cannot be met at the levels allowed: the release (" +
                       nodeText(hierarchies, released.levels) + ") withholds " + withheldText(released) +
                       ". ";
    if (report.removalOptions.empty())
        text += "Removing one quasi-identifier would not meet it either. ";
    for (const RemovalOption& option : report.removalOptions)
    {
        const auto& qi = hierarchies[option.quasiIdentifier];
        text += "Without " + option.name + " it would be met (" + withheldText(option.node) + " withheld, " +
                std::to_string(option.node.aggregates) + " regions): " +
                (qi ? "allow its removal with " + removalSpec(*qi, qi->hierarchy.removalLevel()) + " if " +
                          option.name + " may be left out of the release. "
                    : "leave it out of the quasi-identifiers if it may go unpublished. ");
    }
    report.budgetWarning = text + "Or raise the suppression budget to " +
                           percentText(percentOf(double(released.withheld), double(released.records))) +
                           " %, or release fewer quasi-identifiers.";
    feedback.warning(report.budgetWarning);
}
} // namespace

GeneralizationChoice searchGeneralization(const Pipeline& pipeline, const Job& job,
                                          const Hierarchies& hierarchies, Feedback& feedback)
{
    const Dataset& dataset = *job.dataset;
    if (!generalizes(hierarchies) || hierarchies.size() != dataset.schema().size())
        throw Error(Subject::Generalization,
                    "the generalization search needs a hierarchy for a quasi-identifier");
    for (std::size_t j = 0; j < hierarchies.size(); ++j)
        if (hierarchies[j] && hierarchies[j]->hierarchy.categories() < dataset.schema().categories(j))
            throw Error(Subject::Generalization, "the hierarchy of " +
                                                     hierarchies[j]->hierarchy.quasiIdentifier() +
                                                     " covers fewer values than the records hold");

    GeneralizationReport report;
    report.budgetPercent = pipeline.config().suppressionBudget;
    const Count total = dataset.totalRecords();
    const Count budget = suppressionBudget(total, report.budgetPercent);

    std::vector<std::vector<std::size_t>> nodes = latticeNodes(hierarchies);
    report.latticeNodes = nodes.size();
    const LossOrder order(dataset, hierarchies);
    std::vector<double> priorLoss(nodes.size());
    for (std::size_t n = 0; n < nodes.size(); ++n)
        priorLoss[n] = order.loss(nodes[n]);
    std::vector<std::size_t> byLoss(nodes.size());
    std::iota(byLoss.begin(), byLoss.end(), 0);
    std::stable_sort(byLoss.begin(), byLoss.end(),
                     [&](std::size_t a, std::size_t b) { return priorLoss[a] < priorLoss[b]; });
    // Under a criterion that is not monotone under merging (entropy l-diversity, t-closeness...) no node
    // rules out another.
    const bool monotone = pipeline.criteria().monotone();

    NodeEvaluator evaluator(pipeline, job, budget);
    // Once the coarsest node is within the budget, a finer node reaches as far only if it is within the
    // budget at the coarsest's site count (generalizing merges groups, so at the same sites a finer node
    // never withholds less): one release there decides, instead of the node's own search of site counts.
    // A criterion that is not monotone under merging leaves every node its own search.
    std::optional<std::uint64_t> coarsestSites;
    const auto evaluate = [&](std::size_t n)
    {
        feedback.checkCanceled();
        report.evaluated.push_back(evaluator.evaluate(nodes[n], hierarchies, feedback, coarsestSites));
        feedback.setProgress(double(report.evaluated.size()) / double(nodes.size()));
        return report.evaluated.back();
    };

    // The coarsest node allowed reaches the most aggregates; the least loss that reaches as many wins.
    // A node that misses rules out every finer one (monotony). First a descent from the coarsest: lower one
    // quasi-identifier by a level while the result still reaches, the largest saving of loss first. Its
    // end bounds the loss to beat, and the nodes just below it that missed rule out most of the lattice.
    // Then the remaining nodes of less loss, in order of loss: the first that reaches is the release.
    std::vector<std::size_t> stride(hierarchies.size(), 0);
    for (std::size_t j = 0, radix = 1; j < hierarchies.size(); ++j)
    {
        stride[j] = radix;
        radix *= (hierarchies[j] ? hierarchies[j]->maxLevel : 0) + 1;
    }
    std::vector<std::size_t> rank(nodes.size());
    for (std::size_t i = 0; i < byLoss.size(); ++i)
        rank[byLoss[i]] = i;
    std::vector<std::vector<std::size_t>> missed;
    std::vector<std::optional<std::size_t>> evaluation(nodes.size()); // index into report.evaluated
    const auto ruledOut = [&](std::size_t n)
    {
        return monotone && std::any_of(missed.begin(), missed.end(),
                                       [&](const auto& m) { return atOrBelow(nodes[n], m); });
    };
    const std::size_t top = byLoss.back();
    evaluate(top);
    evaluation[top] = 0;
    const NodeEvaluation coarsest = report.evaluated.front();
    const auto reaches = [&](const NodeEvaluation& node)
    {
        return node.withinBudget && node.aggregates >= coarsest.aggregates;
    };
    // The best node is always the last evaluated that reaches: its records are kept for the release.
    if (reaches(coarsest))
        evaluator.keepLast();
    if (monotone && coarsest.withinBudget)
        coarsestSites = coarsest.sites;
    /** Evaluates `n` unless known; whether it reaches (a ruled-out node does not). */
    const auto tryNode = [&](std::size_t n)
    {
        if (!evaluation[n])
        {
            if (ruledOut(n))
                return false;
            evaluate(n);
            evaluation[n] = report.evaluated.size() - 1;
            if (!reaches(report.evaluated.back()))
                missed.push_back(nodes[n]);
            else
                evaluator.keepLast();
        }
        return reaches(report.evaluated[*evaluation[n]]);
    };
    std::optional<std::size_t> chosen;
    if (coarsest.withinBudget)
    {
        std::size_t best = top;
        for (bool lowered = true; lowered;)
        {
            lowered = false;
            std::vector<std::size_t> below;
            for (std::size_t j = 0; j < hierarchies.size(); ++j)
                if (nodes[best][j] > 0)
                    below.push_back(best - stride[j]);
            std::sort(below.begin(), below.end(),
                      [&](std::size_t a, std::size_t b) { return rank[a] < rank[b]; });
            for (const std::size_t n : below)
                if (tryNode(n))
                {
                    best = n;
                    lowered = true;
                    break;
                }
        }
        for (const std::size_t n : byLoss)
        {
            if (rank[n] >= rank[best])
                break;
            if (tryNode(n))
            {
                best = n;
                break;
            }
        }
        chosen = *evaluation[best];
        // A finer node chosen was released at the coarsest's count only: the count above it, over the budget
        // for the coarsest and so for it, completes the bracket its release's own search starts from.
        if (best != top && coarsestSites)
            evaluator.locateBestAt(*coarsestSites + 1, feedback);
    }
    for (std::size_t n = 0; n < nodes.size(); ++n)
        if (!evaluation[n] && ruledOut(n))
            ++report.prunedNodes;
    if (!chosen)
    {
        // The coarsest reaches no more, or nothing is within the budget: the best evaluated one.
        chosen = 0;
        for (std::size_t e = 1; e < report.evaluated.size(); ++e)
        {
            const NodeEvaluation& a = report.evaluated[e];
            const NodeEvaluation& b = report.evaluated[*chosen];
            if (std::make_tuple(!a.withinBudget, a.withinBudget ? Count(0) : a.withheld,
                                -double(a.aggregates), a.loss) <
                std::make_tuple(!b.withinBudget, b.withinBudget ? Count(0) : b.withheld,
                                -double(b.aggregates), b.loss))
                chosen = e;
        }
    }
    report.chosen = *chosen;
    report.levels = report.evaluated[*chosen].levels;
    if (!report.evaluated[*chosen].withinBudget)
        adviseRemovals(report, hierarchies, dataset, evaluator, feedback);
    for (std::size_t j = 0; j < hierarchies.size(); ++j)
        if (hierarchies[j] && report.levels[j] >= hierarchies[j]->hierarchy.removalLevel())
        {
            const std::string& name = hierarchies[j]->hierarchy.quasiIdentifier();
            report.removed.push_back(name);
            feedback.warning(name + " is removed from the release (all its values are one, " +
                             quotedValue(hierarchies[j]->hierarchy.levelName(report.levels[j])) +
                             "), as its highest level allows: that gives the most regions within the "
                             "suppression budget. To keep it, set a lower 'max' (" +
                             removalSpec(*hierarchies[j], hierarchies[j]->hierarchy.removalLevel() - 1) +
                             ")");
        }

    std::vector<std::vector<double>> objectives;
    for (const NodeEvaluation& node : report.evaluated)
        objectives.push_back({-double(node.aggregates), node.loss, double(node.withheld), node.nue});
    const std::vector<bool> optimal = paretoOptimal(objectives);
    for (std::size_t e = 0; e < optimal.size(); ++e)
        report.evaluated[e].frontier = optimal[e];
    feedback.info("generalization: " + nodeText(hierarchies, report.levels) + ", the best of " +
                  std::to_string(report.evaluated.size()) + " level combinations tried (" +
                  std::to_string(report.prunedNodes) + " more ruled out, as a coarser one missed)");
    if (std::optional<NodeEvaluator::Evaluated> best = evaluator.best(report.levels))
        return {std::move(report), std::move(*best->dataset), evaluator.adjacency(),
                std::move(best->located)};
    Dataset chosenDataset = generalizedDataset(dataset, hierarchies, report.levels);
    return {std::move(report), std::move(chosenDataset), evaluator.adjacency(), {}};
}

Job GeneralizationChoice::jobOf(const Job& job) const
{
    Job chosen = job;
    chosen.dataset = &dataset;
    if (adjacency)
        chosen.spatial.adjacency = adjacency;
    return chosen;
}

} // namespace vbas

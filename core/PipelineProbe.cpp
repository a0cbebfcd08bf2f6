#include "PipelineProbe.h"

#include <exception>
#include <iterator>
#include <thread>

namespace vbas
{

std::optional<std::uint64_t> PipelineProbe::knownLocatedBoundary(Count budget) const
{
    std::optional<std::uint64_t> within; // the largest count given within the budget
    for (const auto& [sites, withheld] : mKnownLocated)
        if (withheld <= budget)
            within = sites;
    if (!within || mKnownLocated.count(*within + 1) == 0)
        return std::nullopt;
    for (const auto& [sites, withheld] : mKnownLocated)
        if ((sites <= *within) != (withheld <= budget))
            return std::nullopt;
    return within;
}

std::vector<Count> PipelineProbe::withheldOfEach(const std::vector<std::uint64_t>& counts, bool refined,
                                                 Feedback& feedback, RefinedFrom from)
{
    std::vector<Count> values(counts.size());
    std::vector<std::optional<RefinedSites>> chosen(counts.size());
    // The counts to release: those not known already.
    std::vector<std::size_t> released;
    for (std::size_t i = 0; i < counts.size(); ++i)
        if (const auto known = mKnownLocated.find(counts[i]); !refined && known != mKnownLocated.end())
            values[i] = known->second;
        else
            released.push_back(i);
    // The first release runs on this thread and shows its progress; one beside it runs quietly.
    const auto release = [&](std::size_t j)
    {
        const std::size_t i = released[j];
        values[i] = releaseAt(counts[i], refined, from, feedback, j == 0, chosen[i]);
    };
    if (released.size() == 2 && mPipeline.config().releasesSideBySide &&
        std::thread::hardware_concurrency() >= 2)
    {
        std::exception_ptr failure;
        std::thread second(
            [&]
            {
                try
                {
                    release(1);
                }
                catch (...)
                {
                    failure = std::current_exception();
                }
            });
        try
        {
            release(0);
        }
        catch (...)
        {
            second.join();
            throw;
        }
        second.join();
        if (failure)
            std::rethrow_exception(failure);
    }
    else
        for (std::size_t j = 0; j < released.size(); ++j)
            release(j);
    for (std::size_t i = 0; i < counts.size(); ++i)
    {
        mTrials.push_back({counts[i], refined, values[i]});
        if (chosen[i])
            mRefined.insert_or_assign(counts[i], std::move(*chosen[i]));
    }
    return values;
}

const RefinedSites* PipelineProbe::nearestRefined(std::uint64_t sites) const
{
    const auto above = mRefined.lower_bound(sites);
    if (above == mRefined.begin())
        return above == mRefined.end() ? nullptr : &above->second;
    const auto below = std::prev(above);
    return above == mRefined.end() || sites - below->first <= above->first - sites ? &below->second
                                                                                   : &above->second;
}

Count PipelineProbe::releaseAt(std::uint64_t sites, bool refined, RefinedFrom from, Feedback& feedback,
                               bool showProgress, std::optional<RefinedSites>& chosen) const
{
    QuietFeedback quiet(feedback);
    ProgressOnlyFeedback progress(feedback);
    Feedback& trial = showProgress ? static_cast<Feedback&>(progress) : quiet;
    if (const RefinedSites* nearest =
            refined && from == RefinedFrom::NearestTried ? nearestRefined(sites) : nullptr;
        nearest && nearest->report && resizable(nearest->sites.points.size(), sites))
    {
        std::optional<RefinementReport> report;
        std::optional<Sites> continued;
        {
            Feedback::Stage stage(trial, 0.0, 0.9);
            continued =
                mPipeline.resumeRefinement(mData, nearest->sites, *nearest->report, sites, report, trial);
        }
        if (continued)
        {
            Feedback::Stage stage(trial, 0.9, 1.0);
            Pipeline::PartitionedSites partitioned;
            const Count value = mPipeline.withheld(mData, *continued, trial, true, &partitioned);
            chosen = RefinedSites{std::move(*continued), std::move(report), std::move(partitioned)};
            return value;
        }
    }
    std::vector<Point> located;
    {
        Feedback::Stage stage(trial, 0.0, refined ? 0.1 : 0.5);
        located = mPipeline.locateSites(mData, sites, trial);
    }
    if (!refined)
    {
        Feedback::Stage stage(trial, 0.5, 1.0);
        return mPipeline.withheld(mData, Sites(std::move(located)), trial, false);
    }
    std::optional<RefinementReport> report;
    Sites sitesChosen;
    {
        Feedback::Stage stage(trial, 0.1, 0.9);
        sitesChosen = mPipeline.refineSites(mData, std::move(located), report, trial);
    }
    Feedback::Stage stage(trial, 0.9, 1.0);
    Pipeline::PartitionedSites partitioned;
    const Count value = mPipeline.withheld(mData, sitesChosen, trial, true, &partitioned);
    chosen = RefinedSites{std::move(sitesChosen), std::move(report), std::move(partitioned)};
    return value;
}

} // namespace vbas

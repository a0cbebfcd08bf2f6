#include "PipelineProbe.h"

#include <exception>
#include <thread>

namespace vbas
{

std::vector<Count> PipelineProbe::withheldOfEach(const std::vector<std::uint64_t>& counts, bool refined,
                                                 Feedback& feedback)
{
    std::vector<Count> values(counts.size());
    std::vector<std::optional<RefinedSites>> chosen(counts.size());
    const auto release = [&](std::size_t i)
    {
        values[i] = releaseAt(counts[i], refined, feedback, chosen[i]);
    };
    if (counts.size() == 2 && mPipeline.config().releasesSideBySide &&
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
        for (std::size_t i = 0; i < counts.size(); ++i)
            release(i);
    for (std::size_t i = 0; i < counts.size(); ++i)
    {
        mTrials.push_back({counts[i], refined, values[i]});
        if (chosen[i])
            mRefined.insert_or_assign(counts[i], std::move(*chosen[i]));
    }
    return values;
}

Count PipelineProbe::releaseAt(std::uint64_t sites, bool refined, const Feedback& feedback,
                               std::optional<RefinedSites>& chosen) const
{
    QuietFeedback quiet(feedback);
    std::vector<Point> located = mPipeline.locateSites(mData, sites, quiet);
    if (!refined)
        return mPipeline.withheld(mData, Sites(std::move(located)), quiet, false);
    std::optional<RefinementReport> report;
    Sites sitesChosen = mPipeline.refineSites(mData, std::move(located), report, quiet);
    const Count value = mPipeline.withheld(mData, sitesChosen, quiet);
    chosen = RefinedSites{std::move(sitesChosen), std::move(report)};
    return value;
}

} // namespace vbas

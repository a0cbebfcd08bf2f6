#pragma once

#include "Pipeline.h"
#include "sitecount/SiteCounter.h"

#include <map>
#include <optional>
#include <vector>

namespace vbas
{

/** Sites after the refinement, with what it did. */
struct RefinedSites
{
    Sites sites;
    std::optional<RefinementReport> report;
    /** Their partition as the release made it, for the release at the chosen count. */
    std::optional<Pipeline::PartitionedSites> partitioned;
};

/**
 * The release of a pipeline at a chosen site count (ReleaseProbe), for counters that search it. It keeps
 * the refined sites of every count it tried, so that the release at the chosen count is the one the search
 * measured, not a second refinement (which a time limit could end elsewhere).
 */
class PipelineProbe : public ReleaseProbe
{
public:
    PipelineProbe(const Pipeline& pipeline, const PreparedData& data)
        : mPipeline(pipeline)
        , mData(data)
    {
    }
    Count records() const override { return mData.regions.totalRecords() + mData.globallySuppressed; }
    double budgetPercent() const override { return mPipeline.config().suppressionBudget; }
    bool refines() const override
    {
        return !mPipeline.config().siteRefiner.empty() || !mPipeline.config().boundaryRefiner.empty();
    }
    Count withheld(std::uint64_t sites, bool refined, Feedback& feedback) override
    {
        return withheldOfEach({sites}, refined, feedback, RefinedFrom::Located).front();
    }

    /**
     * Two counts side by side on a machine with two cores: the releases share only read-only data. Both
     * continue from the refined sites tried before the call (RefinedFrom::NearestTried).
     */
    std::vector<Count> withheldOfEach(const std::vector<std::uint64_t>& counts, bool refined,
                                      Feedback& feedback, RefinedFrom from) override;

    /**
     * Releases without refinement made already of the same prepared records: a count among them is taken from
     * there, not released again (it still counts as tried).
     */
    void knowLocated(const std::vector<SiteCountTrial>& located)
    {
        for (const SiteCountTrial& trial : located)
            if (!trial.refined)
                mKnownLocated.emplace(trial.sites, trial.withheld);
    }
    std::optional<std::uint64_t> knownLocatedBoundary(Count budget) const override;
    /** Every release tried so far, in the order asked for. */
    const std::vector<SiteCountTrial>& trials() const { return mTrials; }

    /** The refined sites of `count` when it was tried refined. */
    std::optional<RefinedSites> refined(std::uint64_t count) const
    {
        const auto found = mRefined.find(count);
        return found == mRefined.end() ? std::nullopt : std::optional<RefinedSites>(found->second);
    }

private:
    /**
     * The release with `sites` sites; `chosen`: its refined sites when `refined`. Touches no member. Reports
     * its progress to `feedback` when `showProgress` (on the thread of `feedback` only).
     */
    Count releaseAt(std::uint64_t sites, bool refined, RefinedFrom from, Feedback& feedback,
                    bool showProgress, std::optional<RefinedSites>& chosen) const;
    /** The refined sites of the count tried refined nearest to `sites` (the lower of two as near), if any. */
    const RefinedSites* nearestRefined(std::uint64_t sites) const;

    const Pipeline& mPipeline;
    const PreparedData& mData;
    std::map<std::uint64_t, RefinedSites> mRefined;
    std::map<std::uint64_t, Count> mKnownLocated;
    std::vector<SiteCountTrial> mTrials;
};

} // namespace vbas

#include "Release.h"

#include "GeneralizationSearch.h"
#include "generalization/GeneralizedData.h"

#include <optional>

namespace vbas
{

ReleaseResult release(const Pipeline& pipeline, const Job& job, const ReleaseRequest& request,
                      Feedback& feedback)
{
    const std::shared_ptr<const Hierarchies> hierarchies =
        pipeline.hierarchiesOf(request, *job.dataset, feedback);
    if (!generalizes(*hierarchies))
    {
        PipelineResult result;
        {
            Feedback::Stage stage(feedback, 0.0, 0.7);
            result = pipeline.run(job, feedback);
        }
        Feedback::Stage stage(feedback, 0.7, 1.0);
        return pipeline.complete(job, job, std::move(result), std::nullopt, request, feedback);
    }
    std::optional<GeneralizationChoice> choice;
    {
        Feedback::Stage stage(feedback, 0.0, 0.4);
        choice.emplace(searchGeneralization(pipeline, job, *hierarchies, feedback));
    }
    const Job chosen = choice->jobOf(job);
    PipelineResult result;
    {
        Feedback::Stage stage(feedback, 0.4, 0.8);
        result = pipeline.run(chosen, feedback, choice->locatedTrials);
    }
    choice->report.releasedLoss =
        releasedLoss(result, classLoss(choice->dataset, *hierarchies, choice->report.levels));
    pipeline.recordHierarchies(choice->report, hierarchies);
    Feedback::Stage stage(feedback, 0.8, 1.0);
    return pipeline.complete(job, chosen, std::move(result), std::move(choice->report), request, feedback);
}

} // namespace vbas

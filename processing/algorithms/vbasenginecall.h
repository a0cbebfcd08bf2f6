#pragma once

#include "base/Error.h"
#include "vbasfeedbackadapter.h"
#include "vbasparameters.h"

#include <qgsprocessingfeedback.h>

#include <exception>
#include <type_traits>
#include <utility>
#include <vector>

/**
 * Which parameter a user must change to fix an engine error about a subject: the shared parameter names
 * (REGIONS, RECORDS, RECORD_REGION_FIELD, COUNT_FIELD, QUASI_IDENTIFIERS, K, SITE_COUNT, SITE_LOCATION,
 * PARTITION...), some given another name by an algorithm whose inputs are named differently.
 */
class VbasSubjectParameters
{
public:
    /** Returns these with errors about `subject` blamed on `parameter`. */
    VbasSubjectParameters renamed(vbas::Subject subject, const QString& parameter) const;
    /** Returns the parameter to blame for `subject`, or an empty string when no single parameter is. */
    QString parameterFor(vbas::Subject subject) const;

private:
    std::vector<std::pair<vbas::Subject, QString>> mRenamed;
};

/** Returns the QgsProcessingException an engine error becomes, prefixed with the parameter to change. */
QgsProcessingException vbasEngineError(const vbas::Error& error, const VbasSubjectParameters& subjects);
/** Returns the QgsProcessingException any other exception of engine code becomes. */
QgsProcessingException vbasUnexpectedEngineError(const std::exception& error);

/**
 * Runs engine code: `engineCall(vbas::Feedback&)`, reporting to `feedback`, and returns its result.
 * The only place where engine exceptions cross into QGIS: vbas::Error becomes a QgsProcessingException
 * prefixed with the parameter `subjects` names (or, for Subject::Option, the option's key upper-cased: the
 * parameter built from it), vbas::Canceled becomes VbasParameters::canceledError(), and any other
 * exception a QgsProcessingException too, because an exception QGIS does not expect would end the whole
 * application. A cancel that arrives while `engineCall` runs ends in canceledError() even when the engine
 * finished. Create sinks only after it returns, so that a canceled or failed run leaves no partial output
 * behind.
 */
template <typename EngineCall>
std::invoke_result_t<EngineCall, vbas::Feedback&>
vbasRunEngine(QgsProcessingFeedback* feedback, const VbasSubjectParameters& subjects, EngineCall&& engineCall)
{
    QgsProcessingFeedback silent;
    VbasFeedbackAdapter adapter(feedback ? *feedback : silent);
    try
    {
        // A cancel that came after the engine's last check still stops the algorithm here, before
        // any output exists.
        if constexpr (std::is_void_v<std::invoke_result_t<EngineCall, vbas::Feedback&>>)
        {
            std::forward<EngineCall>(engineCall)(static_cast<vbas::Feedback&>(adapter));
            adapter.checkCanceled();
        }
        else
        {
            auto result = std::forward<EngineCall>(engineCall)(static_cast<vbas::Feedback&>(adapter));
            adapter.checkCanceled();
            return result;
        }
    }
    catch (const vbas::Canceled&)
    {
        throw VbasParameters::canceledError();
    }
    catch (const vbas::Error& error)
    {
        throw vbasEngineError(error, subjects);
    }
    catch (const std::exception& error)
    {
        throw vbasUnexpectedEngineError(error);
    }
}

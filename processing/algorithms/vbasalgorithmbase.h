#pragma once

#include "Error.h"
#include "vbasfeedbackadapter.h"
#include "vbasparameters.h"

#include <qgsprocessingalgorithm.h>
#include <qgsprocessingfeedback.h>

#include <exception>
#include <type_traits>
#include <utility>

class QgsFeature;
class QgsFields;
class QgsProcessingParameterField;
class VbasOutputGuard;

/**
 * Base of every VBAS Processing algorithm: the parameters they share, the readers that validate
 * them with messages a user can act on, and runEngine(), the one funnel through which algorithms
 * call engine code.
 *
 * Every error a user can fix reads "PARAMETER: what is wrong; what to do", so that the dialog, the
 * log and qgis_process all point at the input to change.
 */
class VbasAlgorithmBase : public QgsProcessingAlgorithm, public VbasParameters
{
public:
    /** What l-diversity asks of the sensitive fields (SPEC section 10); l below 2 is off. */
    struct Diversity
    {
        int l = 0;
        bool entropy = false; //!< entropy l-diversity, else distinct l-diversity
        bool isOn() const { return l >= 2; }
    };

    /** Returns the VBAS icon, so that VBAS steps stand out in models and mixed search results. */
    QIcon icon() const override;
    QString svgIconPath() const override;
    /** The algorithm's help page, made from its own definitions (report/vbashelppage.h). */
    QString helpUrl() const override;

protected:
    /**
     * Runs processGuarded() inside a VbasOutputGuard: file destinations are checked before any work, the
     * algorithm writes them into staging folders, and only a run that ends well and whose outputs read
     * back whole moves them into place; any other run, whenever it stops, leaves the files as they were.
     */
    QVariantMap processAlgorithm(const QVariantMap& parameters, QgsProcessingContext& context,
                                 QgsProcessingFeedback* feedback) final;
    /**
     * The work of the algorithm, what processAlgorithm() is for other QGIS algorithms. `parameters` name
     * staged files: write features through VbasSink with `guard.writtenCounts()`, so that the guard
     * knows how many to expect.
     */
    virtual QVariantMap processGuarded(const QVariantMap& parameters, QgsProcessingContext& context,
                                       QgsProcessingFeedback* feedback, VbasOutputGuard& guard) = 0;
    /**
     * Runs once the outputs of processGuarded() read back whole, before they move into place: what must
     * hold for them to be published (the release ledger records a release there). Throws to publish nothing.
     */
    virtual void beforePublishing(QgsProcessingFeedback* feedback);
    /**
     * Refuses, before the run, a required field parameter left empty (they start empty), naming what to
     * choose; then QGIS's own checks.
     */
    bool checkParameterValues(const QVariantMap& parameters, QgsProcessingContext& context,
                              QString* message = nullptr) const override;
    /** What to do about the required field parameter `field` left empty, starting with its name. */
    QString emptyFieldMessage(const QgsProcessingParameterField& field) const;

    /** Adds K, the required anonymity: an integer ≥ 2, default 5. */
    void addKParameter();
    /**
     * Adds QUASI_IDENTIFIERS: fields of the layer parameter `parentLayerParameter`, at least one when
     * `required`.
     */
    void addQuasiIdentifiersParameter(const QString& parentLayerParameter, bool required);
    /** Adds COUNT_FIELD: an optional field of `parentLayerParameter` holding each row's record count. */
    void addCountFieldParameter(const QString& parentLayerParameter);

    /**
     * Adds SENSITIVE_FIELDS (fields of `parentLayerParameter`), L (0: off) and L_MEASURE (distinct or
     * entropy); `verifying` words the help for a check of a release rather than for making one.
     */
    void addDiversityParameters(const QString& parentLayerParameter, bool verifying);
    /** Returns L and L_MEASURE; throws, naming L, when l is 1 or when l is set without SENSITIVE_FIELDS. */
    Diversity parameterAsDiversity(const QVariantMap& parameters, QgsProcessingContext& context) const;

    /**
     * Returns the ids the choice parameter `name` (a VbasChoiceParameter) names, by label or by id; its
     * default when it is not given; an empty id for text that names no choice.
     */
    QStringList parameterAsChoiceIds(const QVariantMap& parameters, const QString& name,
                                     QgsProcessingContext& context) const;
    /** Returns the first of parameterAsChoiceIds(). */
    QString parameterAsChoiceId(const QVariantMap& parameters, const QString& name,
                                QgsProcessingContext& context) const
    {
        return parameterAsChoiceIds(parameters, name, context).value(0);
    }

    /** Returns K; throws when it is below 2 (scripts and saved models bypass the widget's minimum). */
    int parameterAsK(const QVariantMap& parameters, QgsProcessingContext& context) const;
    /**
     * Returns the index in `fields` of the field named by the field parameter `name`, or -1 when
     * the parameter is optional and empty. Throws, naming the parameter and the fields there are,
     * when the field does not exist or a required parameter is empty.
     */
    int parameterAsFieldIndex(const QVariantMap& parameters, const QString& name, const QgsFields& fields,
                              QgsProcessingContext& context) const;
    /** Returns the indices of the fields named by the multiple-field parameter `name`; throws like
     * parameterAsFieldIndex(). */
    QList<int> parameterAsFieldIndices(const QVariantMap& parameters, const QString& name,
                                       const QgsFields& fields, QgsProcessingContext& context) const;
    /** Returns the field names given to the field parameter `name`, as given. */
    QStringList parameterAsFieldNames(const QVariantMap& parameters, const QString& name,
                                      QgsProcessingContext& context) const;

    /**
     * Returns the parameter a user must change to fix an engine error about `subject`, or an empty
     * string when no single parameter is to blame. The default maps subjects to the shared parameter
     * names (REGIONS, RECORDS, RECORD_REGION_FIELD, COUNT_FIELD, QUASI_IDENTIFIERS, K, SITE_COUNT,
     * SITE_LOCATION, PARTITION); an algorithm whose inputs are named differently overrides it.
     */
    virtual QString parameterForSubject(vbas::Subject subject) const;

    /**
     * Runs engine code: `engineCall(vbas::Feedback&)`, reporting to `feedback`, and returns its result.
     * The only place where engine exceptions cross into QGIS: vbas::Error becomes a
     * QgsProcessingException prefixed with parameterForSubject() (or, for Subject::Option, the option's
     * key upper-cased: the parameter built from it), vbas::Canceled becomes
     * canceledError(), and any other exception a QgsProcessingException too, because an exception
     * QGIS does not expect would end the whole application. A cancel that arrives while `engineCall`
     * runs ends in canceledError() even when the engine finished. Create sinks only after it returns, so
     * that a canceled or failed run leaves no partial output behind.
     */
    template <typename EngineCall>
    std::invoke_result_t<EngineCall, vbas::Feedback&> runEngine(QgsProcessingFeedback* feedback,
                                                                EngineCall&& engineCall) const
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
            throw canceledError();
        }
        catch (const vbas::Error& error)
        {
            throw engineError(error);
        }
        catch (const std::exception& error)
        {
            throw unexpectedEngineError(error);
        }
    }

private:
    QgsProcessingException engineError(const vbas::Error& error) const;
    static QgsProcessingException unexpectedEngineError(const std::exception& error);
};

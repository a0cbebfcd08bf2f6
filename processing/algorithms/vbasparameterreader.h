#pragma once

#include "base/Types.h"
#include "vbasenginecall.h"
#include "vbasparameters.h"
#include "vbasqgiscompat.h"

#include <qgscoordinatereferencesystem.h>
#include <qgsfeaturesink.h>
#include <qgsprocessingalgorithm.h>
#include <qgsprocessingcontext.h>
#include <qgsprocessingutils.h>

#include <memory>

class QgsFields;
class QgsMapLayer;
class QgsProcessingParameterField;
class QgsVectorLayer;

/**
 * Reads the parameters of one run of an algorithm, as QGIS's parameterAs...() do, plus the readers that
 * validate VBAS's parameters with messages a user can act on ("PARAMETER: what is wrong; what to do"), so
 * that the dialog, the log and qgis_process all point at the input to change. It also runs engine code
 * through vbasRunEngine() with the algorithm's names for the subjects of engine errors.
 */
class VbasParameterReader
{
public:
    VbasParameterReader(const QgsProcessingAlgorithm& algorithm, const QVariantMap& parameters,
                        QgsProcessingContext& context, VbasSubjectParameters subjects = {});

    const QgsProcessingAlgorithm& algorithm() const { return mAlgorithm; }
    const QVariantMap& parameters() const { return mParameters; }
    QgsProcessingContext& context() const { return mContext; }

    /** Returns whether the algorithm has the parameter `name`. */
    bool has(const QString& name) const { return mAlgorithm.parameterDefinition(name) != nullptr; }
    /** Returns whether the optional parameter `name` was given a value (a layer, a text that is not empty).
     */
    bool isGiven(const QString& name) const;

    int asInt(const QString& name) const;
    double asDouble(const QString& name) const;
    bool asBoolean(const QString& name) const;
    QString asString(const QString& name) const;
    QString asFileOutput(const QString& name) const;
    QgsCoordinateReferenceSystem asCrs(const QString& name) const;
    QgsVectorLayer* asVectorLayer(const QString& name) const;
    QList<QgsMapLayer*> asLayerList(const QString& name) const;
    QStringList asFileList(const QString& name) const;
    /** Returns the source `name` names; throws QGIS's own error when it cannot be read. */
    std::unique_ptr<QgsProcessingFeatureSource> source(const QString& name) const;
    /** Returns the sink of output `name` (null when an optional output is skipped); `destination` names it.
     */
    std::unique_ptr<QgsFeatureSink> sink(const QString& name, QString& destination, const QgsFields& fields,
                                         VbasCompat::WkbType type,
                                         const QgsCoordinateReferenceSystem& crs = {}) const;
    /** Returns QGIS's error for the sink of `name` that could not be created. */
    QgsProcessingException invalidSinkError(const QString& name) const;
    /** Returns QGIS's error for a feature `sink`, the output `name`, did not take. */
    QgsProcessingException writeFeatureError(QgsFeatureSink* sink, const QString& name) const;

    /**
     * Returns the ids the choice parameter `name` (a VbasChoiceParameter) names, by label or by id; its
     * default when it is not given; an empty id for text that names no choice.
     */
    QStringList choiceIds(const QString& name) const;
    /** Returns the first of choiceIds(). */
    QString choiceId(const QString& name) const { return choiceIds(name).value(0); }
    /** Returns the registry ids chosen in the strategy parameter `name` (at least one, else it throws). */
    QStringList strategyIds(const QString& name) const;

    /** Returns the field names given to the field parameter `name`, as given. */
    QStringList fieldNames(const QString& name) const;
    /**
     * Returns the index in `fields` of the field named by the field parameter `name`, or -1 when
     * the parameter is optional and empty. Throws, naming the parameter and the fields there are,
     * when the field does not exist or a required parameter is empty.
     */
    int fieldIndex(const QString& name, const QgsFields& fields) const;
    /** Returns the indices of the fields named by the multiple-field parameter `name`; throws like
     * fieldIndex(). */
    QList<int> fieldIndices(const QString& name, const QgsFields& fields) const;

    /** Returns K; throws when it is below 2 (scripts and saved models bypass the widget's minimum). */
    int k() const;
    /**
     * Returns the k the parameters ask for: ceil(1 / MAX_RISK) when a highest re-identification risk is
     * given, else K; says which in the log of `feedback`.
     */
    vbas::Count requiredK(QgsProcessingFeedback* feedback = nullptr) const;

    /** Runs engine code through vbasRunEngine(), naming this algorithm's parameters in its errors. */
    template <typename EngineCall>
    auto runEngine(QgsProcessingFeedback* feedback, EngineCall&& engineCall) const
    {
        return vbasRunEngine(feedback, mSubjects, std::forward<EngineCall>(engineCall));
    }

private:
    const QgsProcessingParameterDefinition* definition(const QString& name) const
    {
        return mAlgorithm.parameterDefinition(name);
    }

    const QgsProcessingAlgorithm& mAlgorithm;
    /** Errors of this run name parameters with the algorithm's labels. */
    const VbasParameters::LabelScope mLabels;
    const QVariantMap mParameters;
    QgsProcessingContext& mContext;
    VbasSubjectParameters mSubjects;
};

/** What to do about the required field parameter `field` of `algorithm` left empty, starting with its name.
 */
QString vbasEmptyFieldMessage(const QgsProcessingAlgorithm& algorithm,
                              const QgsProcessingParameterField& field);

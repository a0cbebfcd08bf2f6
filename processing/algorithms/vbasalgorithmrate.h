#pragma once

#include "vbasgivenaggregation.h"
#include "vbasreleasealgorithm.h"

#include <optional>

/**
 * vbas:rateaggregation: rates an existing aggregation (given as the aggregate of each small area)
 * the way VBAS rates its own: local suppression to k, every metric, per-aggregate figures, and the
 * release it gives.
 */
class VbasAlgorithmRate : public VbasReleaseAlgorithm
{
public:
    void initAlgorithm(const QVariantMap& configuration = QVariantMap()) override;
    QString name() const override;
    QString displayName() const override;
    QStringList tags() const override;
    QString group() const override;
    QString groupId() const override;
    QString shortHelpString() const override;
    QString shortDescription() const override;
    VbasAlgorithmRate* createInstance() const override;

protected:
    std::optional<vbas::AreaRegions> givenAggregation(const Job& job, const QVariantMap& parameters,
                                                      QgsProcessingContext& context) override;
    VbasRelease computeRelease(const vbas::Pipeline& pipeline, const Job& job,
                               const vbas::ReleaseRequest& request, const QVariantMap& parameters,
                               QgsProcessingContext& context, QgsProcessingFeedback* feedback) const override;

private:
    /** AGGREGATE_FIELD's aggregation, read by givenAggregation(). */
    std::optional<VbasGivenAggregation> mGiven;
};

#pragma once

#include "vbasalgorithm.h"

/**
 * vbas:rateaggregation: rates an existing aggregation (given as the aggregate of each small area)
 * the way VBAS rates its own: local suppression to k, every metric, per-aggregate figures, and the
 * release it gives.
 */
class VbasAlgorithmRate : public VbasAlgorithm
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
    QVariantMap processAlgorithm(const QVariantMap& parameters, QgsProcessingContext& context,
                                 QgsProcessingFeedback* feedback) override;
};

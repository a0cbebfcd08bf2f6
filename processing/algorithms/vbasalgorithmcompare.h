#pragma once

#include "vbasalgorithm.h"

/**
 * vbas:compareapproaches: runs every combination of the chosen strategies over a sweep of site
 * counts and tabulates the metrics, marking the Pareto-optimal rows (SPEC section 8).
 */
class VbasAlgorithmCompare : public VbasAlgorithm
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
    VbasAlgorithmCompare* createInstance() const override;

protected:
    QVariantMap processAlgorithm(const QVariantMap& parameters, QgsProcessingContext& context,
                                 QgsProcessingFeedback* feedback) override;
};

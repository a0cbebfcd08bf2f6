#pragma once

#include "vbasalgorithmaggregate.h"

/**
 * vbas:populationfloor: the main job without quasi-identifiers: regions merged until every region holds at
 * least k records (a population floor). It protects a count, not a person: its name, help and log say that
 * someone who knows a person's age or sex is not kept from finding them.
 */
class VbasAlgorithmPopulationFloor : public VbasAlgorithmAggregate
{
public:
    void initAlgorithm(const QVariantMap& configuration = QVariantMap()) override;
    QString name() const override;
    QString displayName() const override;
    QStringList tags() const override;
    QString shortHelpString() const override;
    QString shortDescription() const override;
    VbasAlgorithmPopulationFloor* createInstance() const override;

protected:
    VbasRelease computeRelease(const vbas::Pipeline& pipeline, const Job& job,
                               const vbas::ReleaseRequest& request, const QVariantMap& parameters,
                               QgsProcessingContext& context, QgsProcessingFeedback* feedback) const override;
};

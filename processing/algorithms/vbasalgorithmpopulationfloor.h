#pragma once

#include "vbasalgorithm.h"

/**
 * vbas:populationfloor: the main job without quasi-identifiers: regions merged until every region holds at
 * least k records (a population floor). It protects a count, not a person: its name, help and log say that
 * someone who knows a person's age or sex is not kept from finding them.
 */
class VbasAlgorithmPopulationFloor : public VbasAlgorithm
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
    VbasAlgorithmPopulationFloor* createInstance() const override;

protected:
    QVariantMap processAlgorithm(const QVariantMap& parameters, QgsProcessingContext& context,
                                 QgsProcessingFeedback* feedback) override;
};

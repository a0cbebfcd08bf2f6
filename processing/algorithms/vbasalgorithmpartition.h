#pragma once

#include "vbasalgorithm.h"

/**
 * vbas:partitionregions: the release around sites the user gives (for example sites from
 * vbas:selectsites moved by hand): partition, local suppression and rating, with the same outputs as
 * vbas:aggregateregions.
 */
class VbasAlgorithmPartition : public VbasAlgorithm
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
    VbasAlgorithmPartition* createInstance() const override;

protected:
    QVariantMap processAlgorithm(const QVariantMap& parameters, QgsProcessingContext& context,
                                 QgsProcessingFeedback* feedback) override;
};

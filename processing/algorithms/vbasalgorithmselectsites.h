#pragma once

#include "vbasalgorithm.h"

/**
 * vbas:selectsites, the first two stages (and ADC when asked): where the Voronoi sites of a release
 * go (SPEC sections 3, 4 and 6), as a point layer a user can inspect, move, and give to
 * vbas:partitionregions.
 */
class VbasAlgorithmSelectSites : public VbasAlgorithm
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
    VbasAlgorithmSelectSites* createInstance() const override;

protected:
    QVariantMap processAlgorithm(const QVariantMap& parameters, QgsProcessingContext& context,
                                 QgsProcessingFeedback* feedback) override;
};

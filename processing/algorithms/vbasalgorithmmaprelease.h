#pragma once

#include "vbasalgorithm.h"

/**
 * vbas:maprelease: regions at a population or case floor, no small area dropped, with every figure of their
 * rates (SPEC section 15): crude and age-standardized rates, SIR, smoothed rates, the preset's flags; the
 * crosswalk, the adjacency for R and INLA, the report; recorded in the release ledger like every release.
 */
class VbasAlgorithmMapRelease : public VbasAlgorithm
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
    VbasAlgorithmMapRelease* createInstance() const override;

protected:
    QVariantMap processAlgorithm(const QVariantMap& parameters, QgsProcessingContext& context,
                                 QgsProcessingFeedback* feedback) override;
};

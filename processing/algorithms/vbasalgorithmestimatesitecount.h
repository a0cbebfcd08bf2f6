#pragma once

#include "vbasalgorithm.h"

/**
 * vbas:estimatesitecount, the first stage alone: how many sites (aggregated regions) a site-count
 * method asks for (SPEC section 3), with the figures it is based on.
 */
class VbasAlgorithmEstimateSiteCount : public VbasAlgorithm
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
    VbasAlgorithmEstimateSiteCount* createInstance() const override;

protected:
    QVariantMap processAlgorithm(const QVariantMap& parameters, QgsProcessingContext& context,
                                 QgsProcessingFeedback* feedback) override;
};

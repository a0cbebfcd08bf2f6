#pragma once

#include "vbasalgorithm.h"

/**
 * vbas:withdrawrelease: marks a release ledger entry withdrawn (a release recorded but never published), with
 * its reason, so that it binds nothing from then on.
 */
class VbasAlgorithmWithdraw : public VbasAlgorithm
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
    VbasAlgorithmWithdraw* createInstance() const override;

protected:
    QVariantMap processAlgorithm(const QVariantMap& parameters, QgsProcessingContext& context,
                                 QgsProcessingFeedback* feedback) override;
};

#pragma once

#include "vbasalgorithm.h"

/**
 * vbas:releaseonaggregation: releases records (the next quarter, a corrected table) on the regions of an
 * earlier release, from the release ledger or from a field of the small areas: k and l are checked again and
 * the records that stand out are withheld, the regions never change (SPEC section 13).
 */
class VbasAlgorithmReleaseOnAggregation : public VbasAlgorithm
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
    VbasAlgorithmReleaseOnAggregation* createInstance() const override;

protected:
    QVariantMap processAlgorithm(const QVariantMap& parameters, QgsProcessingContext& context,
                                 QgsProcessingFeedback* feedback) override;
};

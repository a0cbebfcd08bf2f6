#pragma once

#include "vbasalgorithm.h"

/**
 * vbas:checkanonymity, the independent verifier of a release: counts the records of every
 * (released region, quasi-identifier values) group and lists the groups below k.
 *
 * It deliberately uses no engine code, only plain QGIS feature iteration, so that it can serve as
 * an oracle for the engine's own guarantee.
 */
class VbasAlgorithmCheckAnonymity : public VbasAlgorithm
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
    VbasAlgorithmCheckAnonymity* createInstance() const override;

protected:
    QVariantMap processAlgorithm(const QVariantMap& parameters, QgsProcessingContext& context,
                                 QgsProcessingFeedback* feedback) override;
};

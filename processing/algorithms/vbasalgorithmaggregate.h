#pragma once

#include "vbasalgorithm.h"

/**
 * vbas:aggregateregions, the main job: merges small areas into regions around Voronoi sites until
 * every group of look-alike records in every region holds at least k records, suppresses the records
 * that still stand out, and writes the release with what it lost (SPEC section 2).
 */
class VbasAlgorithmAggregate : public VbasAlgorithm
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
    VbasAlgorithmAggregate* createInstance() const override;

protected:
    QVariantMap processAlgorithm(const QVariantMap& parameters, QgsProcessingContext& context,
                                 QgsProcessingFeedback* feedback) override;
};

#pragma once

#include "vbasreleasealgorithm.h"

/**
 * vbas:partitionregions: the release around sites the user gives (for example sites from
 * vbas:selectsites moved by hand): partition, local suppression and rating, with the same outputs as
 * vbas:aggregateregions.
 */
class VbasAlgorithmPartition : public VbasReleaseAlgorithm
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
    VbasRelease computeRelease(const vbas::Pipeline& pipeline, const Job& job,
                               const vbas::ReleaseRequest& request, const QVariantMap& parameters,
                               QgsProcessingContext& context, QgsProcessingFeedback* feedback) const override;
    void checkInputs(const QVariantMap& parameters, QgsProcessingContext& context) const override;
    QString parameterForSubject(vbas::Subject subject) const override;
};

#pragma once

#include "vbasgivenaggregation.h"
#include "vbasreleasealgorithm.h"

#include <optional>

/**
 * vbas:releaseonaggregation: releases records (the next quarter, a corrected table) on the regions of an
 * earlier release, from the release ledger or from a field of the small areas: k and l are checked again and
 * the records that stand out are withheld, the regions never change (SPEC section 13).
 */
class VbasAlgorithmReleaseOnAggregation : public VbasReleaseAlgorithm
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
    void readLedger(const VbasLedgerStore* ledger, const QVariantMap& parameters,
                    QgsProcessingContext& context) override;
    GeneralizationDefinition generalizationDefinition(const QVariantMap& parameters,
                                                      QgsProcessingContext& context) const override;
    std::optional<vbas::AreaRegions> givenAggregation(const Job& job, const QVariantMap& parameters,
                                                      QgsProcessingContext& context) override;
    VbasRelease computeRelease(const vbas::Pipeline& pipeline, const Job& job,
                               const vbas::ReleaseRequest& request, const QVariantMap& parameters,
                               QgsProcessingContext& context, QgsProcessingFeedback* feedback) const override;

private:
    /** The earlier release followed (LEDGER_ENTRY), read by readLedger(). */
    std::optional<vbas::LedgerEntry> mEntry;
    /** Its aggregation, or AGGREGATE_FIELD's, read by givenAggregation(). */
    std::optional<VbasGivenAggregation> mGiven;
};

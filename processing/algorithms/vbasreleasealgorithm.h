#pragma once

#include "vbasgivenaggregation.h"
#include "vbasjobalgorithm.h"
#include "vbasledgerstore.h"
#include "vbasoutputs.h"

#include <memory>
#include <optional>

/**
 * Base of the algorithms that produce a release (aggregateregions, partitionregions,
 * rateaggregation): QGIS's four blocks, the same for all but the engine call. It reads the parameters
 * and builds the pipeline (a bad one fails before any data is read), loads the job, makes the release
 * (computeRelease(), the only part each algorithm writes) and writes the same outputs for all; progress
 * runs in these three steps.
 */
class VbasReleaseAlgorithm : public VbasJobAlgorithm
{
protected:
    /**
     * Adds RELEASE_FIELDS, RECORD_ID_FIELD, RELEASE_LEDGER, ADD_ROW_ID, KEEP_SUPPRESSED, SHADE_BY,
     * MAP_IMAGE_WIDTH, MAP_IMAGE_HEIGHT, the outputs OUTPUT, OUTPUT_RECORDS, OUTPUT_REVIEW, OUTPUT_HTML_FILE,
     * OUTPUT_MAP_IMAGE and the numbers; with `withSites` also OUTPUT_MAPPING, OUTPUT_SITES and OUTPUT_CELLS.
     * Each output's name says whether it is for publication or for review (docs/publishing.md).
     */
    void addReleaseOutputs(bool withSites);

    /**
     * Reads what the algorithm takes from the release ledger before the records are read (an earlier
     * release to follow); `ledger` is null when none is kept. The default reads nothing.
     */
    virtual void readLedger(const VbasLedgerStore* ledger, const QVariantMap& parameters,
                            QgsProcessingContext& context);
    /**
     * The aggregation the release is made on when the algorithm is given one (small area id -> region id,
     * sorted by small area), read before the engine runs; nullopt when the release makes its own.
     */
    virtual std::optional<vbas::AreaRegions> givenAggregation(const Job& job, const QVariantMap& parameters,
                                                              QgsProcessingContext& context);

    /** Checks the algorithm's own inputs before any data is read (the default has none). */
    virtual void checkInputs(const QVariantMap& parameters, QgsProcessingContext& context) const;
    /**
     * Returns the release of `job`: converts what the algorithm reads beyond the job and makes one engine
     * call of `pipeline` (through runEngine) with `request`.
     */
    virtual VbasRelease computeRelease(const vbas::Pipeline& pipeline, const Job& job,
                                       const vbas::ReleaseRequest& request, const QVariantMap& parameters,
                                       QgsProcessingContext& context,
                                       QgsProcessingFeedback* feedback) const = 0;
    /** The release of `job` on the aggregation `given` (one engine call), its regions named by their ids. */
    VbasRelease releaseOn(const vbas::Pipeline& pipeline, const Job& job, const VbasGivenAggregation& given,
                          const vbas::ReleaseRequest& request, QgsProcessingFeedback* feedback) const;

private:
    QVariantMap processGuarded(const QVariantMap& parameters, QgsProcessingContext& context,
                               QgsProcessingFeedback* feedback, VbasOutputGuard& guard) final;
    /** Records the release in its ledger (checked once more against releases recorded meanwhile). */
    void beforePublishing(QgsProcessingFeedback* feedback) final;
    /** The ledger RELEASE_LEDGER names; in desktop QGIS the profile's when it is empty; else null. */
    std::unique_ptr<VbasLedgerStore> openLedger(const QVariantMap& parameters,
                                                QgsProcessingContext& context) const;
    /** The release as its ledger keeps it. */
    vbas::LedgerEntry ledgerEntry(const Job& job, const VbasRelease& release,
                                  const vbas::RecordFingerprint& records, const QVariantMap& parameters,
                                  QgsProcessingContext& context) const;

    /** The ledger of the run and what it records once the outputs read back whole. */
    struct LedgerRecord
    {
        std::unique_ptr<VbasLedgerStore> store;
        vbas::LedgerEntry entry;
        /** Entries the release was checked against; later ones are checked at recording. */
        std::size_t checked = 0;
        bool givenAggregation = false;
    };
    std::unique_ptr<LedgerRecord> mLedger;
    /**
     * Creates the sinks asked for, writes them (counted for `guard`), the map image and the report, has the
     * layers QGIS loads styled for review, and returns every output.
     */
    QVariantMap writeRelease(const QVariantMap& parameters, QgsProcessingContext& context,
                             QgsProcessingFeedback* feedback, VbasOutputGuard& guard, const Job& job,
                             const VbasRelease& release, const QStringList& ledgerLines) const;
};

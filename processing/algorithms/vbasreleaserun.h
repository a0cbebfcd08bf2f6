#pragma once

#include "Pipeline.h"
#include "vbasgivenaggregation.h"
#include "vbasjob.h"
#include "vbasledgerstore.h"
#include "vbasoutputs.h"

#include <QStringList>
#include <QVariantMap>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QgsProcessingFeedback;
class VbasOutputGuard;
class VbasParameterReader;
class VbasSteps;

/**
 * The steps every release shares (aggregateregions, populationfloor, partitionregions, rateaggregation,
 * releaseonaggregation), called in this order by each one's processAlgorithm(), which adds its own between
 * them: configure() builds the pipeline (a bad one fails before any data is read), openLedger() opens the
 * release ledger, loadJob() loads the job, checkLedger() asks the ledger what it allows these records,
 * compute() makes the release with the algorithm's one engine call, write() writes the same outputs for
 * all (VbasReleaseOutputs), and record() records the release in the ledger once the outputs read back
 * whole (VbasOutputGuard::runAndCommit()). Progress runs in three steps: loading, computing, writing.
 */
class VbasReleaseRun
{
public:
    /** How an algorithm makes its release: one engine call of `pipeline` on `job` with `request`. */
    using Compute =
        std::function<VbasRelease(const vbas::Pipeline& pipeline, const VbasJob& job,
                                  const vbas::ReleaseRequest& request, QgsProcessingFeedback* feedback)>;

    /** A release of the algorithm whose parameters `read` reads, reporting to `feedback`. */
    VbasReleaseRun(const VbasParameterReader& read, QgsProcessingFeedback* feedback);
    ~VbasReleaseRun();
    VbasReleaseRun(const VbasReleaseRun&) = delete;
    VbasReleaseRun& operator=(const VbasReleaseRun&) = delete;

    /** Reads the strategy parameters and builds the pipeline. */
    void configure();
    /**
     * Opens the ledger RELEASE_LEDGER names (made only with NEW_LEDGER; its key from LEDGER_KEY or the key
     * folder), in desktop QGIS the profile's when it is empty; null only when NO_LEDGER says none is kept.
     * From the command line an empty RELEASE_LEDGER without NO_LEDGER is refused.
     */
    const VbasLedgerStore* openLedger();
    /**
     * Loads the job (the first step); the release is made at `earlier` (an earlier release's generalization)
     * when given, else at GENERALIZATION's.
     */
    const VbasJob& loadJob(const vbas::Generalization* earlier = nullptr);
    /**
     * Asks the ledger what it allows these records before the engine runs, so that a refusal costs no
     * computation, and logs its answer; `given` is the aggregation the release is made on, when the
     * algorithm is given one (it is then held to the earlier releases on its small areas).
     */
    void checkLedger(const std::optional<vbas::AreaRegions>& given = std::nullopt);
    /**
     * Makes the release with `engineCall` (the second step), judges every published column on what will be
     * written (refusing the run above the thresholds) and prepares its ledger entry.
     */
    void compute(const Compute& engineCall);
    /** compute() with the pipeline's own release of the job (aggregateregions, populationfloor). */
    void computeRelease();
    /** Writes the outputs (the third step) and returns them. */
    QVariantMap write(VbasOutputGuard& guard);
    /**
     * Records the release in its ledger, checked once more against releases recorded meanwhile; a trial
     * (every publishable output a temporary layer) is not recorded, and its layers say so.
     */
    void record();

    /** Returns the release of `job` on the aggregation `given` (one engine call), its regions named by their
     * ids. */
    VbasRelease releaseOn(const vbas::Pipeline& pipeline, const VbasJob& job,
                          const VbasGivenAggregation& given, const vbas::ReleaseRequest& request,
                          QgsProcessingFeedback* feedback) const;

private:
    /** Refuses a release that publishes no record. */
    void refuseEmptyRelease() const;
    /** The release as its ledger keeps it. */
    vbas::LedgerEntry ledgerEntry() const;
    /**
     * Logs what the release's checks of the published `fields` found, and refuses a field, or pair, that
     * singles rows out or places them in their small area.
     */
    void reportFieldChecks(const std::vector<vbas::PublishedField>& fields);
    /** Whether every publishable output is a temporary layer: a trial, not a release. */
    bool isTrial() const;

    const VbasParameterReader& mRead;
    QgsProcessingFeedback* mFeedback = nullptr;
    std::unique_ptr<vbas::Pipeline> mPipeline;
    std::unique_ptr<VbasLedgerStore> mLedger;
    std::unique_ptr<VbasSteps> mSteps;
    std::optional<VbasJob> mJob;
    std::optional<VbasRelease> mRelease;
    /** What the ledger said, for the log and the report. */
    QStringList mLedgerLines;
    std::optional<vbas::AreaRegions> mGiven;
    /** This release's small areas (with their given regions) and where they lie. */
    vbas::ReleaseTerritory mTerritory;
    std::optional<vbas::RecordFingerprint> mRecords;
    /** The entries OTHER_PEOPLE names. */
    std::vector<std::int64_t> mOtherPeople;
    /** The entries the release was checked against; later ones are checked at record(). */
    std::vector<vbas::LedgerEntry> mEntries;
    /** What record() records, once the release is made. */
    std::optional<vbas::LedgerEntry> mEntry;
};

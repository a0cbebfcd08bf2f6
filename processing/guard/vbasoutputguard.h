#pragma once

#include "vbasparameters.h"
#include "vbaswrittencounts.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QVariantMap>

#include <functional>
#include <memory>
#include <utility>
#include <vector>

class QgsProcessingAlgorithm;
class QgsProcessingContext;
class QgsProcessingFeedback;
namespace VbasStopSignals
{
class Watch;
}

/**
 * Makes the file outputs of one algorithm run whole or nothing (SPEC section 10): a release appears
 * complete or not at all, whatever stops it (an error, a full disk, a cancel, a kill, another run).
 *
 * Created before anything is read, it checks every file destination (GeoPackage, also as
 * "ogr:dbname='f.gpkg' table=x", CSV, shapefile, FlatGeobuf..., HTML, PNG): its folder exists and takes a
 * new file, a file already there can be replaced, no two outputs overwrite the same file, and no output
 * overwrites an input layer. Every problem throws a QgsProcessingException naming the output parameter,
 * before any work is done.
 *
 * It then stages: every file destination is redirected into a staging folder
 * `<folder>/.vbas-staging-XXXXXX/new/` next to the final file (so that putting it in place is a rename
 * on one file system), under the same file name; outputs that are layers of one GeoPackage share one
 * staged file, which starts as a copy of the GeoPackage already there so that its other layers survive.
 * The algorithm runs with parameters() and reports through countWritten() what it wrote.
 *
 * commit() verifies every staged output (a vector file opens with GDAL, its layer exists and holds as
 * many features as the algorithm wrote into it; a file destination is not empty) and only then, under an
 * exclusive lock on each destination folder (`.vbas-release.lock`), writes a journal and renames the
 * staged files over the final ones (old sidecars and SQLite journals are moved aside first). A run
 * killed during those renames is completed by the next run into the folder (roll forward: everything
 * staged was verified). Results and the layers QGIS loads on completion name the final files.
 *
 * A run that fails, is canceled or throws deletes its staging folders; so does a request to stop the process
 * (SIGTERM, SIGINT, SIGHUP: VbasStopSignals), before the signal takes its course. Each run holds a lock on
 * `run.lock` inside its staging folder for its life; a run starting in a folder removes (or, with a
 * journal, completes) every staging folder whose lock nobody holds, i.e. what killed runs left.
 * Concurrent runs into one folder stage apart and commit one after the other, so the files in place are
 * always one run's set.
 *
 * Destinations that are no files (memory layers, PostGIS and other databases) are left to their
 * provider, which gives its own transaction guarantees or none; temporary outputs go to QGIS's own
 * temporary folder, which QGIS clears.
 */
class VbasOutputGuard
{
public:
    VbasOutputGuard(const QgsProcessingAlgorithm& algorithm, const QVariantMap& parameters,
                    QgsProcessingContext& context, QgsProcessingFeedback* feedback = nullptr);
    ~VbasOutputGuard();
    VbasOutputGuard(const VbasOutputGuard&) = delete;
    VbasOutputGuard& operator=(const VbasOutputGuard&) = delete;

    /** Returns the parameters to run the algorithm with: every file destination goes to its staged file. */
    const QVariantMap& parameters() const { return mParameters; }

    /**
     * Runs the algorithm's work, `work()`, which writes the staged outputs (parameters()) and returns the
     * results, then commit()s them with `beforeMoving`: what each algorithm's processAlgorithm() does. An
     * error of the work names the file the user chose, not its staged copy; a cancel that comes after the
     * work's last check (while the report was written, say) still takes every output back, so that a
     * canceled run never leaves files.
     */
    QVariantMap runAndCommit(QgsProcessingFeedback* feedback, const std::function<QVariantMap()>& work,
                             const std::function<void()>& beforeMoving = {});

    /**
     * Verifies the staged outputs, runs `beforeMoving` (what must hold before a release is published; it
     * throws to stop), moves them into place and returns `results` with every staged path replaced by the
     * final one (the layers to load on completion too). Throws, naming the output, when an output cannot be
     * read back whole; then nothing moves.
     */
    QVariantMap commit(const QVariantMap& results, const std::function<void()>& beforeMoving = {});

    /** What the run's sinks wrote, per output: give it to each VbasSink of a guarded output. */
    VbasWrittenCounts& writtenCounts() { return mWritten; }
    /** Returns `destination` (a path or layer source, or a message naming one) with a staged path made final.
     */
    QString finalDestination(const QString& destination) const;
    /**
     * Moves the entry of `destination` among the context's layers to load on completion to its final path
     * and returns that path, so that a post-processor can be attached under the name QGIS will load.
     */
    QString publish(const QString& destination);

private:
    /** A file an output parameter writes, with the layer inside it (empty: the whole file). */
    struct Destination
    {
        QString parameter;
        QString path; //!< final, absolute
        QString layer;
        bool isFile = false;    //!< a file destination (HTML, PNG), not a vector layer
        bool forReview = false; //!< for the custodian's review only, never to publish
    };
    struct Staging;

    void checkWritable(const Destination& destination) const;
    /**
     * Refuses a review output in a file that receives a publishable one or already holds a layer that is not
     * for review, and a publishable output in a file that already holds a review layer (of an earlier run).
     */
    void checkAudiences() const;
    /** Refuses RELEASE_LEDGER as an output's file, and an output into a file that holds a release ledger. */
    void checkLedgerApart(const QString& ledger) const;
    void stage(const Destination& destination);
    QString stagedPath(const Destination& destination) const;
    void verify(const Destination& destination) const;
    QString rewritten(QString text) const;
    void relabelLayersToLoad();
    void removeLayersToLoad();

    /** First, so that it is last to go: stop signals remove what the run staged for its whole life. */
    std::unique_ptr<VbasStopSignals::Watch> mWatch;
    /** Errors of the run, the guard's own first, name parameters with the algorithm's labels. */
    const VbasParameters::LabelScope mLabels;
    QgsProcessingContext& mContext;
    QgsProcessingFeedback* mFeedback = nullptr;
    QVariantMap mParameters;
    std::vector<Destination> mDestinations;
    /** Per destination folder, its staging folder. */
    std::vector<std::unique_ptr<Staging>> mStagings;
    /** Features written per output parameter, as the algorithm's sinks counted them. */
    VbasWrittenCounts mWritten;
    /** Per staging folder, the prefix of its staged paths and the final one. */
    std::vector<std::pair<QString, QString>> mPrefixes;
    /** Layers to load that publish() moved to their final path before the commit. */
    QStringList mPublished;
    bool mCommitted = false;
};

#pragma once

#include <QString>

#include <atomic>
#include <mutex>

class QgsFeedback;

/**
 * What a request to stop the process (SIGTERM, SIGINT, SIGHUP) does while runs are staging outputs: their
 * staging folders (each holding a whole second release) and the folder locks they hold are removed, their
 * feedback is canceled, and only then does the signal do what it did before (the process ends by it, or the
 * host's own handler runs: qgis_process cancels on SIGINT). A signal the process ignores (nohup) stays
 * ignored.
 *
 * The handlers are installed while at least one Watch lives and the previous ones restored after the last.
 * A handler only wakes a thread of its own, which does the work outside the signal's context; it waits for a
 * commit that is moving files into place (holdOff()), so that the files in place are always one release.
 */
namespace VbasStopSignals
{
/** Keeps the stop signals watched while it lives, and cancels `feedback` (when given) on one. */
class Watch
{
public:
    explicit Watch(QgsFeedback* feedback);
    ~Watch();
    Watch(const Watch&) = delete;
    Watch& operator=(const Watch&) = delete;

    /** Returns true once a stop signal has come (the paths to remove are gone: nothing may be moved). */
    bool stopped() const { return mStopped; }
    /** What a stop signal does to this watch: it cancels its feedback and marks it stopped. */
    void stop();

private:
    QgsFeedback* mFeedback = nullptr;
    std::atomic<bool> mStopped{false};
};

/** Has a stop signal remove `path` (a file or a folder with all it holds) until forget(). */
void removeOnStop(const QString& path);
/** Undoes removeOnStop() for `path`. */
void forget(const QString& path);

/**
 * Returns a lock that holds off the removal while it lives: a commit takes it before it writes its journal,
 * so that a stop signal finds either nothing moved or everything. Recursive: forget() may be called under it.
 */
std::unique_lock<std::recursive_mutex> holdOff();
} // namespace VbasStopSignals

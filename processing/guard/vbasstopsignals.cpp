#include "vbasstopsignals.h"

#include <qgsfeedback.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <thread>
#include <utility>
#include <vector>

namespace
{
/** The signals that ask a process to stop, as terminals, service managers and closed sessions send them. */
constexpr std::array<int, 3> kStopSignals{SIGTERM, SIGINT, SIGHUP};

/** Where the signal handler wakes the thread that does the work; set once, before any handler is installed.
 */
int gWakeFd = -1;

extern "C" void onStopSignal(int signal)
{
    // Only what is safe in a signal handler: one byte into a pipe.
    const int saved = errno;
    const auto byte = static_cast<unsigned char>(signal);
    if (::write(gWakeFd, &byte, 1) < 0)
    {
        // The pipe is full of earlier signals, which are being served.
    }
    errno = saved;
}

struct State
{
    std::recursive_mutex mutex;
    std::vector<QString> paths;
    std::vector<VbasStopSignals::Watch*> watches;
    /** What each stop signal did before its handler was installed (kept after: a signal may be on its way).
     */
    std::array<struct sigaction, kStopSignals.size()> previous{};
    std::array<bool, kStopSignals.size()> installed{};
};

/** The process's one state, never destroyed: the serving thread may use it until the process ends. */
State& state()
{
    static State* const instance = new State;
    return *instance;
}

std::size_t indexOf(int signal)
{
    return std::size_t(std::find(kStopSignals.begin(), kStopSignals.end(), signal) - kStopSignals.begin());
}

void removePath(const QString& path)
{
    // A writer may still create a file in a folder being removed: try until the folder itself is gone,
    // after which nothing can be created in it.
    for (int attempt = 0; attempt < 20 && QFileInfo::exists(path); ++attempt)
    {
        if (QFileInfo(path).isDir())
            QDir(path).removeRecursively();
        else
            QFile::remove(path);
    }
}

/** Does what a stop signal asks, then what the signal did before. */
void serve(int signal)
{
    State& s = state();
    const std::size_t i = indexOf(signal);
    if (i >= kStopSignals.size())
        return;
    std::unique_lock<std::recursive_mutex> lock(s.mutex); // after any commit that is moving files
    for (const QString& path : std::as_const(s.paths))
        removePath(path);
    s.paths.clear();
    for (VbasStopSignals::Watch* watch : std::as_const(s.watches))
        watch->stop();
    const struct sigaction& previous = s.previous[i];
    if ((previous.sa_flags & SA_SIGINFO) != 0 && previous.sa_sigaction != nullptr)
    {
        siginfo_t info{};
        info.si_signo = signal;
        previous.sa_sigaction(signal, &info, nullptr);
    }
    else if (previous.sa_handler == SIG_DFL)
    {
        // The default: the process ends by the signal, as it would have, still holding the lock so that no
        // run stages anything meanwhile.
        ::signal(signal, SIG_DFL);
        sigset_t only;
        sigemptyset(&only);
        sigaddset(&only, signal);
        pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
        ::raise(signal);
    }
    else if (previous.sa_handler != SIG_IGN && previous.sa_handler != nullptr)
        previous.sa_handler(signal);
}

void serveSignals(int readFd)
{
    for (;;)
    {
        unsigned char byte = 0;
        const ssize_t read = ::read(readFd, &byte, 1);
        if (read < 0 && errno == EINTR)
            continue;
        if (read != 1)
            return;
        serve(int(byte));
    }
}

/** Installs the handlers (starting the serving thread the first time). Call it holding the state's lock. */
void install(State& s)
{
    if (gWakeFd < 0)
    {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0)
            return; // no handlers: the signals do what they did
        ::fcntl(fds[1], F_SETFL, O_NONBLOCK);
        gWakeFd = fds[1];
        std::thread(serveSignals, fds[0]).detach();
    }
    struct sigaction ours
    {
    };
    ours.sa_handler = onStopSignal;
    ours.sa_flags = SA_RESTART;
    sigemptyset(&ours.sa_mask);
    for (const int signal : kStopSignals)
        sigaddset(&ours.sa_mask, signal);
    for (std::size_t i = 0; i < kStopSignals.size(); ++i)
    {
        struct sigaction current
        {
        };
        if (::sigaction(kStopSignals[i], nullptr, &current) != 0 || current.sa_handler == onStopSignal)
            continue;
        // A signal the process ignores (nohup, a service) stays ignored.
        if ((current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_IGN)
            continue;
        s.previous[i] = current;
        s.installed[i] = ::sigaction(kStopSignals[i], &ours, nullptr) == 0;
    }
}

/** Puts back what install() replaced, where nobody replaced it since. Call it holding the state's lock. */
void restore(State& s)
{
    for (std::size_t i = 0; i < kStopSignals.size(); ++i)
    {
        struct sigaction current
        {
        };
        if (s.installed[i] && ::sigaction(kStopSignals[i], nullptr, &current) == 0 &&
            current.sa_handler == onStopSignal)
            ::sigaction(kStopSignals[i], &s.previous[i], nullptr);
        s.installed[i] = false;
    }
}
} // namespace

VbasStopSignals::Watch::Watch(QgsFeedback* feedback)
    : mFeedback(feedback)
{
    State& s = state();
    const std::lock_guard<std::recursive_mutex> lock(s.mutex);
    if (s.watches.empty())
        install(s);
    s.watches.push_back(this);
}

VbasStopSignals::Watch::~Watch()
{
    State& s = state();
    const std::lock_guard<std::recursive_mutex> lock(s.mutex);
    s.watches.erase(std::find(s.watches.begin(), s.watches.end(), this));
    if (s.watches.empty())
        restore(s);
}

void VbasStopSignals::Watch::stop()
{
    mStopped = true;
    if (mFeedback)
        mFeedback->cancel();
}

void VbasStopSignals::removeOnStop(const QString& path)
{
    State& s = state();
    const std::lock_guard<std::recursive_mutex> lock(s.mutex);
    s.paths.push_back(path);
}

void VbasStopSignals::forget(const QString& path)
{
    State& s = state();
    const std::lock_guard<std::recursive_mutex> lock(s.mutex);
    const auto found = std::find(s.paths.begin(), s.paths.end(), path);
    if (found != s.paths.end())
        s.paths.erase(found);
}

std::unique_lock<std::recursive_mutex> VbasStopSignals::holdOff()
{
    return std::unique_lock<std::recursive_mutex>(state().mutex);
}
